import PopoverGeometry
import Testing

/// Every anchor of the sample app in both orientations.
///
/// Sizes: 200 x 200 content -> up/down 216 x 235 (200 + 8 + 8, 200 + 8 + 8 + 19),
/// left/right 235 x 216. Navigation content 320 x 888 -> up/down 336 x 923,
/// left/right 355 x 904.
/// Inside the 10-point margin: portrait x 10...758, y 10...994;
/// landscape x 10...1014, y 10...738.
/// The arrow may slide at most 216 / 2 - 37 / 2 = 89.5 on a 216 edge.
@Suite("The placement model")
struct PlacementTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let orientation: Orientation
        let expected: Placement

        init(_ name: String, _ orientation: Orientation, _ direction: ArrowDirection,
             _ x: Double, _ y: Double, _ width: Double, _ height: Double, offset: Double) {
            self.name = name
            self.orientation = orientation
            expected = Placement(direction: direction, frame: Rect(x: x, y: y, width: width, height: height), arrowOffset: offset)
        }

        var testDescription: String { "\(name) \(orientation)" }
    }

    static let portrait: [Row] = [
        // Left of (0,0): x = maxX 44. Centred on y 22 -> -86, pushed to 10;
        // offset 22 - (10 + 108) = -96, clamped to -89.5.
        Row("popover1", .portrait, .left, 44, 10, 235, 216, offset: -89.5),
        // midY 124 -> y 16, inside.
        Row("popover13", .portrait, .left, 44, 16, 235, 216, offset: 0),
        // Right arrow: popover left of x 724 -> 724 - 235 = 489.
        Row("popover14", .portrait, .right, 489, 16, 235, 216, offset: 0),
        // Any: up first. Room 994 - 44 = 950 >= 923, width 336 <= 748: fits.
        // midX 384 -> 384 - 168 = 216.
        Row("popover2", .portrait, .up, 216, 44, 336, 923, offset: 0),
        Row("popover3", .portrait, .right, 489, 10, 235, 216, offset: -89.5),
        // Down: above y 480 -> 480 - 235 = 245. midX 22 -> 10; offset -96 -> -89.5.
        Row("popover4", .portrait, .down, 10, 245, 216, 235, offset: -89.5),
        // Above y 438 -> 203; midX 384 -> 276.
        Row("popover5", .portrait, .down, 276, 203, 216, 235, offset: 0),
        // Left of x 319 -> 84 (room 309); midY 502 -> 394.
        Row("popover6", .portrait, .right, 84, 394, 235, 216, offset: 0),
        // Right of maxX 449 (room 758 - 449 = 309).
        Row("popover7", .portrait, .left, 449, 394, 235, 216, offset: 0),
        // Below maxY 567 (room 427).
        Row("popover8", .portrait, .up, 276, 567, 216, 235, offset: 0),
        // midX 746 -> 638, pushed to 758 - 216 = 542; offset 746 - 650 = 96 -> 89.5.
        Row("popover9", .portrait, .down, 542, 245, 216, 235, offset: 89.5),
        // midY 983 -> 875, pushed to 994 - 216 = 778; offset 983 - 886 = 97 -> 89.5.
        Row("popover10", .portrait, .left, 44, 778, 235, 216, offset: 89.5),
        // midY 880 -> 772, inside.
        Row("popover15", .portrait, .left, 44, 772, 235, 216, offset: 0),
        // Any: up's tip 1005 is below 994, no room. Down: room 961 - 10 = 951 >= 923.
        // y = 961 - 923 = 38.
        Row("popover11", .portrait, .down, 216, 38, 336, 923, offset: 0),
        Row("popover12", .portrait, .right, 489, 778, 235, 216, offset: 89.5),
        Row("popover16", .portrait, .right, 489, 772, 235, 216, offset: 0),
    ]

    static let landscape: [Row] = [
        Row("popover1", .landscape, .left, 44, 10, 235, 216, offset: -89.5),
        // midY 74.8 + 22 = 96.8 -> -11.2, pushed to 10; offset 96.8 - 118 = -21.2.
        Row("popover13", .landscape, .left, 44, 10, 235, 216, offset: 96.8 - 118),
        // 980 - 235 = 745.
        Row("popover14", .landscape, .right, 745, 10, 235, 216, offset: 96.8 - 118),
        // Any, nothing fits whole: up room 738 - 44 = 694 < 923; down's tip 0 is above 10;
        // left room 1014 - 534 = 480 >= 355 but 904 > 728 tall; right likewise.
        // Shrunk areas: up 694 x 336 = 233184; left 355 x 728 = 258440; right the same;
        // left wins the tie. y 10 (728 fills 10...738); offset 22 - (10 + 364) = -352,
        // clamped to 728 / 2 - 18.5 = 345.5.
        Row("popover2", .landscape, .left, 534, 10, 355, 728, offset: -345.5),
        Row("popover3", .landscape, .right, 745, 10, 235, 216, offset: -89.5),
        // Above 352 -> 117.
        Row("popover4", .landscape, .down, 10, 117, 216, 235, offset: -89.5),
        // Above 321.2 -> 86.2; midX 512 -> 404.
        Row("popover5", .landscape, .down, 404, 438 - 256.0 * 438 / 960 - 235, 216, 235, offset: 0),
        // Left of 319 + 256 x 319 / 724 (~431.8); midY 374 -> 266.
        Row("popover6", .landscape, .right, 319 + 256.0 * 319 / 724 - 235, 266, 235, 216, offset: 0),
        // Right of 405 + 256 x 405 / 724 + 44 (~592.2); room ~421.8.
        Row("popover7", .landscape, .left, 405 + 256.0 * 405 / 724 + 44, 266, 235, 216, offset: 0),
        // Below 523 - 256 x 523 / 960 + 44 (~427.5); room ~310.5.
        Row("popover8", .landscape, .up, 404, 523 - 256.0 * 523 / 960 + 44, 216, 235, offset: 0),
        // midX 1002 -> 894, pushed to 1014 - 216 = 798; offset 1002 - 906 = 96 -> 89.5.
        Row("popover9", .landscape, .down, 798, 117, 216, 235, offset: 89.5),
        // midY 727 -> 619, pushed to 738 - 216 = 522; offset 727 - 630 = 97 -> 89.5.
        Row("popover10", .landscape, .left, 44, 522, 235, 216, offset: 89.5),
        // midY 624 -> 516.
        Row("popover15", .landscape, .left, 44, 516, 235, 216, offset: 0),
        // Any: up's tip 749 is below 738; down room 695 < 923; left/right too tall.
        // Shrunk: down 695 x 336 = 233520; left 355 x 728 = 258440 wins (tie with right).
        // offset 727 - 374 = 353 -> 345.5.
        Row("popover11", .landscape, .left, 534, 10, 355, 728, offset: 345.5),
        Row("popover12", .landscape, .right, 745, 522, 235, 216, offset: 89.5),
        Row("popover16", .landscape, .right, 745, 516, 235, 216, offset: 0),
    ]

    @Test("sample app anchor", arguments: portrait + landscape)
    func sampleAppAnchor(_ row: Row) throws {
        let placement = try Placement.make(anchor: try Anchor.named(row.name), orientation: row.orientation)
        #expect(isClose(placement, row.expected), "got \(placement)")
    }

    /// Whatever placement produces, the layout accepts, and it sits inside the margins.
    @Test("every placement lays out inside the margins", arguments: Anchor.all, Orientation.allCases)
    func everyPlacementLaysOutInsideTheMargins(anchor: Anchor, orientation: Orientation) throws {
        let placement = try Placement.make(anchor: anchor, orientation: orientation)
        let frame = placement.frame
        let view = orientation.viewSize
        #expect(frame.minX >= 10 - tolerance && frame.maxX <= view.width - 10 + tolerance)
        #expect(frame.minY >= 10 - tolerance && frame.maxY <= view.height - 10 + tolerance)
        #expect(throws: Never.self) {
            try BackgroundLayout.make(bounds: frame.size, direction: placement.direction, arrowOffset: placement.arrowOffset)
        }
    }
}

@Suite("Placements drawn as layouts")
struct PlacementToLayoutTests {
    @Test("a corner anchor gets a corner image")
    func aCornerAnchorGetsACornerImage() throws {
        // popover1 portrait: left, 235 x 216, offset -89.5. Centre 108 - 89.5 = 18.5;
        // 18.5 - 18.5 = 0 < 7: side-top, mirrored for a left arrow: caps (43, 27, 23, 9).
        let placement = try Placement.make(anchor: try Anchor.named("popover1"), orientation: .portrait)
        let layout = try BackgroundLayout.make(
            bounds: placement.frame.size, direction: placement.direction, arrowOffset: placement.arrowOffset)
        #expect(layout == BackgroundLayout(
            direction: .left, image: .sideTop, mirrored: true, stages: [stage(235, 216, insets(43, 27, 23, 9))]))
    }

    @Test("a centred anchor gets a two stage stretch")
    func aCentredAnchorGetsATwoStageStretch() throws {
        // popover2 portrait: up, 336 x 923, offset 0. Centre 168; L = roundf(168 + 28) = 196;
        // stage 2 (41, 196 - 10, 9, 9).
        let placement = try Placement.make(anchor: try Anchor.named("popover2"), orientation: .portrait)
        let layout = try BackgroundLayout.make(
            bounds: placement.frame.size, direction: placement.direction, arrowOffset: placement.arrowOffset)
        #expect(layout.stages == [stage(196, 51, insets(41, 9, 9, 47)), stage(336, 923, insets(41, 186, 9, 9))])
    }
}
