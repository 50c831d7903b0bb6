/// An origin and a size, in points.
///
/// Encodes flat, as `{"x":..,"y":..,"width":..,"height":..}`, because that is how
/// the specification and the goldens' reports write frames.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(origin: .zero, size: .zero)

    public var minX: Double { origin.x }
    public var midX: Double { origin.x + size.width / 2 }
    public var maxX: Double { origin.x + size.width }
    public var minY: Double { origin.y }
    public var midY: Double { origin.y + size.height / 2 }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// The rectangle shrunk by the insets on each side (grown where an inset is
    /// negative). The size may come out negative; callers that care check it.
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: origin.x + insets.left,
            y: origin.y + insets.top,
            width: size.width - insets.left - insets.right,
            height: size.height - insets.top - insets.bottom
        )
    }

    /// Every coordinate is finite and the size is not negative.
    public var isFiniteWithNonNegativeSize: Bool {
        origin.x.isFinite && origin.y.isFinite && size.isFiniteAndNonNegative
    }

    /// Reads "(362, 0, 44 x 44)".
    public var description: String {
        "(\(plainNumber(origin.x)), \(plainNumber(origin.y)), \(size))"
    }
}

extension Rect: Codable {
    private enum CodingKeys: String, CodingKey {
        case x, y, width, height
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            x: try container.decode(Double.self, forKey: .x),
            y: try container.decode(Double.self, forKey: .y),
            width: try container.decode(Double.self, forKey: .width),
            height: try container.decode(Double.self, forKey: .height)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(origin.x, forKey: .x)
        try container.encode(origin.y, forKey: .y)
        try container.encode(size.width, forKey: .width)
        try container.encode(size.height, forKey: .height)
    }
}
