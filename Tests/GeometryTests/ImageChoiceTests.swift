import PopoverGeometry
import Testing

/// The at-edge tests on their own, where edges shorter than the layout's minimum
/// can reach the case in which the arrow is near both ends at once.
@Suite("Image choice at the thresholds")
struct ImageChoiceTests {
    struct Row: Sendable {
        let direction: ArrowDirection
        let image: ArrowImage
        let mirrored: Bool
    }

    /// Edge 40, centre 20: 20 - 18.5 = 1.5 < 7 and 20 + 18.5 = 38.5 > 40 - 7 = 33.
    /// Up/down: the corner image mirrored (the at-left rule wins); left/right:
    /// side-top wins, mirrored only for a left arrow.
    @Test("near both ends", arguments: [
        Row(direction: .up, image: .upRight, mirrored: true),
        Row(direction: .down, image: .downRight, mirrored: true),
        Row(direction: .right, image: .sideTop, mirrored: false),
        Row(direction: .left, image: .sideTop, mirrored: true),
    ])
    func nearBothEnds(_ row: Row) {
        let choice = ImageChoice.choose(
            direction: row.direction, edgeLength: 40, arrowCentre: 20, arrowBase: 37, cornerRadius: 7)
        #expect(choice == ImageChoice(image: row.image, mirrored: row.mirrored, isTwoStage: false))
    }

    /// Edge 216, centre 108: 89.5 !< 7 and 126.5 !> 209.
    @Test("centred", arguments: [
        Row(direction: .up, image: .up, mirrored: false),
        Row(direction: .down, image: .down, mirrored: false),
        Row(direction: .right, image: .side, mirrored: false),
        Row(direction: .left, image: .side, mirrored: true),
    ])
    func centred(_ row: Row) {
        let choice = ImageChoice.choose(
            direction: row.direction, edgeLength: 216, arrowCentre: 108, arrowBase: 37, cornerRadius: 7)
        #expect(choice == ImageChoice(image: row.image, mirrored: row.mirrored, isTwoStage: true))
    }

    /// On the smallest accepted edge, 51, no centre is near both ends: near the
    /// start needs centre < 25.5, near the end centre > 25.5.
    @Test("the layouts minimum edge never reaches both ends", arguments: [25.0, 25.5, 26.0])
    func theLayoutsMinimumEdgeNeverReachesBothEnds(centre: Double) {
        let choice = ImageChoice.choose(
            direction: .up, edgeLength: 51, arrowCentre: centre, arrowBase: 37, cornerRadius: 7)
        #expect(choice.isTwoStage == (centre == 25.5))
        #expect(choice.mirrored == (centre < 25.5))
    }
}
