/// A width and height in points.
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// Both dimensions are finite and not negative: the only sizes a background,
    /// a view or a content view can have.
    public var isFiniteAndNonNegative: Bool {
        width.isFinite && height.isFinite && width >= 0 && height >= 0
    }

    /// Reads "216 x 235", the way the specification writes sizes.
    public var description: String { "\(plainNumber(width)) x \(plainNumber(height))" }
}
