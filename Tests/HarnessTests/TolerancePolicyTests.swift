import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
import Testing

@Suite("ID patterns and the tolerance policy file")
struct TolerancePolicyTests {
    @Test("glob matching", arguments: [
        ("*", "", true),
        ("*", "gik-default/up/popover8-portrait@2x", true),
        ("gik-default/*", "gik-default/up/popover8-portrait@2x", true),   // * crosses "/"
        ("gik-default/*", "gik-default", false),
        ("gik-default/*", "gik-default/", true),
        ("*@2x", "gik-default/up/popover8-portrait@2x", true),
        ("*@2x", "gik-default/up/popover8-portrait@3x", false),
        ("*/up/*", "gik-default/up/popover8-portrait@2x", true),
        ("*/down/*", "gik-default/up/popover8-portrait@2x", false),
        ("gik-?efault/*", "gik-default/left/x", true),
        ("popover?-*", "popover8-portrait", true),
        ("popover?-*", "popover10-portrait", false),
        ("?", "", false),
        ("?", "a", true),
        ("?", "ab", false),
        ("a*b*c", "axxbyyc", true),
        ("a*b*c", "abcbc", true),
        ("a*b*c", "axxbyy", false),
        ("a**b", "ab", true),
        ("abc", "abc", true),
        ("abc", "abcd", false),
        ("abc", "ab", false),
        ("Gik*", "gik-default", false),       // case-sensitive
        ("", "", true),
        ("", "a", false),
        ("*x*x*x*", "axbxcxd", true),
        ("*x*x*x*", "axbxcd", false),
        // fnmatch(3) reads brackets and backslashes as classes and escapes; the pattern
        // syntax has neither, so they match themselves.
        ("a[b]c", "a[b]c", true),
        ("a[b]c", "abc", false),
        ("[a-z]*", "gik-default/up/x@1x", false),
        ("a\\b", "a\\b", true),
        ("a\\*", "a\\xyz", true),
        ("a\\*", "a*", false),
        ("a]", "a]", true),
        ("a\u{0}*", "a", false),             // NUL, which no ID holds: matches nothing
        (".*", ".hidden", true),               // a leading dot is not special
    ])
    func glob(c: (String, String, Bool)) {
        #expect(IDPattern(c.0).matches(c.1) == c.2)
    }

    /// Patterns against IDs of each kind the catalog makes, each answer worked by hand.
    @Test("patterns x IDs")
    func patternsByIDs() {
        let ids = ["gik-default/up/popover8-portrait@2x", "gik-tinted/left/sweep-104x200-offset+75@1x",
                   "path-slate/down/keyboard-popover2-portrait-t0ms@3x"]
        let table: [(String, [Bool])] = [
            ("gik-*", [true, true, false]),
            ("*/left/*", [false, true, false]),
            ("*@?x", [true, true, true]),
            ("*-portrait*", [true, false, true]),
            ("gik-??????/*", [false, true, false]),
            ("*+75@1x", [false, true, false]),
            ("path-slate/down/keyboard-popover2-portrait-t0ms@3x", [false, false, true]),
            ("*popover*@2x", [true, false, false]),
        ]
        for (pattern, expected) in table {
            #expect(ids.map { IDPattern(pattern).matches($0) } == expected, "\(pattern)")
        }
    }

    @Test("glob properties")
    func globProperties() {
        #expect(!IDPattern("gik-default/up/x").hasWildcards)
        #expect(IDPattern("gik-default/*").hasWildcards)
        #expect(IDPattern("a?c").hasWildcards)
        #expect(IDPattern("gik-default/up/*").specificity > IDPattern("gik-default/*").specificity)
        #expect(IDPattern("x*").description == "x*")
    }

    static let configJSON = #"""
    {
      "default": { "maxChannelDelta": "0-1", "differentPixels": "0-20" },
      "skins": {
        "gik-default": { "perceptualThreshold": 0.1 },
        "gik-*": { "differentPixels": 50 }
      },
      "cases": {
        "*@2x": { "differentPixels": "0-300" },
        "gik-default/up/*@2x": { "maxChannelDelta": 3 },
        "gik-default/up/popover8-portrait@2x": { "maxChannelDelta": "2-4", "perceptualThreshold": "off" },
        "plain/left/*": { "maxChannelDelta": 255 }
      }
    }
    """#

    @Test("most specific layer wins, option by option", arguments: [
        // Nothing matches but the suite default.
        ("plain/up/a@1x", "plain", tolerance(0...1, 0...20)),
        // Case pattern over suite.
        ("plain/left/a@1x", "plain", tolerance(0...255, 0...20)),
        ("plain/up/a@2x", "plain", tolerance(0...1, 0...300)),
        // Skin pattern, then exact skin name (more specific), over suite.
        ("gik-default/down/a@1x", "gik-default", tolerance(0...1, 0...50, perceptual: 0.1)),
        ("gik-other/down/a@1x", "gik-other", tolerance(0...1, 0...50)),
        // Case patterns over skins: "*@2x" then the more specific "gik-default/up/*@2x".
        ("gik-default/up/popover4@2x", "gik-default", tolerance(0...3, 0...300, perceptual: 0.1)),
        // The exact case ID has the last word, and can turn the threshold off.
        ("gik-default/up/popover8-portrait@2x", "gik-default", tolerance(2...4, 0...300)),
    ])
    func precedence(c: (String, String, Tolerance)) throws {
        let config = try TolerancePolicy(json: Data(Self.configJSON.utf8))
        #expect(config.tolerance(forCase: c.0, skin: c.1) == c.2)
    }

    @Test("matching keys are listed in the order they apply")
    func matchingKeys() throws {
        let config = try TolerancePolicy(json: Data(Self.configJSON.utf8))
        let keys = config.matchingKeys(forCase: "gik-default/up/popover8-portrait@2x", skin: "gik-default")
        #expect(keys.skins == ["gik-*", "gik-default"])
        #expect(keys.cases == ["*@2x", "gik-default/up/*@2x", "gik-default/up/popover8-portrait@2x"])
    }

    @Test("configuration read from a goldens folder's tolerances.json")
    func fromFile() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/tolerances-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.configJSON.utf8).write(to: URL(fileURLWithPath: folder + "/tolerances.json"))
        let config = try TolerancePolicy.load(goldensFolder: folder, suite: nil)
        #expect(config == (try TolerancePolicy(json: Data(Self.configJSON.utf8))))
        #expect(config.skins.count == 2 && config.cases.count == 4)
    }

    @Test("an empty configuration is exact everywhere")
    func emptyConfig() throws {
        let config = try TolerancePolicy(json: Data("{}".utf8))
        #expect(config == TolerancePolicy())
        #expect(config.tolerance(forCase: "a/b/c", skin: "a") == .exact)
    }

    @Test("configuration round-trips through JSON")
    func roundTrip() throws {
        let config = try TolerancePolicy(json: Data(Self.configJSON.utf8))
        let again = try TolerancePolicy(json: try JSONEncoder().encode(config))
        #expect(again == config)
        #expect(try config.validated() == config)
    }

    @Test("configuration errors name the JSON path", arguments: [
        (#"{"default": {"maxChannelDelta": "0-300"}}"#, "default.maxChannelDelta: 300 is outside 0-255"),
        (#"{"cases": {"gik/*": {"differentPixels": "9-3"}}}"#,
         "cases.gik/*.differentPixels: \"9-3\" has its lower bound above its upper bound"),
        (#"{"skins": {"gik": {"perceptualThreshold": 7}}}"#, "skins.gik.perceptualThreshold: 7.0 is outside 0-1"),
        (#"{"cases": {"x": {"maxChannelDelt": 3}}}"#,
         "cases.x: unknown key \"maxChannelDelt\" (expected one of maxChannelDelta, differentPixels, perceptualThreshold, "
         + "countAntiAliasing, ignore)"),
        (#"{"skins": {"gik-*": {"ignore": ["shadows"]}}}"#,
         "skins.gik-*.ignore: \"shadows\" is not one of arrow, border, body, shadow, outside"),
        (#"{"default": {"ignore": 3}}"#,
         "default.ignore: 3 is not one of arrow, border, body, shadow, outside or a list of them"),
        (#"{"default": {"countAntiAliasing": "yes"}}"#, "default.countAntiAliasing: \"yes\" is not true or false"),
        (#"{"skins": {"gik": {"countAntiAliasing": 1}}}"#, "skins.gik.countAntiAliasing: 1 is not true or false"),
        (#"{"cases": {"x/*": {"countAntiAliasing": null}}}"#, "cases.x/*.countAntiAliasing: null is not true or false"),
        (#"{"cases": {"x": {"countAntiAliasing": [true]}}}"#,
         "cases.x.countAntiAliasing: a list or an object is not true or false"),
        (#"{"case": {}}"#, "tolerance config: unknown key \"case\" (expected one of default, skins, cases)"),
    ])
    func configErrors(c: (String, String)) {
        do {
            let config = try TolerancePolicy(json: Data(c.0.utf8))
            Issue.record("decoded \(config)")
        } catch let error as ToleranceError {
            #expect(error.description == c.1)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("malformed JSON, or a value of the wrong type, is a JSON problem saying so")
    func malformedJSON() {
        #expect {
            try TolerancePolicy(json: Data("{\"cases\": ".utf8))
        } throws: { error in
            (error as? JSONProblem)?.reason.hasPrefix("not valid JSON") == true
        }
        #expect {
            try TolerancePolicy(json: Data(#"{"cases": []}"#.utf8))
        } throws: { error in
            (error as? JSONProblem)?.reason.hasPrefix("wrong type at cases: ") == true
        }
    }

    @Test("validated() checks layers built in code")
    func validatedInCode() {
        let config = TolerancePolicy(cases: ["a/*": ToleranceLayer(maxChannelDelta: 0...999)])
        do throws(ToleranceError) {
            try config.validated()
            Issue.record("validated")
        } catch {
            #expect(error.description == "cases.a/*.maxChannelDelta: 999 is outside 0-255")
        }
    }

    @Test("command-line layer over a configuration")
    func commandLineLayer() throws {
        let config = try TolerancePolicy(json: Data(Self.configJSON.utf8))
        let flags = try ToleranceLayer(parsingMaxChannelDelta: "5", differentPixels: nil, perceptual: "off")
        let t = config.tolerance(forCase: "gik-default/down/a@1x", skin: "gik-default").applying(flags)
        #expect(t == tolerance(0...5, 0...50))
        #expect(try ToleranceLayer(parsingMaxChannelDelta: nil, differentPixels: nil, perceptual: nil).isEmpty)
        let counting = try ToleranceLayer(parsingMaxChannelDelta: nil, differentPixels: nil, perceptual: nil,
                                          countAntiAliasing: true)
        #expect(!counting.isEmpty)
        #expect(config.tolerance(forCase: "gik-default/down/a@1x", skin: "gik-default").applying(counting)
                == (try Tolerance(maxChannelDelta: 0...1, differentPixels: 0...50, perceptualThreshold: 0.1,
                                  countAntiAliasing: true)))
    }

    @Test("countAntiAliasing is inherited and replaced layer by layer")
    func countAntiAliasingLayers() throws {
        let config = try TolerancePolicy(json: Data(#"""
            {"default": {"perceptualThreshold": 0.1},
             "skins": {"gik-*": {"countAntiAliasing": true}},
             "cases": {"gik-default/up/*": {"countAntiAliasing": false}}}
            """#.utf8))
        let counting = try Tolerance(perceptualThreshold: 0.1, countAntiAliasing: true)
        let excusing = try Tolerance(perceptualThreshold: 0.1)
        #expect(config.tolerance(forCase: "gik-default/down/a@1x", skin: "gik-default") == counting)
        #expect(config.tolerance(forCase: "gik-default/up/a@1x", skin: "gik-default") == excusing)
        #expect(config.tolerance(forCase: "plain/up/a@1x", skin: "plain") == excusing)
        #expect(try TolerancePolicy(json: try JSONEncoder().encode(config)) == config)
    }
}
