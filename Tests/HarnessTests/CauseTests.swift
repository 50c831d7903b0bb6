import Foundation
import PopoverDiff
import PopoverGeometry
import PopoverHarness
import PopoverImage
import PopoverSkins
import Testing
import TestSupport

/// Causes in the model's terms, from facts written by hand: which facts differ, what the
/// line says, how failing cases group into changes, and which part a pixel lies in.
@Suite("Causes, explanations and changes")
struct CauseTests {
    static func facts(apexX: Double, stageWidth: Double, image: String = "up") -> Facts {
        Facts([
            "apex": .group(Facts(["x": .number(apexX), "y": .number(1), "pixelX": .number(apexX * 2), "pixelY": .number(2)])),
            "image": .text(image),
            "stages": .list([.group(Facts(["width": .number(stageWidth), "height": .number(51)]))]),
        ])
    }

    @Test("the facts that differ, each with both values; a fact only one side has is null on the other")
    func deltas() {
        var after = Self.facts(apexX: 121.5, stageWidth: 137)
        after["mirrored"] = .flag(true)
        let deltas = CaseCause.deltas(expected: Self.facts(apexX: 120.5, stageWidth: 136), actual: after)
        #expect(deltas == [
            .init(fact: "apex.pixelX", expected: .number(241), actual: .number(243)),
            .init(fact: "apex.x", expected: .number(120.5), actual: .number(121.5)),
            .init(fact: "mirrored", expected: nil, actual: .flag(true)),
            .init(fact: "stages[0].width", expected: .number(136), actual: .number(137)),
        ])
        #expect(CaseCause.deltas(expected: after, actual: after).isEmpty)
    }

    static func failed(_ label: String, deltas: [CaseCause.Delta], parts: [PopoverPart] = [.arrow, .border],
                       maxDelta: Int = 40, facts: FactsStanding = .recorded, colour: String = "redder") -> CaseResult {
        var r = CaseResult.sample(.sample(skin: "s", direction: .up, label: label), status: .failed, message: "fail",
                                  metrics: ComparisonMetrics(width: 10, height: 10, differentPixels: 5,
                                                             maxChannelDelta: maxDelta, meanAbsoluteError: 1, psnr: 40,
                                                             pass: false, tolerance: "exact"))
        r.cause = CaseCause(facts: facts, geometry: deltas, parts: parts, colour: colour)
        return r
    }

    static let apexAndStage: [CaseCause.Delta] = [
        .init(fact: "apex.pixelX", expected: .number(241), actual: .number(243)),
        .init(fact: "apex.x", expected: .number(120.5), actual: .number(121.5)),
        .init(fact: "stages[0].width", expected: .number(136), actual: .number(137)),
    ]

    @Test("a case's line names each fact that moved with its values, root cause first, device pixels left out")
    func caseLines() {
        let record = RunRecord.sample(results: [
            Self.failed("a", deltas: Self.apexAndStage),
            Self.failed("b", deltas: [.init(fact: "stages[1].insets.left", expected: .number(126), actual: .number(127)),
                                      .init(fact: "metrics.arrowBase", expected: .number(37), actual: .number(39)),
                                      .init(fact: "image", expected: .text("up"), actual: .text("up-right"))]),
            Self.failed("c", deltas: [], parts: [.border], maxDelta: 12),
            Self.failed("d", deltas: [], parts: [.shadow], maxDelta: 2, facts: .stale, colour: "darker, more opaque"),
        ])
        let lines = Dictionary(uniqueKeysWithValues: record.results.map { result in
            var r = result
            r.explain()
            return (r.id, r.explanation)
        })
        #expect(lines["s/up/a@1x"] == "arrow apex moved +1 pt (x 120.5 -> 121.5); stage 1 width 136 -> 137 pt")
        #expect(lines["s/up/b@1x"] == "metric arrowBase 37 -> 39; image up -> up-right; stage 2 left cap 126 -> 127 pt")
        #expect(lines["s/up/c@1x"] == "geometry unchanged: the drawing changed in the border (redder, max channel delta 12)")
        #expect(lines["s/up/d@1x"] == "its golden's facts are stale (the golden changed since they were recorded); "
            + "the drawing changed in the shadow (darker, more opaque, max channel delta 2)")
    }

    @Test("failing cases group by the kinds and amounts of their deltas, biggest change first, IDs stable")
    func grouping() {
        let moved = (0..<3).map { Self.failed("m\($0)", deltas: [.init(fact: "apex.x", expected: .number(Double($0)), actual: .number(Double($0) + 1))]) }
        let movedTwo = Self.failed("t", deltas: [.init(fact: "apex.x", expected: .number(5), actual: .number(7))])
        let drawn = (0..<2).map { Self.failed("d\($0)", deltas: [], parts: [.border]) }
        let missing = CaseResult.sample(.sample(skin: "s", direction: .up, label: "new"), status: .missing, message: "no golden")
        let passed = CaseResult.sample(.sample(skin: "s", direction: .up, label: "ok"), status: .passed, message: "identical")
        var run = RunRecord.sample(results: drawn + [passed] + moved + [movedTwo, missing])
        run.groupChanges()
        #expect(run.changes.map(\.cases.count) == [3, 2, 1, 1])
        #expect(run.changes.map(\.kind) == ["geometry", "drawing", "geometry", "new"])
        #expect(run.changes[0].cases == ["s/up/m0@1x", "s/up/m1@1x", "s/up/m2@1x"])
        #expect(run.changes[0].explanation == "arrow apex moved +1 pt along x")
        #expect(run.changes[2].explanation == "arrow apex moved +2 pt along x")
        #expect(run.results.first { $0.id == "s/up/ok@1x" }?.change == nil)
        for change in run.changes {
            #expect(change.id.count == 9 && change.id.hasPrefix("c"))
            for id in change.cases { #expect(run.results.first { $0.id == id }?.change == change.id) }
        }
        // The same causes in another order, on another machine: the same changes.
        var reversed = RunRecord.sample(results: run.results.reversed())
        reversed.groupChanges()
        #expect(Set(reversed.changes.map(\.id)) == Set(run.changes.map(\.id)))
    }

    @Test("which way the colour moved, in words, from images made by hand")
    func colourWords() throws {
        let grey = RGBAImage(width: 2, height: 1, pixels: [100, 100, 100, 255, 100, 100, 100, 255])
        func moved(_ first: [UInt8], _ second: [UInt8] = [100, 100, 100, 255]) throws -> String? {
            let actual = RGBAImage(width: 2, height: 1, pixels: first + second)
            let diff = try #require(ImageComparison.compare(expected: grey, actual: actual, tolerance: .exact, wantsDiffMap: true).diffMap)
            return CaseCause.colour(expected: grey, actual: actual, diff: diff)
        }
        #expect(try moved([110, 100, 100, 255]) == "redder")
        #expect(try moved([110, 110, 110, 255], [104, 104, 104, 255]) == "lighter")
        #expect(try moved([90, 100, 102, 255]) == "less red")      // blue's +2 is under a quarter of red's 10
        #expect(try moved([100, 90, 110, 255]) == "less green, bluer")
        #expect(try moved([100, 100, 100, 200]) == "more transparent")
        #expect(try moved([80, 80, 80, 255], [100, 100, 100, 240]) == "darker, more transparent")
    }

    @Test("which part a pixel lies in, on an outline written by hand")
    func parts() {
        // Body 10...90 x 20...80 points, corners of 5, arrow on top from (40, 20) and
        // (60, 20) up to (50, 2), a border of 1 point, a shadow reaching 5 points out; at 1x
        // the band is 1.5 points either side of the outline.
        let outline = PopoverOutline(canvas: Size(width: 100, height: 100), scale: 1,
                                     body: Rect(x: 10, y: 20, width: 80, height: 60), cornerRadius: 5,
                                     apex: Point(x: 50, y: 2), baseStart: Point(x: 40, y: 20), baseEnd: Point(x: 60, y: 20),
                                     borderWidth: 1, shadow: Rect(x: 5, y: 15, width: 90, height: 70))
        let table: [(x: Int, y: Int, part: PopoverPart)] = [
            (50, 50, .body),         // the middle
            (49, 10, .arrow),        // inside the triangle
            (49, 1, .arrow),         // just above the apex, in the band
            (49, 20, .arrow),        // on the arrow's base, where it meets the body
            (10, 50, .border),       // on the left edge (centre 10.5)
            (11, 50, .border),       // 1.5 inside it
            (12, 50, .body),         // 2.5 inside
            (8, 50, .border),        // 1.5 outside
            (7, 50, .shadow),        // 2.5 outside, within the shadow's reach
            (2, 50, .outside),       // beyond the shadow
            (9, 19, .shadow),        // beyond the rounded corner (2.78 out), within the shadow
            (25, 5, .outside),       // beside the arrow, beyond the shadow
        ]
        for row in table {
            #expect(outline.part(atPixel: row.x, row.y) == row.part, "pixel (\(row.x), \(row.y))")
        }
    }

    @Test("a golden's facts as JSON (what a report keeps for undo, what factsDigest hashes): the same facts give the same bytes, whole numbers without a decimal point")
    func factsFile() throws {
        let file = GoldenFacts(caseID: "s/up/a@1x", golden: String(repeating: "ab", count: 32),
                               facts: Self.facts(apexX: 120.5, stageWidth: 136))
        let bytes = file.encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"width\" : 136\n") && text.contains("\"x\" : 120.5"))
        #expect(try GoldenFacts.decode(bytes, name: "f") == file)
        #expect(GoldenFacts(caseID: "s/up/a@1x", golden: file.golden, facts: try GoldenFacts.decode(bytes, name: "f").facts)
            .encoded() == bytes)
        #expect(throws: HarnessError.self) { try GoldenFacts.decode(Array("{\"format\": \"x\"}".utf8), name: "f") }
    }
}
