/// Which margins of a fixed-size view absorb a change in its superview's size:
/// the margin half of a UIKit autoresizing mask (the anchors never stretch).
///
/// Encodes as a list of names, e.g. `["left","top"]`.
public struct FlexibleMargins: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let left = FlexibleMargins(rawValue: 1 << 0)
    public static let right = FlexibleMargins(rawValue: 1 << 1)
    public static let top = FlexibleMargins(rawValue: 1 << 2)
    public static let bottom = FlexibleMargins(rawValue: 1 << 3)
    public static let all: FlexibleMargins = [.left, .right, .top, .bottom]

    static let named: [(String, FlexibleMargins)] = [
        ("left", .left), ("right", .right), ("top", .top), ("bottom", .bottom),
    ]

    public var description: String {
        Self.named.filter { contains($0.1) }.map(\.0).joined(separator: ", ")
    }

    /// Moves `frame` (its size fixed) from a superview of `oldSize` to one of
    /// `newSize`, axis by axis: the change in the superview's size goes to the one
    /// flexible margin, or is shared by two in proportion to their current sizes
    /// (equally when both are zero); with no flexible margin the left (top) margin
    /// stays fixed.
    public func resize(_ frame: Rect, from oldSize: Size, to newSize: Size) -> Rect {
        Rect(
            x: Self.origin(
                frame.minX, length: frame.width, oldSpan: oldSize.width, newSpan: newSize.width,
                flexibleStart: contains(.left), flexibleEnd: contains(.right)),
            y: Self.origin(
                frame.minY, length: frame.height, oldSpan: oldSize.height, newSpan: newSize.height,
                flexibleStart: contains(.top), flexibleEnd: contains(.bottom)),
            width: frame.width,
            height: frame.height)
    }

    private static func origin(
        _ origin: Double, length: Double, oldSpan: Double, newSpan: Double,
        flexibleStart: Bool, flexibleEnd: Bool
    ) -> Double {
        let change = newSpan - oldSpan
        switch (flexibleStart, flexibleEnd) {
        case (true, true):
            let start = origin
            let end = oldSpan - origin - length
            let total = start + end
            return total == 0 ? origin + change / 2 : origin + change * start / total
        case (true, false):
            return origin + change
        case (false, _):
            return origin
        }
    }
}

extension FlexibleMargins: Codable {
    public init(from decoder: any Decoder) throws {
        var margins: FlexibleMargins = []
        for name in try decoder.singleValueContainer().decode([String].self) {
            guard let margin = Self.named.first(where: { $0.0 == name })?.1 else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown margin '\(name)' (known: left, right, top, bottom)"))
            }
            margins.insert(margin)
        }
        self = margins
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.named.filter { contains($0.1) }.map(\.0))
    }
}
