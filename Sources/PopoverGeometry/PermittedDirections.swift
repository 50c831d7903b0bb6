/// The arrow directions a presenter allows: any, or exactly one.
///
/// Encodes as a single string: "any", "up", "down", "left" or "right".
public enum PermittedDirections: Sendable, Hashable, CustomStringConvertible {
    case any
    case only(ArrowDirection)

    /// The order in which placement tries them: up, down, left, right for "any".
    public var directions: [ArrowDirection] {
        switch self {
        case .any: [.up, .down, .left, .right]
        case .only(let direction): [direction]
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .only(let direction): direction.rawValue
        }
    }

    /// "any arrow", "an up arrow".
    var withArticle: String {
        switch self {
        case .any: "any arrow direction"
        case .only(let direction): direction.withArticle
        }
    }
}

extension PermittedDirections: Codable {
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        if name == "any" {
            self = .any
        } else if let direction = ArrowDirection(rawValue: name) {
            self = .only(direction)
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "unknown arrow directions '\(name)' (known: any, up, down, left, right)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
