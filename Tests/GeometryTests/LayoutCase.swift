import PopoverGeometry
import Testing

/// One row of a layout table: inputs, and the layout worked out by hand.
struct LayoutCase: Sendable, CustomTestStringConvertible {
    let bounds: Size
    let direction: ArrowDirection
    let offset: Double
    let expected: BackgroundLayout
    var metrics: SevenImageMetrics = .standard

    init(
        _ width: Double, _ height: Double, _ direction: ArrowDirection, offset: Double,
        _ image: ArrowImage, mirrored: Bool = false, _ stages: StretchStage...,
        metrics: SevenImageMetrics = .standard
    ) {
        bounds = Size(width: width, height: height)
        self.direction = direction
        self.offset = offset
        expected = BackgroundLayout(direction: direction, image: image, mirrored: mirrored, stages: stages)
        self.metrics = metrics
    }

    var testDescription: String { "\(direction) \(bounds) offset \(offset)" }

    func check() throws {
        let layout = try BackgroundLayout.make(
            bounds: bounds, direction: direction, arrowOffset: offset, metrics: metrics)
        #expect(layout == expected)
    }
}
