import PopoverGeometry
import Testing

/// The navigation popovers with the keyboard up: it hides 264 (portrait) or 352
/// (landscape) at the bottom, so the margin's bottom line moves to
/// 1004 - 264 - 10 = 730 or 748 - 352 - 10 = 386.
@Suite("The keyboard animation")
struct KeyboardAnimationTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let orientation: Orientation
        let start: Placement
        let middle: Placement
        let end: Placement
        var testDescription: String { "\(name) \(orientation)" }
    }

    static func left(_ y: Double, _ height: Double, _ offset: Double) -> Placement {
        Placement(direction: .left, frame: Rect(x: 534, y: y, width: 355, height: height), arrowOffset: offset)
    }

    static let rows: [Row] = [
        // Up below y 44. End: room 730 - 44 = 686. Middle: (923 + 686) / 2 = 804.5.
        // midX stays 384 = popover midX: offset 0 throughout.
        Row(name: "popover2", orientation: .portrait,
            start: Placement(direction: .up, frame: Rect(x: 216, y: 44, width: 336, height: 923), arrowOffset: 0),
            middle: Placement(direction: .up, frame: Rect(x: 216, y: 44, width: 336, height: 804.5), arrowOffset: 0),
            end: Placement(direction: .up, frame: Rect(x: 216, y: 44, width: 336, height: 686), arrowOffset: 0)),
        // Left, 728 tall at y 10; end 386 - 10 = 376 tall; middle (728 + 376) / 2 = 552.
        // Offsets: 22 - (10 + 364) = -352 -> -(364 - 18.5) = -345.5;
        //          22 - (10 + 276) = -264 -> -(276 - 18.5) = -257.5;
        //          22 - (10 + 188) = -176 -> -(188 - 18.5) = -169.5.
        Row(name: "popover2", orientation: .landscape,
            start: left(10, 728, -345.5), middle: left(10, 552, -257.5), end: left(10, 376, -169.5)),
        // The anchor's midY 727 is under the keyboard; the arrow slides as far down as it may:
        // 727 - 374 = 353 -> 345.5; 727 - 286 = 441 -> 257.5; 727 - 198 = 529 -> 169.5.
        Row(name: "popover11", orientation: .landscape,
            start: left(10, 728, 345.5), middle: left(10, 552, 257.5), end: left(10, 376, 169.5)),
    ]

    @Test("start middle and end", arguments: rows)
    func startMiddleAndEnd(_ row: Row) throws {
        let animation = try KeyboardAnimation(anchor: try Anchor.named(row.name), orientation: row.orientation)
        #expect(animation.start == row.start)
        #expect(animation.end == row.end)
        #expect(try animation.keyframe(at: 0) == row.start)
        #expect(isClose(try animation.keyframe(at: 0.125), row.middle))
        #expect(try animation.keyframe(at: 0.25) == row.end)
    }

    @Test("popover11 portrait has no room above the keyboard")
    func popover11PortraitHasNoRoomAboveTheKeyboard() throws {
        // It points down from y 961, which the keyboard covers (the margin ends at 730).
        let anchor = try Anchor.named("popover11")
        let error = #expect(throws: GeometryError.self) {
            try KeyboardAnimation(anchor: anchor, orientation: .portrait)
        }
        #expect(error == .noRoom(anchor: "popover11", direction: .only(.down), orientation: .portrait))
    }

    @Test("progress follows the curve")
    func progressFollowsTheCurve() throws {
        let animation = try KeyboardAnimation(anchor: try Anchor.named("popover2"), orientation: .portrait)
        // 0.06859375 s is x = 0.06859375 / 0.25 = 0.274375 of the duration, where the
        // curve gives 0.15625 (see TimingCurveTests):
        // height 923 - 237 x 0.15625 = 923 - 37.03125 = 885.96875.
        #expect(isClose(try animation.progress(at: 0.06859375), 0.15625))
        #expect(isClose(try animation.keyframe(at: 0.06859375).frame.height, 885.96875))
    }

    @Test("shrinks monotonically", arguments: [("popover2", Orientation.portrait), ("popover2", .landscape), ("popover11", .landscape)])
    func shrinksMonotonically(name: String, orientation: Orientation) throws {
        let animation = try KeyboardAnimation(anchor: try Anchor.named(name), orientation: orientation)
        let heights = try (0...50).map { step throws(GeometryError) in
            try animation.keyframe(at: 0.25 * Double(step) / 50).frame.height
        }
        #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 > $1 })
        for step in 0...50 {
            #expect(try animation.keyframe(at: 0.25 * Double(step) / 50).direction == animation.start.direction)
        }
    }

    @Test("shadow follows the frame")
    func shadowFollowsTheFrame() throws {
        let animation = try KeyboardAnimation(anchor: try Anchor.named("popover2"), orientation: .landscape)
        // Left arrow, 355 x 552 at the middle: x from 19, 336 wide.
        #expect(isClose(try animation.shadowRect(at: 0.125), Rect(x: 19, y: 0, width: 336, height: 552)))
    }

    @Test("times outside the animation throw", arguments: [-0.001, 0.2501, -.infinity, .infinity, .nan])
    func timesOutsideTheAnimationThrow(time: Double) throws {
        let animation = try KeyboardAnimation(anchor: try Anchor.named("popover2"), orientation: .portrait)
        let error = #expect(throws: GeometryError.self) { try animation.keyframe(at: time) }
        guard case .invalidTime(let reported, duration: 0.25)? = error else {
            Issue.record("expected invalidTime, got \(String(describing: error))")
            return
        }
        #expect(reported.isNaN ? time.isNaN : reported == time)
    }

    @Test("time message")
    func timeMessage() throws {
        let animation = try KeyboardAnimation(anchor: try Anchor.named("popover2"), orientation: .portrait)
        let error = #expect(throws: GeometryError.self) { try animation.keyframe(at: 0.3) }
        #expect(error?.description == "time must be a finite number of seconds within 0...0.25, got 0.3")
    }

    @Test("a keyboard taller than the view leaves no room")
    func aKeyboardTallerThanTheViewLeavesNoRoom() throws {
        let anchor = try Anchor.named("popover2")
        let error = #expect(throws: GeometryError.self) {
            try KeyboardAnimation(anchor: anchor, orientation: .portrait, keyboardHeight: 1000)
        }
        #expect(error == .noRoom(anchor: "popover2", direction: .only(.up), orientation: .portrait))
    }
}
