/// The seven images of the skin. The raw values are the names the goldens and the
/// command line use.
///
/// There are no left-pointing or top-left images: those are the images below drawn
/// mirrored (see `BackgroundLayout.mirrored`).
public enum ArrowImage: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case up
    case upRight = "up-right"
    case down
    case downRight = "down-right"
    case side
    case sideTop = "side-top"
    case sideBottom = "side-bottom"

    /// Size and cap insets from docs/specification.md §3.1. Each leaves a stretchable
    /// region of exactly 1 x 1 point.
    public var standardSpec: ImageSpec {
        switch self {
        case .up: ImageSpec(width: 57, height: 51, capInsets: EdgeInsets(top: 41, left: 9, bottom: 9, right: 47))
        case .upRight: ImageSpec(width: 52, height: 51, capInsets: EdgeInsets(top: 41, left: 9, bottom: 9, right: 42))
        case .down: ImageSpec(width: 57, height: 51, capInsets: EdgeInsets(top: 23, left: 9, bottom: 27, right: 47))
        case .downRight: ImageSpec(width: 52, height: 51, capInsets: EdgeInsets(top: 23, left: 9, bottom: 27, right: 42))
        case .side: ImageSpec(width: 37, height: 72, capInsets: EdgeInsets(top: 24, left: 9, bottom: 47, right: 27))
        case .sideTop: ImageSpec(width: 37, height: 67, capInsets: EdgeInsets(top: 43, left: 9, bottom: 23, right: 27))
        case .sideBottom: ImageSpec(width: 37, height: 67, capInsets: EdgeInsets(top: 23, left: 9, bottom: 43, right: 27))
        }
    }

    public var description: String { rawValue }
}
