/// The sample app's two screens (docs/specification.md §8 and §12): an iPad's view
/// under the 20-point status bar, and the keyboard of that era.
public enum Orientation: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case portrait, landscape

    /// The view the anchors live in: 768 x 1004 or 1024 x 748.
    public var viewSize: Size {
        switch self {
        case .portrait: Size(width: 768, height: 1004)
        case .landscape: Size(width: 1024, height: 748)
        }
    }

    /// The keyboard covers this much of the bottom of the view: 264 or 352.
    public var keyboardHeight: Double {
        switch self {
        case .portrait: 264
        case .landscape: 352
        }
    }

    public var description: String { rawValue }
}
