import PopoverGeometry
import Testing
import TestSupport

/// Properties of `BackgroundLayout.make` over thousands of random bounds, directions and
/// offsets (seeded: every run draws the same samples).
@Suite("Layout properties over random inputs")
struct PropertyLayoutTests {
    /// A length from `minimum` up: mostly near it (where thresholds bite), sometimes far,
    /// sometimes fractional.
    static func length(from minimum: Double, _ random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return minimum
        case 1...5: return minimum + Double(Int.random(in: 0...120, using: &random))
        case 6, 7: return minimum + Double.random(in: 0...400, using: &random)
        case 8: return minimum + Double(Int.random(in: 0...4000, using: &random)) / 2
        default: return minimum * Double.random(in: 1...1e5, using: &random)
        }
    }

    /// An arrow offset: anywhere the arrow's base stays on the edge, often exactly at a
    /// corner threshold or half a point beside it, sometimes beyond the edge altogether.
    static func offset(edge: Double, metrics: SevenImageMetrics, _ random: inout SplitMix64) -> Double {
        let extreme = max(0, edge / 2 - metrics.arrowBase / 2)
        let threshold = extreme - metrics.cornerRadius
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return 0
        case 1: return [-1.0, 1][Int.random(in: 0...1, using: &random)] * extreme
        case 2: return [-1.0, 1][Int.random(in: 0...1, using: &random)] * threshold
            + [-1, -0.5, 0, 0.5, 1][Int.random(in: 0...4, using: &random)]
        case 3: return Double.random(in: -edge...edge, using: &random)
        default: return Double.random(in: -extreme...extreme, using: &random)
        }
    }

    /// A direction, bounds of at least the minimum for it, and an offset along its edge.
    static func request(metrics: SevenImageMetrics,
                        _ random: inout SplitMix64) -> (direction: ArrowDirection, bounds: Size, offset: Double) {
        let direction = ArrowDirection.allCases[Int.random(in: 0..<4, using: &random)]
        let minimum = metrics.minimumBounds(for: direction)
        let bounds = Size(width: Self.length(from: minimum.width, &random),
                          height: Self.length(from: minimum.height, &random))
        let edge = direction.isVertical ? bounds.width : bounds.height
        return (direction, bounds, Self.offset(edge: edge, metrics: metrics, &random))
    }

    /// Everything a layout must satisfy, as failure messages (empty when it holds).
    /// `checkInsetSigns: false` leaves out the check that insets are not negative.
    static func violations(_ layout: BackgroundLayout, bounds: Size, direction: ArrowDirection, offset: Double,
                           metrics: SevenImageMetrics, checkInsetSigns: Bool = true) -> [String] {
        var problems: [String] = []
        let stages = layout.stages
        if stages.count != 1 && stages.count != 2 { problems.append("\(stages.count) stages") }
        if stages.last?.size != bounds { problems.append("last stage \(String(describing: stages.last?.size)) is not the bounds") }
        for (i, stage) in stages.enumerated() {
            if !(stage.size.width > 0 && stage.size.height > 0 && stage.size.width.isFinite && stage.size.height.isFinite) {
                problems.append("stage \(i + 1) size \(stage.size) is not positive and finite")
            }
            let c = stage.capInsets
            if ![c.top, c.left, c.bottom, c.right].allSatisfy({ $0.isFinite && (!checkInsetSigns || $0 >= 0) }) {
                problems.append("stage \(i + 1) insets \(c) are not finite and non-negative")
            }
        }
        // The image the rule of docs/specification.md §5.2 picks, worked out here on its own.
        let edge = direction.isVertical ? bounds.width : bounds.height
        let centre = edge / 2 + offset, half = metrics.arrowBase / 2
        let atStart = centre - half < metrics.cornerRadius, atEnd = centre + half > edge - metrics.cornerRadius
        let expected: (image: ArrowImage, mirrored: Bool, twoStage: Bool)
        switch (direction, atStart || atEnd) {
        case (.up, false): expected = (.up, false, true)
        case (.down, false): expected = (.down, false, true)
        case (.up, true): expected = (.upRight, atStart, false)
        case (.down, true): expected = (.downRight, atStart, false)
        case (_, false): expected = (.side, direction == .left, true)
        case (_, true): expected = (atStart ? .sideTop : .sideBottom, direction == .left, false)
        }
        if layout.image != expected.image || layout.mirrored != expected.mirrored || (stages.count == 2) != expected.twoStage {
            problems.append("layout \(layout.image) mirrored \(layout.mirrored) \(stages.count) stages, expected \(expected)")
        }
        if stages.count == 2 {
            let first = stages[0]
            let spec = metrics[layout.image]
            // The first stage keeps the image's size across the arrow's edge; along it, a
            // whole number of points (the rounding fix).
            let across = direction.isVertical ? first.size.height : first.size.width
            let along = direction.isVertical ? first.size.width : first.size.height
            let imageAcross = direction.isVertical ? spec.size.height : spec.size.width
            if across != imageAcross { problems.append("first stage across \(across), image \(imageAcross)") }
            if along != along.rounded() { problems.append("first stage length \(along) is not whole") }
        }
        if layout.direction != direction { problems.append("direction \(layout.direction)") }
        return problems
    }

    @Test("standard and sample-file metrics: positive finite stages, the last one the bounds, the image as chosen",
          arguments: [("standard", SevenImageMetrics.standard), ("sampleAppFiles", .sampleAppFiles)])
    func standardMetrics(name: String, metrics: SevenImageMetrics) throws {
        var random = SplitMix64(seed: name == "standard" ? 1 : 2)
        var failures: [String] = []
        var twoStage = 0
        for sample in 0..<20_000 {
            let (direction, bounds, offset) = Self.request(metrics: metrics, &random)
            let layout = try BackgroundLayout.make(bounds: bounds, direction: direction, arrowOffset: offset,
                                                   metrics: metrics)
            if layout.stages.count == 2 { twoStage += 1 }
            let problems = Self.violations(layout, bounds: bounds, direction: direction, offset: offset, metrics: metrics)
            if !problems.isEmpty && failures.count < 10 {
                failures.append("sample \(sample): \(direction) \(bounds) offset \(offset): \(problems)")
            }
            // The same input, the same layout.
            if failures.isEmpty {
                let again = try BackgroundLayout.make(bounds: bounds, direction: direction, arrowOffset: offset,
                                                      metrics: metrics)
                if again != layout { failures.append("sample \(sample): not deterministic") }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Both kinds of layout were drawn in good numbers.
        #expect(twoStage > 4000 && twoStage < 16_000, "\(twoStage) two-stage layouts of 20000")
    }

    @Test("random valid metrics: every layout that is made has positive finite stages ending at the bounds")
    func randomMetrics() throws {
        var random = SplitMix64(seed: 3)
        var failures: [String] = []
        var negativeInsets: [String] = []
        var made = 0, refusedMisfits = 0
        for sample in 0..<5_000 {
            var metrics = SevenImageMetrics.standard
            metrics.arrowBase = Double(Int.random(in: 1...60, using: &random))
            metrics.arrowHeight = Double(Int.random(in: 1...40, using: &random))
            metrics.cornerRadius = Double(Int.random(in: 0...20, using: &random))
            metrics.sideArrowCenterOffset = Double(Int.random(in: 0...15, using: &random))
            metrics.secondStageRightInset = Double(Int.random(in: 0...20, using: &random))
            metrics.secondStageBottomInset = Double(Int.random(in: 0...20, using: &random))
            for image in ArrowImage.allCases {
                let width = Double(Int.random(in: 20...80, using: &random))
                let height = Double(Int.random(in: 20...80, using: &random))
                let left = Double(Int.random(in: 0...Int(width / 2), using: &random))
                let right = Double(Int.random(in: 0...Int(width / 2), using: &random))
                let top = Double(Int.random(in: 0...Int(height / 2), using: &random))
                let bottom = Double(Int.random(in: 0...Int(height / 2), using: &random))
                metrics[image] = ImageSpec(width: width, height: height,
                                           capInsets: EdgeInsets(top: top, left: left, bottom: bottom, right: right))
            }
            let (direction, bounds, offset) = Self.request(metrics: metrics, &random)
            let layout: BackgroundLayout
            do {
                layout = try BackgroundLayout.make(bounds: bounds, direction: direction, arrowOffset: offset,
                                                   metrics: metrics)
            } catch GeometryError.secondStageDoesNotFit(_, let length, let inset, _) {
                // Metrics that do not fit together: refused, rightly, when the first stage
                // is shorter than the second stage's inset plus one point.
                if length >= inset + 1 { failures.append("sample \(sample): refused a fitting stage \(length)") }
                refusedMisfits += 1
                continue
            } catch {
                failures.append("sample \(sample): valid input refused: \(error)")
                continue
            }
            made += 1
            let problems = Self.violations(layout, bounds: bounds, direction: direction, offset: offset, metrics: metrics,
                                           checkInsetSigns: false)
            if !problems.isEmpty && failures.count < 10 {
                failures.append("sample \(sample): \(direction) \(bounds) offset \(offset) metrics \(metrics): \(problems)")
            }
            let insets = layout.stages.flatMap { [$0.capInsets.top, $0.capInsets.left, $0.capInsets.bottom, $0.capInsets.right] }
            if insets.contains(where: { $0 < 0 }) {
                negativeInsets.append("sample \(sample): \(direction) \(bounds) offset \(offset): \(layout.stages)")
            }
        }
        #expect(made + refusedMisfits == 5_000)
        #expect(made > 4_000, "most random metrics fit: \(made)")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Metrics whose second-stage inset exceeds what a short image's two-stage length
        // leaves are refused above, so no layout ever carries a negative cap inset.
        #expect(negativeInsets.isEmpty, "\(negativeInsets.count) layouts, e.g. \(negativeInsets.prefix(3))")
    }

    @Test("bad inputs are refused with an error, never a trap or a nonsense layout")
    func refusals() {
        var random = SplitMix64(seed: 4)
        let specials: [Double] = [.nan, .infinity, -.infinity, -1, -0.5, -Double.greatestFiniteMagnitude,
                                  Double.leastNonzeroMagnitude, 0]
        for _ in 0..<2_000 {
            let direction = ArrowDirection.allCases[Int.random(in: 0..<4, using: &random)]
            let minimum = SevenImageMetrics.standard.minimumBounds(for: direction)
            var width = Self.length(from: minimum.width, &random), height = Self.length(from: minimum.height, &random)
            var offset = Double.random(in: -100...100, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: width = specials.randomElement(using: &random)!
            case 1: height = specials.randomElement(using: &random)!
            case 2: offset = [Double.nan, .infinity, -.infinity].randomElement(using: &random)!
            default: width = minimum.width - Double.random(in: 0.001...minimum.width, using: &random)
            }
            let bounds = Size(width: width, height: height)
            #expect(throws: GeometryError.self, "\(direction) \(bounds) offset \(offset)") {
                try BackgroundLayout.make(bounds: bounds, direction: direction, arrowOffset: offset)
            }
        }
    }
}
