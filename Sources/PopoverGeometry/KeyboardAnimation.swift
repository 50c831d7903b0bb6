/// The keyboard scenario (docs/specification.md §8): a popover is showing, the
/// keyboard slides up, and the popover shrinks to stay above it.
///
/// The start is the ordinary placement. The end is the placement with the
/// keyboard's height hidden at the bottom of the view and the start's arrow
/// direction kept: the popover shrinks, it does not jump to another side. In
/// between, over 0.25 s with ease-in-ease-out timing, the frame's origin and size
/// move from start to end along the curve's progress, and the arrow offset is
/// recomputed for each frame so the tip stays at the anchor (clamped as in
/// placement).
public struct KeyboardAnimation: Sendable, Hashable {
    /// UIKit's keyboard animation of that era.
    public static let duration: Double = 0.25

    public let anchorFrame: Rect
    public let orientation: Orientation
    public let keyboardHeight: Double
    public let metrics: PopoverMetrics
    public let timing: TimingCurve
    public let start: Placement
    public let end: Placement

    /// - Throws: `GeometryError.noRoom` when the popover, keeping its direction,
    ///   cannot stay above the keyboard (its tip would be under it, or too little
    ///   room is left), and any error of `Placement.make`.
    public init(
        anchor: Anchor, orientation: Orientation, keyboardHeight: Double? = nil,
        metrics: PopoverMetrics = .sevenImage
    ) throws(GeometryError) {
        let keyboardHeight = keyboardHeight ?? orientation.keyboardHeight
        let start = try Placement.make(anchor: anchor, orientation: orientation, metrics: metrics)
        self.end = try Placement.make(
            anchor: anchor, orientation: orientation, permitted: .only(start.direction),
            keyboardHeight: keyboardHeight, metrics: metrics)
        self.start = start
        self.anchorFrame = anchor.frame(in: orientation)
        self.orientation = orientation
        self.keyboardHeight = keyboardHeight
        self.metrics = metrics
        self.timing = .easeInEaseOut
    }

    /// The curve's progress (0 at the start, 1 at the end) at `time` seconds.
    ///
    /// - Throws: `GeometryError.invalidTime` unless `time` is finite and within
    ///   0...0.25.
    public func progress(at time: Double) throws(GeometryError) -> Double {
        guard time.isFinite, time >= 0, time <= Self.duration else {
            throw .invalidTime(time, duration: Self.duration)
        }
        return timing.value(at: time / Self.duration)
    }

    /// The popover at `time` seconds into the animation.
    public func keyframe(at time: Double) throws(GeometryError) -> Placement {
        let progress = try progress(at: time)
        // Weighted this way the ends come out exactly the start and end frames.
        func blend(_ from: Double, _ to: Double) -> Double {
            from * (1 - progress) + to * progress
        }
        let frame = Rect(
            x: blend(start.frame.minX, end.frame.minX),
            y: blend(start.frame.minY, end.frame.minY),
            width: blend(start.frame.width, end.frame.width),
            height: blend(start.frame.height, end.frame.height))
        return Placement(
            direction: start.direction, frame: frame,
            arrowOffset: Placement.arrowOffset(
                anchorFrame: anchorFrame, popoverFrame: frame, direction: start.direction,
                arrowBase: metrics.arrowBase))
    }

    /// The shadow path at `time`, in the popover's own coordinates. The original
    /// animates it explicitly alongside the bounds; without that it would jump to
    /// the end rectangle at once.
    public func shadowRect(at time: Double) throws(GeometryError) -> Rect {
        let keyframe = try keyframe(at: time)
        return try ShadowGeometry.shadowRect(
            bounds: keyframe.frame.size, direction: keyframe.direction, arrowHeight: metrics.arrowHeight)
    }
}
