/// Everything this module can reject. Every message names the value at fault.
public enum GeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    case nonFiniteArrowOffset(Double)
    /// Bounds with a non-finite or negative dimension.
    case invalidBounds(Size)
    /// Bounds too small to hold two corners and the arrow; see
    /// `PopoverMetrics.minimumBounds(for:)`.
    case boundsTooSmall(bounds: Size, direction: ArrowDirection, minimum: Size)
    /// A metric that is not a finite, non-negative number.
    case invalidMetric(name: String, value: Double)
    /// Cap insets that overlap, leaving a negative stretchable region.
    case capInsetsTooLarge(image: ArrowImage, size: Size, capInsets: EdgeInsets)
    /// A two-stage stretch whose first stage comes out shorter than the second stage's
    /// inset plus its 1-point stretchable region: metrics that do not fit together.
    case secondStageDoesNotFit(image: ArrowImage, stageLength: Double, inset: Double, metric: String)
    /// A shadow asked to cut an arrow strip deeper than the bounds.
    case arrowHeightExceedsBounds(arrowHeight: Double, bounds: Size, direction: ArrowDirection)
    case unknownAnchor(String)
    case invalidAnchorFrame(Rect)
    case invalidViewSize(Size)
    case invalidContentSize(Size)
    case invalidKeyboardHeight(Double)
    /// No permitted direction leaves room for the smallest valid background.
    /// `anchor` is the anchor's name, or its frame when placed by frame; the
    /// orientation is nil when placed by frame.
    case noRoom(anchor: String, direction: PermittedDirections, orientation: Orientation?)
    case invalidTime(Double, duration: Double)
    case invalidTimingCurve(control1: Point, control2: Point)

    public var description: String {
        switch self {
        case .nonFiniteArrowOffset(let offset):
            return "arrow offset must be a finite number, got \(plainNumber(offset))"
        case .invalidBounds(let bounds):
            return "bounds must be finite and non-negative, got \(bounds)"
        case .boundsTooSmall(let bounds, let direction, let minimum):
            return "bounds \(bounds) are too small for \(direction.withArticle): need at least "
                + "\(plainNumber(minimum.width)) wide and \(plainNumber(minimum.height)) tall "
                + "to hold the corners and the arrow"
        case .invalidMetric(let name, let value):
            return "\(name) must be a finite, non-negative number, got \(plainNumber(value))"
        case .secondStageDoesNotFit(let image, let stageLength, let inset, let metric):
            return "the two-stage stretch of image '\(image)' needs a first stage of at least "
                + "\(plainNumber(inset + 1)) points for a \(metric) of \(plainNumber(inset)), got \(plainNumber(stageLength)): "
                + "the metrics do not fit together"
        case .capInsetsTooLarge(let image, let size, let capInsets):
            return "cap insets \(capInsets) of image '\(image)' overlap in its \(size) size: "
                + "left + right must not exceed the width, top + bottom the height"
        case .arrowHeightExceedsBounds(let arrowHeight, let bounds, let direction):
            return "arrow height \(plainNumber(arrowHeight)) does not fit in bounds \(bounds) "
                + "with \(direction.withArticle)"
        case .unknownAnchor(let name):
            return "unknown anchor '\(name)' (known: \(Anchor.knownNamesSummary))"
        case .invalidAnchorFrame(let frame):
            return "anchor frame must be finite with a non-negative size, got \(frame)"
        case .invalidViewSize(let size):
            return "view size must be finite and non-negative, got \(size)"
        case .invalidContentSize(let size):
            return "content size must be finite and non-negative, got \(size)"
        case .invalidKeyboardHeight(let height):
            return "keyboard height must be a finite, non-negative number, got \(plainNumber(height))"
        case .noRoom(let anchor, let direction, let orientation):
            let place = orientation.map { " in \($0)" } ?? ""
            return "no room for a popover from anchor \(anchor) with \(direction.withArticle)\(place): "
                + "inside the \(plainNumber(Placement.margin))-point margin there is not enough space "
                + "for the smallest background"
        case .invalidTime(let time, let duration):
            return "time must be a finite number of seconds within 0...\(plainNumber(duration)), got \(plainNumber(time))"
        case .invalidTimingCurve(let control1, let control2):
            return "timing curve control points must be finite with x within 0...1, "
                + "got \(control1) and \(control2)"
        }
    }
}
