import PopoverGeometry
import Testing

/// Portrait view 768 x 1004, landscape 1024 x 748: the width grows by 256, the
/// height shrinks by 256. Anchors are 44 x 44, so along x the margins are
/// (x, 768 - 44 - x) and along y (y, 1004 - 44 - y = 960 - y).
@Suite("Anchor frames after rotation")
struct AnchorFrameTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let x: Double
        let y: Double
        var testDescription: String { name }
    }

    static let landscape: [Row] = [
        // x: right only -> 0. y: bottom only -> 0.
        Row(name: "popover1", x: 0, y: 0),
        // y: top 102 and bottom 858 share -256: 102 - 256 x 102 / 960 = 102 - 27.2 = 74.8.
        Row(name: "popover13", x: 0, y: 102 - 256.0 * 102 / 960),
        // x: left only: 724 + 256 = 980.
        Row(name: "popover14", x: 980, y: 102 - 256.0 * 102 / 960),
        // x: left 362 and right 362 share +256: 362 + 128 = 490.
        Row(name: "popover2", x: 490, y: 0),
        // x: left 724, right 0: all 256 to the left: 980.
        Row(name: "popover3", x: 980, y: 0),
        // y: top 480, bottom 480: 480 - 128 = 352.
        Row(name: "popover4", x: 0, y: 352),
        // y: top 438, bottom 522: 438 - 256 x 438 / 960 = 438 - 116.8 = 321.2.
        Row(name: "popover5", x: 490, y: 438 - 256.0 * 438 / 960),
        // x: left 319, right 405: 319 + 256 x 319 / 724 (~431.796).
        Row(name: "popover6", x: 319 + 256.0 * 319 / 724, y: 352),
        // x: left 405, right 319: 405 + 256 x 405 / 724 (~548.204).
        Row(name: "popover7", x: 405 + 256.0 * 405 / 724, y: 352),
        // y: top 523, bottom 437: 523 - 256 x 523 / 960 (~383.533).
        Row(name: "popover8", x: 490, y: 523 - 256.0 * 523 / 960),
        Row(name: "popover9", x: 980, y: 352),
        // y: top only: 961 - 256 = 705 (the button overhangs the view by 1 in both).
        Row(name: "popover10", x: 0, y: 705),
        Row(name: "popover15", x: 0, y: 602),
        Row(name: "popover11", x: 490, y: 705),
        Row(name: "popover12", x: 980, y: 705),
        Row(name: "popover16", x: 980, y: 602),
    ]

    @Test("landscape frame", arguments: landscape)
    func landscapeFrame(_ row: Row) throws {
        let anchor = try Anchor.named(row.name)
        #expect(isClose(anchor.frame(in: .landscape), Rect(x: row.x, y: row.y, width: 44, height: 44)))
    }

    @Test("portrait frame is the tables frame", arguments: Anchor.all)
    func portraitFrameIsTheTablesFrame(_ anchor: Anchor) {
        #expect(anchor.frame(in: .portrait) == anchor.portraitFrame)
    }

    @Test("the table")
    func theTable() throws {
        #expect(Anchor.all.count == 16)
        #expect(Set(Anchor.all.map(\.name)) == Set((1...16).map { "popover\($0)" }))
        let navigation = Anchor.all.filter { $0.contentSize == Size(width: 320, height: 888) }.map(\.name)
        #expect(navigation == ["popover2", "popover11"])
        #expect(Anchor.all.filter { $0.contentSize == Size(width: 200, height: 200) }.count == 14)
        #expect(Anchor.navigationControllerContentSize == Size(width: 320, height: 800 + 44 + 44))
        #expect(try Anchor.named("popover5").flexibleMargins == .all)
        #expect(try Anchor.named("popover3").permitted == .only(.right))
        #expect(try Anchor.named("popover11").permitted == .any)
    }

    @Test("orientations")
    func orientations() {
        #expect(Orientation.portrait.viewSize == Size(width: 768, height: 1004))
        #expect(Orientation.landscape.viewSize == Size(width: 1024, height: 748))
        #expect(Orientation.portrait.keyboardHeight == 264)
        #expect(Orientation.landscape.keyboardHeight == 352)
    }

    @Test("without flexible margins the left and top stay")
    func withoutFlexibleMarginsTheLeftAndTopStay() {
        let frame = Rect(x: 100, y: 200, width: 44, height: 44)
        let moved = FlexibleMargins().resize(frame, from: Size(width: 768, height: 1004), to: Size(width: 1024, height: 748))
        #expect(moved == frame)
    }

    @Test("two empty margins share the change equally")
    func twoEmptyMarginsShareTheChangeEqually() {
        // Margins 0 and 0: +100 splits 50 / 50.
        let frame = Rect(x: 0, y: 0, width: 100, height: 10)
        let moved = FlexibleMargins([.left, .right]).resize(frame, from: Size(width: 100, height: 10), to: Size(width: 200, height: 10))
        #expect(moved == Rect(x: 50, y: 0, width: 100, height: 10))
    }
}
