import Foundation
import PopoverGeometry
import PopoverHarness
import PopoverImage
import PopoverReport
import PopoverRaster
import PopoverSkins
import Testing
import TestSupport

/// The harness must catch regressions: each test draws the committed cases with one
/// deliberate fault and checks them against the committed goldens. The cases the fault
/// touches are predicted from geometry alone (layouts, arrow positions, shadow
/// rectangles, which skin), never from pixels; the check must fail exactly those and
/// pass every other. Each run's report is kept in PackageFolders.testReports/faults/<fault>/ to
/// look at.
@Suite("Deliberate faults are caught exactly where they bite", .serialized)
struct FaultInjectionTests {
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)

    /// Checks `cases` drawn with a fault; `facts` gives the geometry the faulty drawing
    /// uses (nil: the fault leaves the geometry as it is).
    func check(_ cases: [GoldenCase], fault: String,
               draw: @escaping @Sendable (GoldenCase, any Skin) throws -> Pixmap,
               facts: (@Sendable (GoldenCase, any Skin) throws -> DrawingFacts)? = nil,
               convert: @escaping @Sendable (Pixmap) -> RGBAImage = { $0.straightImage }) throws -> RunRecord {
        var options = CheckOptions()
        options.goldensFolder = PackageFolders.goldens
        options.recordMode = .never
        var runner = CheckRunner(catalog: catalog, options: options)
        let catalog = self.catalog
        runner.draw = { c in
            guard let skin = catalog.skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
            return convert(try draw(c, skin))
        }
        if let facts {
            runner.facts = { c in
                guard let skin = catalog.skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
                var drawn = try facts(c, skin)
                drawn.facts = drawn.facts.merging(c.origin)
                return drawn
            }
        }
        let checked = try ReportFolder(PackageFolders.testReports + "/faults/" + fault).check(runner, cases: cases)
        #expect(checked.reportPath != nil, "the report was not published: \(checked.run.errors)")
        return checked.run
    }

    /// Checks `cases` with the seven-image skins drawing (and stating the facts of) the
    /// layout `layout` gives instead of their own.
    func check(_ cases: [GoldenCase], fault: String,
               layout: @escaping @Sendable (GoldenCase, SevenImageMetrics) throws -> BackgroundLayout) throws -> RunRecord {
        try check(cases, fault: fault) { c, skin in
            guard let gik = skin as? SevenImageSkin else { return try skin.render(c.request).pixmap }
            return try gik.render(c.request, layout: layout(c, gik.layoutMetrics)).pixmap
        } facts: { c, skin in
            guard let gik = skin as? SevenImageSkin else { return try skin.drawingFacts(for: c.request) }
            return try gik.drawingFacts(for: c.request, layout: layout(c, gik.layoutMetrics))
        }
    }

    func expectExactly(_ run: RunRecord, failing predicted: Set<String>, _ fault: String) {
        let failed = Set(run.results.filter { $0.status == .failed }.map(\.id))
        #expect(!predicted.isEmpty, "\(fault): the fault should touch some cases")
        let missed = predicted.subtracting(failed).sorted(), wrong = failed.subtracting(predicted).sorted()
        #expect(missed.isEmpty && wrong.isEmpty,
                "\(fault): \(missed.count) predicted cases passed (\(missed.prefix(5))), \(wrong.count) others failed (\(wrong.prefix(5)))")
        #expect(run.results.allSatisfy { $0.status == .passed || $0.status == .failed })
        #expect(run.count(.passed) == run.results.count - predicted.count)
    }

    /// `c + k`, the first stage's length before rounding (k as in specification §5.5: 28
    /// for the standard images), of a case laid out on `layout`'s image.
    static func unroundedLength(_ c: GoldenCase, metrics: SevenImageMetrics, layout: BackgroundLayout) -> Double {
        let spec = metrics[layout.image]
        let vertical = c.direction.isVertical
        let centre = (vertical ? c.request.bounds.width : c.request.bounds.height) / 2 + c.request.arrowOffset
        return vertical ? centre + (spec.size.width - 1) / 2 : centre + spec.size.height / 2 - 1 - metrics.sideArrowCenterOffset
    }

    /// A two-stage layout whose first stage is `length(c + k)` long instead of the layout's
    /// own `roundf(c + k)`, the second stage's leading cap following it.
    static func relengthened(_ c: GoldenCase, metrics: SevenImageMetrics,
                             length lengthOf: (Double) -> Double) throws -> BackgroundLayout {
        var layout = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                               arrowOffset: c.request.arrowOffset, metrics: metrics)
        guard layout.stages.count == 2 else { return layout }
        let length = lengthOf(unroundedLength(c, metrics: metrics, layout: layout))
        var first = layout.stages[0], second = layout.stages[1]
        if c.direction.isVertical {
            first.size.width = length
            second.capInsets.left = length - (metrics.secondStageRightInset + 1)
        } else {
            first.size.height = length
            second.capInsets.top = length - (metrics.secondStageBottomInset + 1)
        }
        layout.stages = [first, second]
        return layout
    }

    /// The seven-image cases among `cases` that stretch twice: each with its layout's
    /// first-stage length and that length before rounding.
    func twoStageLengths(_ cases: [GoldenCase]) throws -> [(id: String, rounded: Double, unrounded: Double)] {
        try cases.compactMap { c in
            guard let skin = catalog.skin(c.skinID) as? SevenImageSkin else { return nil }
            let layout = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                                   arrowOffset: c.request.arrowOffset, metrics: skin.layoutMetrics)
            guard layout.stages.count == 2 else { return nil }
            let first = layout.stages[0].size
            return (c.id, c.direction.isVertical ? first.width : first.height,
                    Self.unroundedLength(c, metrics: skin.layoutMetrics, layout: layout))
        }
    }

    /// The stage length without the original's rounding fix.
    @Sendable static func unroundedLayout(_ c: GoldenCase, metrics: SevenImageMetrics) throws -> BackgroundLayout {
        try relengthened(c, metrics: metrics) { $0 }
    }

    /// The stage length rounded as a `Double`, half away from zero, instead of through a
    /// `Float` as C's `roundf` does: the edit "round the Double instead".
    @Sendable static func doubleRoundedLayout(_ c: GoldenCase, metrics: SevenImageMetrics) throws -> BackgroundLayout {
        try relengthened(c, metrics: metrics) { $0.rounded(.toNearestOrAwayFromZero) }
    }

    @Test("the two-stage stretch without the rounding fix: fails the fractional two-stage cases, nothing else")
    func unroundedStretch() throws {
        let cases = catalog.cases.filter { $0.skinID.hasPrefix("gik-") && $0.scale <= 2 }
        // Touched where rounding moves the stage length; keyframe sizes carry float
        // residue (1e-12) that no pixel can show.
        let predicted = Set(try twoStageLengths(cases).filter { abs($0.unrounded - $0.rounded) > 1e-6 }.map(\.id))
        let run = try check(cases, fault: "unrounded-stretch", layout: Self.unroundedLayout)
        expectExactly(run, failing: predicted, "unrounded stretch")

        // Explained as what the fault does: stage 1's length loses its rounding, stage 2's
        // leading cap and the apex (specification §5.8: apex = L - 29 for the standard
        // images) move with it by the same amount, nothing else in points changes.
        for result in run.results where result.status == .failed {
            let c = try #require(cases.first { $0.id == result.id })
            let skin = try #require(catalog.skin(c.skinID) as? SevenImageSkin)
            let rounded = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                                    arrowOffset: c.request.arrowOffset, metrics: skin.layoutMetrics)
            let vertical = c.direction.isVertical
            let centre = (vertical ? c.request.bounds.width : c.request.bounds.height) / 2 + c.request.arrowOffset
            let length = centre + 28, roundedLength = vertical ? rounded.stages[0].size.width : rounded.stages[0].size.height
            let amount = length - roundedLength
            let (axis, lengthFact, capFact) = vertical ? ("x", "stages[0].width", "stages[1].insets.left")
                : ("y", "stages[0].height", "stages[1].insets.top")
            let cause = try #require(result.cause, "\(result.id) has no cause")
            #expect(cause.facts == .recorded)
            let told = Dictionary(uniqueKeysWithValues: cause.geometry.filter { !$0.fact.contains("pixel") }
                .map { ($0.fact, $0.amount ?? .nan) })
            #expect(Set(told.keys) == ["apex.\(axis)", lengthFact, capFact], "\(result.id): \(told)")
            for fact in [lengthFact, capFact] {
                #expect(abs((told[fact] ?? .nan) - amount) < 1e-9, "\(result.id) \(fact): \(told[fact] ?? .nan) vs \(amount)")
            }
            // Where neither stage is shorter than its caps (image caps 9 + 47 up and down,
            // 24 + 47 at the side; stage 2 keeps L - 1), the apex keeps its distance from
            // stage 1's end (§5.8) and moves by the same amount; nearer the thresholds the
            // shrunk caps scale it (§5.9), so it only moves.
            let edge = vertical ? c.request.bounds.width : c.request.bounds.height
            let caps = vertical ? 56.0 : 71.0
            if min(length, roundedLength) >= caps && edge >= max(length, roundedLength) - 1 {
                #expect(abs((told["apex.\(axis)"] ?? .nan) - amount) < 1e-9, "\(result.id) apex: \(told)")
            }
            #expect(result.explanation?.hasPrefix("the arrow tip moved ") == true, "\(result.explanation ?? "")")
        }
        // A change to the code: one change per set of facts moved and the ways they
        // moved, whatever the amounts.
        let signatures = Set(run.results.filter { $0.status == .failed }.map { r in
            (r.cause?.geometry ?? []).filter { !$0.fact.contains("pixel") }
                .map { "\($0.fact) \(($0.amount ?? 0) > 0)" }.sorted()
        })
        #expect(run.changes.count == signatures.count)
        #expect(run.changes.allSatisfy { $0.kind == "geometry" })
    }

    @Test("the stage length rounded as a Double instead of through a Float: fails exactly the cases on the Float edge")
    func doubleRoundedStretch() throws {
        let cases = catalog.cases.filter { $0.skinID.hasPrefix("gik-") && $0.scale <= 2 }
        // Touched where c + k (specification §5.5) is so close below a half that a Float
        // holds the half itself: rounding the Float then goes up, the Double down (§5.7).
        let predicted = Set(try twoStageLengths(cases).filter {
            Double(Float($0.unrounded).rounded(.toNearestOrAwayFromZero)) != $0.unrounded.rounded(.toNearestOrAwayFromZero)
        }.map(\.id))
        // Only the boundary family's stage-float cases sit there: c + k = 88.4999999, which
        // is the Float 88.5 (its spacing there is 2^-17), in each direction of the four
        // seven-image skins at both scales. Before that family no case did, and the edit
        // passed every case.
        let floatEdge = Set(cases.filter { $0.label.hasPrefix("boundary-stage-float-") }.map(\.id))
        #expect(floatEdge.count == 4 * 4 * 2)
        #expect(predicted == floatEdge, "\(predicted.symmetricDifference(floatEdge).sorted().prefix(5))")

        let run = try check(cases, fault: "double-rounded-stretch", layout: Self.doubleRoundedLayout)
        expectExactly(run, failing: predicted, "double-rounded stretch")
        // Explained as the stage one point shorter (88 instead of 89) and the apex with it.
        for result in run.results where result.status == .failed {
            let amounts = Dictionary(uniqueKeysWithValues: (result.cause?.geometry ?? []).map { ($0.fact, $0.amount) })
            let (lengthFact, axis) = result.id.contains("/up/") || result.id.contains("/down/")
                ? ("stages[0].width", "x") : ("stages[0].height", "y")
            #expect(amounts[lengthFact] == -1, "\(result.id): \(amounts)")
            #expect(amounts["apex.\(axis)"] == -1, "\(result.id): \(amounts)")
        }
        // Reviewed as two changes, one per axis: the stage's width and the apex's x one
        // point less for the arrows on the top and bottom edges (4 skins x 2 directions x
        // 2 scales), its height and y for those on the sides; no skin input changed.
        try #require(run.changes.count == 2, "\(run.changes.map(\.explanation))")
        for change in run.changes {
            #expect(change.kind == "geometry" && change.cases.count == 16)
            let vertical = change.cases.filter { $0.contains("/up/") || $0.contains("/down/") }
            #expect(vertical.isEmpty || vertical.count == 16, "\(change.cases)")
            #expect(change.explanation.hasPrefix("the arrow tip moves by up to 1 pt; "), "\(change.explanation)")
            #expect(change.explanation.contains("no skin input changed"), "\(change.explanation)")
        }
    }

    @Test("the arrow moved by one point: fails every case whose arrow would move, passes those pinned to a corner")
    func arrowMovedOnePoint() throws {
        let cases = catalog.cases.filter { $0.scale == 1 }
        var predicted = Set<String>()
        for c in cases {
            var moved = c.request
            moved.arrowOffset += 1
            let skin = try #require(catalog.skin(c.skinID))
            let changes: Bool
            switch skin {
            case let gik as SevenImageSkin:
                // The corner images carry the arrow at a fixed place: moving it only shows
                // where the layout changes.
                changes = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                                    arrowOffset: c.request.arrowOffset, metrics: gik.layoutMetrics)
                    != BackgroundLayout.make(bounds: moved.bounds, direction: c.direction,
                                             arrowOffset: moved.arrowOffset, metrics: gik.layoutMetrics)
            case let path as PathSkin:
                // The path skin stops the arrow where it meets a corner.
                changes = path.outlinePath(c.request) != path.outlinePath(moved)
            default:
                changes = true
            }
            if changes { predicted.insert(c.id) }
        }
        let run = try check(cases, fault: "arrow-moved") { c, skin in
            var moved = c.request
            moved.arrowOffset += 1
            return try skin.render(moved).pixmap
        } facts: { c, skin in
            var moved = c.request
            moved.arrowOffset += 1
            return try skin.drawingFacts(for: moved)
        }
        expectExactly(run, failing: predicted, "arrow moved by one point")

        // Explained as the move: the offset is one point more in every failing case; where
        // the arrow stays on its two-stage image (or its own arrow image, or a path clear of
        // the corners) the apex moves exactly one point along its edge.
        for result in run.results where result.status == .failed {
            let c = try #require(cases.first { $0.id == result.id })
            let cause = try #require(result.cause)
            let amounts = Dictionary(uniqueKeysWithValues: cause.geometry.map { ($0.fact, $0.amount) })
            #expect(amounts["offset"] == 1, "\(result.id): \(cause.geometry.map(\.fact))")
            let axis = c.direction.isVertical ? "apex.x" : "apex.y"
            var moved = c.request
            moved.arrowOffset += 1
            // The apex moves exactly one point where both drawings keep the two-stage image
            // and neither stage is shorter than its caps (image caps 56 up and down, 71 at
            // the side; stage 2 keeps L - 1; specification §5.8, §5.9); the two-asset skin
            // draws its arrow image at the offset. Keyframe sizes carry float residue.
            let keepsTwoStages: Bool
            if let gik = catalog.skin(c.skinID) as? SevenImageSkin {
                let before = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                                       arrowOffset: c.request.arrowOffset, metrics: gik.layoutMetrics)
                let after = try BackgroundLayout.make(bounds: moved.bounds, direction: c.direction,
                                                      arrowOffset: moved.arrowOffset, metrics: gik.layoutMetrics)
                let edge = c.direction.isVertical ? c.request.bounds.width : c.request.bounds.height
                let caps = c.direction.isVertical ? 56.0 : 71.0
                let lengths = [before, after].compactMap { $0.stages.count == 2
                    ? (c.direction.isVertical ? $0.stages[0].size.width : $0.stages[0].size.height) : nil }
                keepsTwoStages = lengths.count == 2 && lengths.allSatisfy { $0 >= caps && edge >= $0 - 1 }
            } else {
                keepsTwoStages = c.skinID == "two-asset-orange"
            }
            if keepsTwoStages {
                #expect(abs((amounts[axis] ?? nil).map { $0 - 1 } ?? .nan) < 1e-9, "\(result.id): \(result.explanation ?? "")")
                // Told as what a person sees: the tip one point along its axis (right or down).
                #expect(result.explanation?.hasPrefix("the arrow tip moved 1 pt ") == true, "\(result.explanation ?? "")")
            }
        }
    }

    @Test("the shadow jumping to its final rectangle when the keyboard animation starts")
    func shadowJumps() throws {
        let cases = catalog.cases.filter { $0.family == .keyboard }
        var finals: [String: Rect] = [:]
        var predicted = Set<String>()
        for c in cases {
            let animation = try KeyboardAnimation(anchor: Anchor.named(c.anchor!), orientation: c.orientation!,
                                                  metrics: catalog.skin(c.skinID)!.metrics)
            let final = try animation.shadowRect(at: KeyboardAnimation.duration)
            finals[c.id] = final
            if catalog.skin(c.skinID)!.castsShadow && c.request.shadowRect != final { predicted.insert(c.id) }
        }
        let jumps = finals
        let run = try check(cases, fault: "shadow-jumps") { c, skin in
            var request = c.request
            request.shadowRect = jumps[c.id]
            return try skin.render(request).pixmap
        } facts: { c, skin in
            var request = c.request
            request.shadowRect = jumps[c.id]
            return try skin.drawingFacts(for: request)
        }
        expectExactly(run, failing: predicted, "shadow jumps")
        // Explained as the shadow's rectangle, and nothing else in points.
        for result in run.results where result.status == .failed {
            let facts = Set((result.cause?.geometry ?? []).map(\.fact))
            #expect(!facts.isEmpty && facts.allSatisfy { $0.hasPrefix("shadow.") }, "\(result.id): \(facts)")
        }
    }

    @Test("a changed colour: the sample theme's border a shade lighter fails every case of that theme only")
    func changedColour() throws {
        let cases = catalog.cases.filter { $0.scale == 1 && ($0.skinID == "gik-sample" || $0.skinID == "gik-default") }
        let predicted = Set(cases.filter { $0.skinID == "gik-sample" }.map(\.id))
        var colours = ColorSet.sampleApp
        colours.border.red += 2.0 / 255
        let tinted = SevenImageSkin(id: "gik-sample", summary: "faulty", artwork: .rendered(colours))
        let run = try check(cases, fault: "changed-colour") { c, skin in
            c.skinID == "gik-sample" ? try tinted.render(c.request).pixmap : try skin.render(c.request).pixmap
        }
        expectExactly(run, failing: predicted, "changed colour")
        // One change: the geometry is the same; the border (and the arrow's outline, which
        // is border too) changed.
        #expect(run.changes.count == 1)
        #expect(run.changes.first?.kind == "drawing")
        #expect(run.changes.first?.cases.count == predicted.count)
        for result in run.results where result.status == .failed {
            let parts = Set(result.cause?.parts ?? [])
            #expect(parts.contains(.border) && parts.isSubset(of: [.arrow, .border]), "\(result.id): \(parts)")
        }
    }

    /// Straight colour as the specification says (§14.5: to nearest, halves up), and as a
    /// fault would have it (truncated), both written here on their own.
    static func straight(_ pixmap: Pixmap, truncating: Bool) -> RGBAImage {
        var out = [UInt8](repeating: 0, count: pixmap.data.count)
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = Int(pixmap.data[i + 3])
            guard a > 0 else { continue }
            for c in 0..<3 {
                let v = Int(pixmap.data[i + c]) * 255 + (truncating ? 0 : a / 2)
                out[i + c] = UInt8(min(255, v / a))
            }
            out[i + 3] = UInt8(a)
        }
        return RGBAImage(width: pixmap.width, height: pixmap.height, pixels: out)
    }

    @Test("the premultiplied-to-straight conversion truncating instead of rounding fails every case it touches")
    func conversionTruncates() throws {
        let cases = catalog.cases.filter { $0.scale == 1 }
        var predicted = Set<String>()
        for c in cases {
            let pixmap = try #require(catalog.skin(c.skinID)).render(c.request).pixmap
            if Self.straight(pixmap, truncating: true) != Self.straight(pixmap, truncating: false) { predicted.insert(c.id) }
        }
        let run = try check(cases, fault: "conversion-truncates") { c, skin in
            try skin.render(c.request).pixmap
        } convert: { Self.straight($0, truncating: true) }
        expectExactly(run, failing: predicted, "conversion truncates")
        // Translucent pixels are everywhere a shadow or an anti-aliased edge is: nearly
        // every case is touched.
        #expect(predicted.count * 10 > cases.count * 9)
    }
}
