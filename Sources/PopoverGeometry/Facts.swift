/// The geometry a drawing was made from, as named values: what a golden's facts file
/// records and what a failing case's cause compares.
///
/// Facts are plain data (numbers, words, switches, groups and lists) rather than typed
/// structs because every skin draws from different geometry (seven stretched images, a
/// turned arrow image, one outline) and the comparison only needs "which named value
/// changed, and from what to what". Keys of a group are kept sorted, so the same facts
/// always encode to the same JSON.
public indirect enum FactValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case text(String)
    case flag(Bool)
    case group(Facts)
    case list([FactValue])

    /// "120.5", "up-right", "yes", or a short JSON-like form for groups and lists.
    public var description: String {
        switch self {
        case .number(let v): plainNumber(v)
        case .text(let s): s
        case .flag(let b): b ? "yes" : "no"
        case .group(let facts): "{" + facts.entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }

    public var number: Double? {
        if case .number(let v) = self { return v }
        return nil
    }
}

/// A group of named facts; see `FactValue`.
public struct Facts: Sendable, Hashable {
    public private(set) var values: [String: FactValue]

    public init(_ values: [String: FactValue] = [:]) {
        self.values = values
    }

    public subscript(key: String) -> FactValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The entries in key order: the order they are written and compared in.
    public var entries: [(key: String, value: FactValue)] {
        values.keys.sorted().map { ($0, values[$0]!) }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// Every scalar fact with its path: `apex.x`, `stages[0].insets.left`, `image`.
    public func flattened() -> [(path: String, value: FactValue)] {
        var out: [(String, FactValue)] = []
        func walk(_ value: FactValue, _ path: String) {
            switch value {
            case .group(let facts):
                for (key, inner) in facts.entries { walk(inner, path.isEmpty ? key : path + "." + key) }
            case .list(let items):
                for (i, inner) in items.enumerated() { walk(inner, "\(path)[\(i)]") }
            default:
                out.append((path, value))
            }
        }
        walk(.group(self), "")
        return out
    }

    /// The facts of `other` merged over these, key by key (groups are replaced whole).
    public func merging(_ other: Facts) -> Facts {
        Facts(values.merging(other.values) { _, new in new })
    }
}

// MARK: Building facts from geometry

extension FactValue {
    public static func point(_ p: Point) -> FactValue { .group(Facts(["x": .number(p.x), "y": .number(p.y)])) }

    public static func size(_ s: Size) -> FactValue {
        .group(Facts(["width": .number(s.width), "height": .number(s.height)]))
    }

    public static func rect(_ r: Rect) -> FactValue {
        .group(Facts(["x": .number(r.minX), "y": .number(r.minY), "width": .number(r.width), "height": .number(r.height)]))
    }

    public static func insets(_ e: EdgeInsets) -> FactValue {
        .group(Facts(["top": .number(e.top), "left": .number(e.left), "bottom": .number(e.bottom), "right": .number(e.right)]))
    }

    public static func stage(_ s: StretchStage) -> FactValue {
        .group(Facts(["width": .number(s.size.width), "height": .number(s.size.height), "insets": .insets(s.capInsets)]))
    }

    public static func metrics(_ m: PopoverMetrics) -> FactValue {
        .group(Facts(["arrowBase": .number(m.arrowBase), "arrowHeight": .number(m.arrowHeight),
                      "cornerRadius": .number(m.cornerRadius), "contentInsets": .insets(m.contentInsets)]))
    }

    /// The numbers of the seven-image skin a drawing with `image` uses: the skin's own and
    /// that one image's size and cap insets (a change to another image's leaves these
    /// facts, rightly, alone).
    public static func metrics(_ m: SevenImageMetrics, image: ArrowImage) -> FactValue {
        let spec = m[image]
        return .group(Facts(["arrowBase": .number(m.arrowBase), "arrowHeight": .number(m.arrowHeight),
                             "cornerRadius": .number(m.cornerRadius), "contentInsets": .insets(m.contentInsets),
                             "sideArrowCenterOffset": .number(m.sideArrowCenterOffset),
                             "secondStageBottomInset": .number(m.secondStageBottomInset),
                             "secondStageRightInset": .number(m.secondStageRightInset),
                             "imageWidth": .number(spec.size.width), "imageHeight": .number(spec.size.height),
                             "imageCapInsets": .insets(spec.capInsets)]))
    }
}

// MARK: JSON

extension FactValue: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .flag(b)
        } else if let v = try? c.decode(Double.self) {
            guard v.isFinite else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "a fact must be a finite number")
            }
            self = .number(v)
        } else if let s = try? c.decode(String.self) {
            self = .text(s)
        } else if let items = try? c.decode([FactValue].self) {
            self = .list(items)
        } else {
            self = .group(try c.decode(Facts.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let v):
            // Whole numbers as integers, so files read "216", not "216.0", on every platform.
            if v == v.rounded(), abs(v) < 1e15 { try c.encode(Int64(v)) } else { try c.encode(v) }
        case .text(let s): try c.encode(s)
        case .flag(let b): try c.encode(b)
        case .group(let facts): try c.encode(facts)
        case .list(let items): try c.encode(items)
        }
    }
}

extension Facts: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try [String: FactValue](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try values.encode(to: encoder)
    }
}
