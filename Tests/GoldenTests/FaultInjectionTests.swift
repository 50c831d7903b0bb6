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
/// pass every other. Each run's report is kept in .build/test-reports/faults/<fault>/ to
/// look at.
@Suite("Deliberate faults are caught exactly where they bite", .serialized)
struct FaultInjectionTests {
    let catalog = try! CaseCatalog.standard(skinsFolder: PackageFolders.skins)

    func check(_ cases: [GoldenCase], fault: String,
               draw: @escaping @Sendable (GoldenCase, any Skin) throws -> Pixmap,
               convert: @escaping @Sendable (Pixmap) -> RGBAImage = { $0.straightImage }) throws -> CheckRun {
        var options = CheckOptions()
        options.goldensFolder = PackageFolders.goldens
        options.recordMode = .never
        var runner = CheckRunner(catalog: catalog, options: options)
        let catalog = self.catalog
        runner.draw = { c in
            guard let skin = catalog.skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
            return convert(try draw(c, skin))
        }
        let checked = try ReportFolder(PackageFolders.testReports + "/faults/" + fault).check(runner, cases: cases)
        #expect(checked.reportPath != nil, "the report was not published: \(checked.run.errors)")
        return checked.run
    }

    func expectExactly(_ run: CheckRun, failing predicted: Set<String>, _ fault: String) {
        let failed = Set(run.results.filter { $0.status == .failed }.map(\.id))
        #expect(!predicted.isEmpty, "\(fault): the fault should touch some cases")
        let missed = predicted.subtracting(failed).sorted(), wrong = failed.subtracting(predicted).sorted()
        #expect(missed.isEmpty && wrong.isEmpty,
                "\(fault): \(missed.count) predicted cases passed (\(missed.prefix(5))), \(wrong.count) others failed (\(wrong.prefix(5)))")
        #expect(run.results.allSatisfy { $0.status == .passed || $0.status == .failed })
        #expect(run.count(.passed) == run.results.count - predicted.count)
    }

    /// The stage length without the original's rounding fix.
    static func unroundedLayout(_ c: GoldenCase, metrics: SevenImageMetrics) throws -> BackgroundLayout {
        var layout = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                               arrowOffset: c.request.arrowOffset, metrics: metrics)
        guard layout.stages.count == 2 else { return layout }
        let spec = metrics[layout.image]
        let vertical = c.direction.isVertical
        let centre = (vertical ? c.request.bounds.width : c.request.bounds.height) / 2 + c.request.arrowOffset
        let length = vertical ? centre + (spec.size.width - 1) / 2
            : centre + spec.size.height / 2 - 1 - metrics.sideArrowCenterOffset
        var first = layout.stages[0], second = layout.stages[1]
        if vertical {
            first.size.width = length
            second.capInsets.left = length - (metrics.secondStageRightInset + 1)
        } else {
            first.size.height = length
            second.capInsets.top = length - (metrics.secondStageBottomInset + 1)
        }
        layout.stages = [first, second]
        return layout
    }

    @Test("the two-stage stretch without the rounding fix: fails the fractional two-stage cases, nothing else")
    func unroundedStretch() throws {
        let cases = catalog.cases.filter { $0.skinID.hasPrefix("gik-") && $0.scale <= 2 }
        var predicted = Set<String>()
        for c in cases {
            guard let skin = catalog.skin(c.skinID) as? SevenImageSkin else { continue }
            let rounded = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                                    arrowOffset: c.request.arrowOffset, metrics: skin.layoutMetrics)
            guard rounded.stages.count == 2 else { continue }
            // Touched where rounding moves the stage length; keyframe sizes carry float
            // residue (1e-12) that no pixel can show.
            let unrounded = try Self.unroundedLayout(c, metrics: skin.layoutMetrics)
            let length = { (layout: BackgroundLayout) in
                c.direction.isVertical ? layout.stages[0].size.width : layout.stages[0].size.height
            }
            if abs(length(unrounded) - length(rounded)) > 1e-6 { predicted.insert(c.id) }
        }
        let run = try check(cases, fault: "unrounded-stretch") { c, skin in
            guard let gik = skin as? SevenImageSkin else { return try skin.render(c.request).pixmap }
            return try gik.render(c.request, layout: Self.unroundedLayout(c, metrics: gik.layoutMetrics)).pixmap
        }
        expectExactly(run, failing: predicted, "unrounded stretch")
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
        }
        expectExactly(run, failing: predicted, "arrow moved by one point")
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
        }
        expectExactly(run, failing: predicted, "shadow jumps")
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
