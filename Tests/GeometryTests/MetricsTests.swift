import PopoverGeometry
import Testing

@Suite("Skin metrics")
struct MetricsTests {
    @Test("standard numbers")
    func standardNumbers() {
        let metrics = SevenImageMetrics.standard
        #expect(metrics.arrowBase == 37)
        #expect(metrics.arrowHeight == 19)
        #expect(metrics.cornerRadius == 7)
        #expect(metrics.sideArrowCenterOffset == 7)
        #expect(metrics.contentInsets == EdgeInsets(all: 8))
        #expect(metrics.secondStageBottomInset == 9)
        #expect(metrics.secondStageRightInset == 9)
    }

    struct ImageRow: Sendable {
        let image: ArrowImage
        let width: Double
        let height: Double
        let capInsets: EdgeInsets
    }

    /// Reference section 2.
    @Test("standard images", arguments: [
        ImageRow(image: .up, width: 57, height: 51, capInsets: insets(41, 9, 9, 47)),
        ImageRow(image: .upRight, width: 52, height: 51, capInsets: insets(41, 9, 9, 42)),
        ImageRow(image: .down, width: 57, height: 51, capInsets: insets(23, 9, 27, 47)),
        ImageRow(image: .downRight, width: 52, height: 51, capInsets: insets(23, 9, 27, 42)),
        ImageRow(image: .side, width: 37, height: 72, capInsets: insets(24, 9, 47, 27)),
        ImageRow(image: .sideTop, width: 37, height: 67, capInsets: insets(43, 9, 23, 27)),
        ImageRow(image: .sideBottom, width: 37, height: 67, capInsets: insets(23, 9, 43, 27)),
    ])
    func standardImages(_ row: ImageRow) {
        let spec = SevenImageMetrics.standard[row.image]
        #expect(spec == ImageSpec(width: row.width, height: row.height, capInsets: row.capInsets))
        // Each stretchable region is exactly 1 x 1.
        #expect(spec.stretchableSize == Size(width: 1, height: 1))
    }

    @Test("sample app files differ only in side top")
    func sampleAppFilesDifferOnlyInSideTop() {
        var expected = SevenImageMetrics.standard
        expected.sideTop = ImageSpec(width: 37, height: 67, capInsets: insets(43, 9, 9, 27))
        #expect(SevenImageMetrics.sampleAppFiles == expected)
        #expect(throws: Never.self) { try SevenImageMetrics.sampleAppFiles.validate() }
    }

    @Test("subscript writes the named image")
    func subscriptWritesTheNamedImage() {
        var metrics = SevenImageMetrics.standard
        metrics[.downRight] = ImageSpec(width: 10, height: 10, capInsets: .zero)
        #expect(metrics.downRight == ImageSpec(width: 10, height: 10, capInsets: .zero))
        #expect(metrics.upRight == ArrowImage.upRight.standardSpec)
    }

    @Test("popover metrics of each skin")
    func popoverMetricsOfEachSkin() {
        #expect(SevenImageMetrics.standard.popoverMetrics == PopoverMetrics.sevenImage)
        #expect(PopoverMetrics.sevenImage == PopoverMetrics(
            arrowBase: 37, arrowHeight: 19, cornerRadius: 7, contentInsets: EdgeInsets(all: 8)))
        #expect(PopoverMetrics.twoAsset == PopoverMetrics(
            arrowBase: 31, arrowHeight: 70, cornerRadius: 15, contentInsets: EdgeInsets(all: 10)))
        #expect(PopoverMetrics.path == PopoverMetrics(
            arrowBase: 30, arrowHeight: 15, cornerRadius: 10, contentInsets: EdgeInsets(all: 10)))
    }

    /// Along the arrow's edge 37 + 2 x 7 = 51; across it 19 + 2 x 7 = 33.
    @Test("minimum bounds", arguments: ArrowDirection.allCases)
    func minimumBounds(direction: ArrowDirection) {
        let expected = direction.isVertical ? Size(width: 51, height: 33) : Size(width: 33, height: 51)
        #expect(SevenImageMetrics.standard.minimumBounds(for: direction) == expected)
    }

    @Test("path skin minimum")
    func pathSkinMinimum() {
        // 30 + 2 x 10 = 50 along, 15 + 2 x 10 = 35 across.
        #expect(PopoverMetrics.path.minimumBounds(for: .left) == Size(width: 35, height: 50))
    }

    @Test("caps that meet exactly are valid")
    func capsThatMeetExactlyAreValid() {
        var metrics = SevenImageMetrics.standard
        // 9 + 48 = 57: a stretchable region 0 wide is still a region.
        metrics.up.capInsets = insets(41, 9, 9, 48)
        #expect(throws: Never.self) { try metrics.validate() }
    }
}
