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
        leaves().map { ($0.path.description, $0.value) }
    }

    /// Every scalar fact with its path, in key order (list items in order).
    /// `keepingEmpty`: also each empty group and empty list, as a value of its own, so
    /// that `Facts(leaves:)` gives back exactly these facts.
    public func leaves(keepingEmpty: Bool = false) -> [(path: FactPath, value: FactValue)] {
        var out: [(FactPath, FactValue)] = []
        var path: [FactPath.Step] = []
        func walk(_ value: FactValue) {
            switch value {
            case .group(let facts) where !facts.isEmpty || path.isEmpty:
                for (key, inner) in facts.entries {
                    path.append(.key(key))
                    walk(inner)
                    path.removeLast()
                }
            case .list(let items) where !items.isEmpty:
                for (i, inner) in items.enumerated() {
                    path.append(.index(i))
                    walk(inner)
                    path.removeLast()
                }
            case .group, .list:
                if keepingEmpty { out.append((FactPath(path), value)) }
            default:
                out.append((FactPath(path), value))
            }
        }
        walk(.group(self))
        return out
    }

    /// The facts whose `leaves(keepingEmpty: true)` are `leaves`, in any order: the
    /// inverse of flattening. Throws when the paths cannot all hold at once: one path
    /// twice, a value with facts below it (`a` and `a.b`), one place both a group and a
    /// list (`a.b` and `a[0]`), or a list missing an item (`a[1]` without `a[0]`). Every
    /// path must start with a key (the top is a group).
    public init(leaves: some Sequence<(path: FactPath, value: FactValue)>) throws(FactPathError) {
        let root = FactNode()
        for (path, value) in leaves {
            guard case .key? = path.steps.first else { throw FactPathError(path: path, problem: "does not start with a key") }
            var node = root
            for (depth, step) in path.steps.enumerated() {
                let above = { "`\(FactPath(Array(path.steps[..<depth])))`" }
                if node.value != nil { throw FactPathError(path: path, problem: "lies below \(above()), which holds a value") }
                let child: FactNode
                switch step {
                case .key(let key):
                    if node.items != nil { throw FactPathError(path: path, problem: "makes \(above()) both a list and a group") }
                    if let found = node.keys?[key] { child = found } else {
                        child = FactNode()
                        node.keys = node.keys ?? [:]
                        node.keys![key] = child
                    }
                case .index(let index):
                    if node.keys != nil { throw FactPathError(path: path, problem: "makes \(above()) both a group and a list") }
                    if let found = node.items?[index] { child = found } else {
                        child = FactNode()
                        node.items = node.items ?? [:]
                        node.items![index] = child
                    }
                }
                node = child
            }
            if node.value != nil { throw FactPathError(path: path, problem: "is given twice") }
            if node.keys != nil || node.items != nil {
                throw FactPathError(path: path, problem: "holds a value and also has facts below it")
            }
            node.value = value
        }
        self.init(try root.group(FactPath([])))
    }

    /// The facts of `other` merged over these, key by key (groups are replaced whole).
    public func merging(_ other: Facts) -> Facts {
        Facts(values.merging(other.values) { _, new in new })
    }
}

/// Why a set of paths cannot be one `Facts` tree.
public struct FactPathError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: FactPath
    public var problem: String

    public init(path: FactPath, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "`\(path)` \(problem)" }
}

/// One place of a tree being rebuilt from its paths: a value, or the keys or items below.
private final class FactNode {
    var value: FactValue?
    var keys: [String: FactNode]?
    var items: [Int: FactNode]?

    func built(_ path: FactPath) throws(FactPathError) -> FactValue {
        if let value { return value }
        if let items {
            let indices = items.keys.sorted()
            for (i, index) in indices.enumerated() where i != index {
                throw FactPathError(path: FactPath(path.steps + [.index(index)]),
                                    problem: "is in a list without `\(FactPath(path.steps + [.index(i)]))`")
            }
            var list: [FactValue] = []
            for index in indices { list.append(try items[index]!.built(FactPath(path.steps + [.index(index)]))) }
            return .list(list)
        }
        return .group(Facts(try group(path)))
    }

    func group(_ path: FactPath) throws(FactPathError) -> [String: FactValue] {
        var group: [String: FactValue] = [:]
        for (key, node) in keys ?? [:] { group[key] = try node.built(FactPath(path.steps + [.key(key)])) }
        return group
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
