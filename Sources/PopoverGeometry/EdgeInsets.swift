/// Distances from each edge, in UIKit's order: top, left, bottom, right.
///
/// Used for cap insets (the part of an image that must not stretch) and for
/// content insets (background edge to content edge). The property order is the
/// coding order, so JSON reads `{"top":..,"left":..,"bottom":..,"right":..}`.
public struct EdgeInsets: Sendable, Hashable, Codable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every side, as the content insets of every skin are.
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    public static let zero = EdgeInsets(all: 0)

    /// The insets of the image flipped left to right: a left-pointing arrow reuses
    /// the right-pointing artwork, so its caps swap sides.
    public var mirrored: EdgeInsets {
        EdgeInsets(top: top, left: right, bottom: bottom, right: left)
    }

    var all: [Double] { [top, left, bottom, right] }

    /// Reads "41, 9, 9, 47", the order the specification's tables use.
    public var description: String {
        all.map(plainNumber).joined(separator: ", ")
    }
}
