/// A position in points; origin top-left, y grows downwards (UIKit's convention,
/// so the numbers in the specification read the same here).
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(plainNumber(x)), \(plainNumber(y)))" }
}
