/// A control a popover is presented from: one of the sample app's 44 x 44
/// buttons, or any other.
public struct Anchor: Sendable, Hashable, Codable, CustomStringConvertible {
    public var name: String
    /// In portrait view coordinates (the view is `Orientation.portrait.viewSize`).
    public var portraitFrame: Rect
    public var permitted: PermittedDirections
    public var flexibleMargins: FlexibleMargins
    /// The size of what the popover presents, before the background's content
    /// insets and arrow are added.
    public var contentSize: Size

    public init(
        name: String, portraitFrame: Rect, permitted: PermittedDirections,
        flexibleMargins: FlexibleMargins, contentSize: Size = Anchor.plainContentSize
    ) {
        self.name = name
        self.portraitFrame = portraitFrame
        self.permitted = permitted
        self.flexibleMargins = flexibleMargins
        self.contentSize = contentSize
    }

    /// The frame after the view takes the orientation's size, moved by the
    /// flexible margins the way UIKit's autoresizing moves it.
    public func frame(in orientation: Orientation) -> Rect {
        flexibleMargins.resize(
            portraitFrame, from: Orientation.portrait.viewSize, to: orientation.viewSize)
    }

    public var description: String { name }
}
