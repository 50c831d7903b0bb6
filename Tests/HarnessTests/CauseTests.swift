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
        // What a person sees first, then the skin's inputs by their field, then the rest.
        #expect(lines["s/up/a@1x"] == "the arrow tip moved 1 pt right (x 120.5 -> 121.5); a stretch changed length; "
            + "stage 1 width 136 -> 137 pt")
        #expect(lines["s/up/b@1x"] == "the image switched from up to up-right; a stretch seam moved; arrowBase 37 -> 39; "
            + "stage 2 left cap 126 -> 127 pt")
        #expect(lines["s/up/c@1x"] == "geometry unchanged: the drawing changed in the border (redder, max channel delta 12)")
        #expect(lines["s/up/d@1x"] == "the golden file changed since its facts were recorded (edited by hand, or by another "
            + "tool); the drawing changed in the shadow (darker, more opaque, max channel delta 2)")
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
        // No input changed: the apex moves of +1 and +2 are one kind (apex.x, up), told
        // apart only as variants; ordered by changed area (4 x 5 px, 2 x 5 px, none).
        #expect(run.changes.map(\.cases.count) == [4, 2, 1])
        #expect(run.changes.map(\.kind) == ["geometry", "drawing", "new"])
        #expect(run.changes[0].cases == ["s/up/m0@1x", "s/up/m1@1x", "s/up/m2@1x", "s/up/t@1x"])
        #expect(run.changes[0].explanation == "the arrow tip moves by up to 2 pt; no skin input changed (apex.x up)")
        #expect(run.changes[0].variants.map { [$0.explanation, String($0.count)] }
                == [["the arrow tip moved 1 pt right", "3"], ["the arrow tip moved 2 pt right", "1"]])
        #expect(run.changes[0].magnitude.points == 2 && run.changes[0].magnitude.pixels == 20)
        #expect(run.changes[1].explanation == "geometry unchanged: the drawing changed in the border (redder)")
        #expect(run.changes[2].explanation == "s: 1 new case, no golden before this run")
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

    static func edited(_ skin: String, _ label: String, scale: Int = 1, direction: ArrowDirection = .left,
                       deltas: [CaseCause.Delta], pixels: Int = 5, image: String = "side") -> CaseResult {
        var r = CaseResult.sample(.sample(skin: skin, direction: direction, scale: scale, label: label), status: .failed, message: "fail",
                                  metrics: ComparisonMetrics(width: 10, height: 10, differentPixels: pixels, maxChannelDelta: 9,
                                                             meanAbsoluteError: 1, psnr: 40, pass: false, tolerance: "exact"))
        r.cause = CaseCause(facts: .recorded, geometry: deltas, parts: [.arrow], colour: "darker", image: image)
        return r
    }

    @Test("one edit is one change whatever amounts it gave; three edits are three; new cases join their skin's edit with the orphans they replace")
    func byCause() {
        let offset = CaseCause.Delta(fact: "metrics.sideArrowCenterOffset", expected: .number(7), actual: .number(8))
        let base = CaseCause.Delta(fact: "metrics.arrowBase", expected: .number(37), actual: .number(39))
        let border = CaseCause.Delta(fact: "skin.images.colours.border", expected: .text("[0, 0, 0, 1]"), actual: .text("[0.2, 0, 0, 1]"))
        func apexY(_ from: Double, _ to: Double) -> CaseCause.Delta { .init(fact: "apex.y", expected: .number(from), actual: .number(to)) }
        // sideArrowCenterOffset 7 -> 8 in skin a: the apex moves by 1, 0.382979 and
        // 0.098958 pt in different cases (the amounts issue 32 saw split into changes).
        let a = [Self.edited("a", "p1", deltas: [offset, apexY(40, 41)]),
                 Self.edited("a", "p2", deltas: [offset, apexY(40, 40.382979)]),
                 Self.edited("a", "p3", scale: 2, deltas: [offset, apexY(40, 40.382979)]),
                 Self.edited("a", "p4", deltas: [offset, apexY(40, 40.098958)])]
        // arrowBase 37 -> 39 in skin b: the image switches side -> side-top, and a sweep
        // case is renamed (its offset moved): a new case, and the orphan it replaces.
        let b = [Self.edited("b", "q1", deltas: [base, .init(fact: "image", expected: .text("side"), actual: .text("side-top")),
                                                 .init(fact: "metrics.imageHeight", expected: .number(72), actual: .number(67))])]
        let renamed = CaseResult.sample(.sample(skin: "b", direction: .left, family: .sweep, label: "sweep-120x104-offset+10"),
                                        status: .new, message: "recorded", width: 10, height: 10)
        // The border colour of skin c: no geometry moved.
        let c = [Self.edited("c", "r1", direction: .up, deltas: [border], pixels: 50)]
        var run = RunRecord.sample(results: a + b + c + [renamed],
                                   orphans: ["b/left/sweep-120x104-offset+9@1x", "b/up/sweep-120x104-offset+9@1x"])
        run.groupChanges()
        // Areas: c 50; a 5 + 5 + 5/4 + 5 = 16.25; b 5 + 100 (the new case's whole image).
        #expect(run.changes.map(\.kind) == ["input", "input", "input"])
        #expect(run.changes.map(\.skins) == [["b"], ["c"], ["a"]])
        let (cb, cc, ca) = (run.changes[0], run.changes[1], run.changes[2])
        #expect(ca.cases == ["a/left/p1@1x", "a/left/p2@1x", "a/left/p3@2x", "a/left/p4@1x"])
        #expect(ca.edits == [Change.Edit(skin: "a", field: "sideArrowCenterOffset", expected: "7", actual: "8")])
        #expect(ca.explanation == "a: sideArrowCenterOffset 7 -> 8: the arrow tip moves by up to 1 pt")
        #expect(ca.variants.map { [$0.explanation, String($0.count)] } == [
            ["the arrow tip moved 0.383 pt down", "2"], ["the arrow tip moved 1 pt down", "1"], ["the arrow tip moved 0.099 pt down", "1"]])
        #expect(ca.magnitude.area == 16.25 && ca.magnitude.points == 1)
        #expect(cb.cases == ["b/left/q1@1x", "b/left/sweep-120x104-offset+10@1x"])
        #expect(cb.newCases == ["b/left/sweep-120x104-offset+10@1x"])
        #expect(cb.orphans == ["b/left/sweep-120x104-offset+9@1x"])
        #expect(cb.explanation == "b: arrowBase 37 -> 39: the image chosen switches (side -> side-top); "
            + "1 new case replacing 1 orphaned golden")
        // The newly chosen image's height is derived, not an edit of the skin.
        #expect(cb.facts.map(\.name) == ["arrowBase", "derived: the chosen image's imageHeight", "derived: image"])
        #expect(cc.edits == [Change.Edit(skin: "c", field: "images.colours.border", expected: "[0, 0, 0, 1]", actual: "[0.2, 0, 0, 1]")])
        #expect(cc.explanation == "c: images.colours.border [0, 0, 0, 1] -> [0.2, 0, 0, 1]: the drawing changed in the arrow (darker)")
        #expect(cc.command == "popover-goldens accept --change \(cc.id)")
        for change in run.changes { for id in change.cases { #expect(run.results.first { $0.id == id }?.change == change.id) } }
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

    @Test("a golden's facts as JSON (what factsDigest hashes): the same facts give the same bytes, whole numbers without a decimal point")
    func factsFile() throws {
        let file = GoldenFacts(caseID: "s/up/a@1x", golden: String(repeating: "ab", count: 32),
                               facts: Self.facts(apexX: 120.5, stageWidth: 136))
        let bytes = file.encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"width\" : 136\n") && text.contains("\"x\" : 120.5"))
        #expect(GoldenFacts(caseID: "s/up/a@1x", golden: file.golden, facts: Self.facts(apexX: 120.5, stageWidth: 136))
            .encoded() == bytes)
    }
}
