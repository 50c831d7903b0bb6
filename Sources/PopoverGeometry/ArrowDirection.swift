/// The way the arrow points. "up" means the arrow points up at its anchor, so the
/// popover hangs below the anchor.
public enum ArrowDirection: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case up, down, left, right

    /// Up and down arrows sit on a horizontal edge; left and right ones on a
    /// vertical edge. Most rules differ only by this.
    public var isVertical: Bool { self == .up || self == .down }

    public var description: String { rawValue }

    /// "an up arrow", "a down arrow": for messages.
    var withArticle: String {
        self == .up ? "an up arrow" : "a \(rawValue) arrow"
    }
}
