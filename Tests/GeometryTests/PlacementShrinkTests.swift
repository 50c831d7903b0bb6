import Foundation
import PopoverGeometry
import Testing

/// Forced directions, shrinking, and the edges of "no room".
@Suite("Placement when nothing fits whole")
struct PlacementShrinkTests {
    static let portraitView = Orientation.portrait.viewSize

    @Test("popover2 landscape forced up shrinks to the room below")
    func popover2LandscapeForcedUpShrinksToTheRoomBelow() throws {
        // Tip at y 44; room 738 - 44 = 694 < 923: height 694. midX 512 - 168 = 344.
        let placement = try Placement.make(
            anchor: try Anchor.named("popover2"), orientation: .landscape, permitted: .only(.up))
        #expect(placement == Placement(direction: .up, frame: Rect(x: 344, y: 44, width: 336, height: 694), arrowOffset: 0))
    }

    @Test("popover2 landscape forced right shrinks across")
    func popover2LandscapeForcedRightShrinksAcross() throws {
        // Left of x 490: 490 - 355 = 135 (room 480). Height 904 > 728: 728, y 10.
        // offset 22 - (10 + 364) = -352 -> -345.5.
        let placement = try Placement.make(
            anchor: try Anchor.named("popover2"), orientation: .landscape, permitted: .only(.right))
        #expect(placement == Placement(direction: .right, frame: Rect(x: 135, y: 10, width: 355, height: 728), arrowOffset: -345.5))
    }

    @Test("popover11 landscape forced down shrinks to the room above")
    func popover11LandscapeForcedDownShrinksToTheRoomAbove() throws {
        // Tip at y 705; room 705 - 10 = 695: y 10, height 695.
        let placement = try Placement.make(
            anchor: try Anchor.named("popover11"), orientation: .landscape, permitted: .only(.down))
        #expect(placement == Placement(direction: .down, frame: Rect(x: 344, y: 10, width: 336, height: 695), arrowOffset: 0))
    }

    @Test("a plain anchor can be given other content")
    func aPlainAnchorCanBeGivenOtherContent() throws {
        // popover8 portrait, 100 x 50: 116 x 85 below y 567, midX 384 - 58 = 326.
        let placement = try Placement.make(
            anchor: try Anchor.named("popover8"), orientation: .portrait, contentSize: Size(width: 100, height: 50))
        #expect(placement.frame == Rect(x: 326, y: 567, width: 116, height: 85))
    }

    @Test("tiny content grows to the smallest background")
    func tinyContentGrowsToTheSmallestBackground() throws {
        // 0 x 0 content, up: 16 x 35 grows to 51 x 35; midX 384 - 25.5 = 358.5.
        let placement = try Placement.make(
            anchor: try Anchor.named("popover8"), orientation: .portrait, contentSize: .zero)
        #expect(placement.frame == Rect(x: 358.5, y: 567, width: 51, height: 35))
    }

    @Test("room for exactly the smallest background")
    func roomForExactlyTheSmallestBackground() throws {
        // Down from y 43: room 43 - 10 = 33 = 19 + 2 x 7. midX 122 - 108 = 14.
        let placement = try Placement.make(
            anchorFrame: Rect(x: 100, y: 43, width: 44, height: 44), viewSize: Self.portraitView,
            permitted: .only(.down), contentSize: Size(width: 200, height: 200))
        #expect(placement == Placement(direction: .down, frame: Rect(x: 14, y: 10, width: 216, height: 33), arrowOffset: 0))
    }

    @Test("half a point less is no room")
    func halfAPointLessIsNoRoom() {
        // Room 42.5 - 10 = 32.5 < 33.
        #expect(throws: GeometryError.noRoom(anchor: "(100, 42.5, 44 x 44)", direction: .only(.down), orientation: nil)) {
            try Placement.make(
                anchorFrame: Rect(x: 100, y: 42.5, width: 44, height: 44), viewSize: Self.portraitView,
                permitted: .only(.down), contentSize: Size(width: 200, height: 200))
        }
    }

    struct NoRoomRow: Sendable {
        let name: String
        let direction: ArrowDirection
        let orientation: Orientation
    }

    /// popover2's top edge is at y 0, above the 10-point margin: nothing fits above
    /// it. popover11's bottom edge is at 1005 (749 in landscape), below the margin.
    @Test("no room", arguments: [
        NoRoomRow(name: "popover2", direction: .down, orientation: .portrait),
        NoRoomRow(name: "popover2", direction: .down, orientation: .landscape),
        NoRoomRow(name: "popover11", direction: .up, orientation: .portrait),
        NoRoomRow(name: "popover11", direction: .up, orientation: .landscape),
        // popover1's left edge is at x 0: no room to its left.
        NoRoomRow(name: "popover1", direction: .right, orientation: .portrait),
    ])
    func noRoom(_ row: NoRoomRow) throws {
        let anchor = try Anchor.named(row.name)
        let error = #expect(throws: GeometryError.self) {
            try Placement.make(anchor: anchor, orientation: row.orientation, permitted: .only(row.direction))
        }
        #expect(error == .noRoom(anchor: row.name, direction: .only(row.direction), orientation: row.orientation))
    }

    @Test("any with no direction left is no room")
    func anyWithNoDirectionLeftIsNoRoom() {
        // The anchor is the whole view: every tip lies on the view's edge, outside the margin.
        let error = #expect(throws: GeometryError.self) {
            try Placement.make(
                anchorFrame: Rect(x: 0, y: 0, width: 768, height: 1004), viewSize: Self.portraitView,
                permitted: .any, contentSize: Size(width: 200, height: 200))
        }
        #expect(error == .noRoom(anchor: "(0, 0, 768 x 1004)", direction: .any, orientation: nil))
        #expect(error?.description == "no room for a popover from anchor (0, 0, 768 x 1004) with any arrow direction: "
            + "inside the 10-point margin there is not enough space for the smallest background")
    }

    @Test("no room message names anchor direction and orientation")
    func noRoomMessageNamesAnchorDirectionAndOrientation() throws {
        let anchor = try Anchor.named("popover2")
        let error = #expect(throws: GeometryError.self) {
            try Placement.make(anchor: anchor, orientation: .portrait, permitted: .only(.down))
        }
        #expect(error?.description == "no room for a popover from anchor popover2 with a down arrow in portrait: "
            + "inside the 10-point margin there is not enough space for the smallest background")
    }

    @Test("any prefers the first direction that fits whole")
    func anyPrefersTheFirstDirectionThatFitsWhole() throws {
        // popover8 portrait with "any": up (below 567, room 427) fits before down is tried.
        let placement = try Placement.make(anchor: try Anchor.named("popover8"), orientation: .portrait, permitted: .any)
        #expect(placement.direction == .up)
        // popover5 portrait with "any": up fits too (below 482, room 512).
        #expect(try Placement.make(anchor: try Anchor.named("popover5"), orientation: .portrait, permitted: .any).direction == .up)
    }

    @Test("any takes the largest shrunk area not the first")
    func anyTakesTheLargestShrunkAreaNotTheFirst() throws {
        // Anchor (100, 500, 44, 44) in a 300 x 600 view, content 200 x 600:
        // inside margins x 10...290, y 10...590.
        // up: room 590 - 544 = 46, 216 wide: 46 x 216 = 9936.
        // down: room 500 - 10 = 490: 490 x 216 = 105840.
        // left: room 290 - 144 = 146 < 235; 146 x 580 = 84680. right: 100 - 10 = 90; 90 x 580 = 52200.
        // Down wins: y 500 - 490 = 10, midX 122 - 108 = 14.
        let placement = try Placement.make(
            anchorFrame: Rect(x: 100, y: 500, width: 44, height: 44), viewSize: Size(width: 300, height: 600),
            permitted: .any, contentSize: Size(width: 200, height: 600))
        #expect(placement == Placement(direction: .down, frame: Rect(x: 14, y: 10, width: 216, height: 490), arrowOffset: 0))
    }

    @Test("other skins are placed with the same model")
    func otherSkinsArePlacedWithTheSameModel() throws {
        // Path skin: insets 10, arrow 15. popover8 portrait up: 220 x 235 below 567;
        // midX 384 - 110 = 274.
        let path = try Placement.make(anchor: try Anchor.named("popover8"), orientation: .portrait, metrics: .path)
        #expect(path.frame == Rect(x: 274, y: 567, width: 220, height: 235))
        // Two-asset skin: arrow 70. popover1 portrait left: 290 x 220 right of 44;
        // midY 22 -> y 10; offset 22 - 120 = -98, clamped to 110 - 15.5 = 94.5.
        let twoAsset = try Placement.make(anchor: try Anchor.named("popover1"), orientation: .portrait, metrics: .twoAsset)
        #expect(twoAsset == Placement(direction: .left, frame: Rect(x: 44, y: 10, width: 290, height: 220), arrowOffset: -94.5))
    }

    @Test("placement JSON")
    func placementJSON() throws {
        let placement = Placement(direction: .left, frame: Rect(x: 534, y: 10, width: 355, height: 728), arrowOffset: -345.5)
        let data = try JSONEncoder().encode(placement)
        #expect(try JSONDecoder().decode(Placement.self, from: data) == placement)
        #expect(placement.description == "left (534, 10, 355 x 728), arrow offset -345.5")
    }
}
