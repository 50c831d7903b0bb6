import PopoverGeometry
import Testing

@Suite("The two-stage length")
struct StageLengthTests {
    /// C roundf: to Float, then half away from zero.
    @Test("rounds like c roundf", arguments: [
        (53.5, 54.0), (136.5, 137.0), (135.5, 136.0), (136.49, 136.0), (136.51, 137.0),
        (-0.5, -1.0), (-1.49, -1.0), (0.0, 0.0),
        (136.4999999, 137.0),  // the nearest float is 136.5
    ])
    func roundsLikeCRoundf(value: Double, expected: Double) {
        #expect(StageLength.rounded(value) == expected)
    }

    @Test("up uses half the image width less half a point")
    func upUsesHalfTheImageWidthLessHalfAPoint() {
        // 100 + (57 - 1) / 2 = 128.
        let length = StageLength.forTwoStage(
            direction: .down, arrowCentre: 100, image: ArrowImage.down.standardSpec, sideArrowCenterOffset: 7)
        #expect(length == 128)
    }

    @Test("side uses half the image height less one less the centre offset")
    func sideUsesHalfTheImageHeightLessOneLessTheCentreOffset() {
        // 100 + 72 / 2 - 1 - 7 = 128; with offset 3: 100 + 36 - 1 - 3 = 132.
        let spec = ArrowImage.side.standardSpec
        #expect(StageLength.forTwoStage(direction: .left, arrowCentre: 100, image: spec, sideArrowCenterOffset: 7) == 128)
        #expect(StageLength.forTwoStage(direction: .right, arrowCentre: 100, image: spec, sideArrowCenterOffset: 3) == 132)
    }
}
