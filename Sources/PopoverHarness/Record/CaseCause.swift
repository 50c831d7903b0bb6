import PopoverDiff
import PopoverGeometry
import PopoverImage
import PopoverSkins

/// Why a failing case's pixels moved, in the model's terms: the recorded facts of its
/// golden that differ from the facts this run drew it from, and the parts of the
/// popover its changed pixels lie in.
///
/// ```json
/// {"facts": "recorded",
///  "geometry": [{"fact": "apex.x", "expected": 120.5, "actual": 121.5}, ...],
///  "parts": ["arrow", "border"]}
/// ```
public struct CaseCause: Sendable, Hashable, Codable {
    /// One fact that differs. A fact only one side has is null on the other.
    public struct Delta: Sendable, Hashable, Codable {
        public var fact: String
        public var expected: FactValue?
        public var actual: FactValue?

        public init(fact: String, expected: FactValue?, actual: FactValue?) {
            self.fact = fact
            self.expected = expected
            self.actual = actual
        }

        /// actual - expected, for a number on both sides.
        public var amount: Double? {
            guard let e = expected?.number, let a = actual?.number else { return nil }
            return a - e
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(fact, forKey: .fact)
            if let expected { try c.encode(expected, forKey: .expected) } else { try c.encodeNil(forKey: .expected) }
            if let actual { try c.encode(actual, forKey: .actual) } else { try c.encodeNil(forKey: .actual) }
        }
    }

    /// How the golden's recorded facts stood: only `recorded` facts were compared.
    public var facts: FactsStanding
    /// The facts that differ, in path order; empty when the geometry is unchanged (or
    /// could not be compared, see `facts`).
    public var geometry: [Delta]
    /// The parts of the popover (this run's layout) the changed pixels lie in, each
    /// holding at least `mainShare` of them; empty when no pixel was compared (a size
    /// change).
    public var parts: [PopoverPart]
    /// Parts holding a few of the changed pixels, fewer than `mainShare`: the part map is
    /// a model of the drawing (an outline and a band), and where a stretch bends the
    /// artwork a few edge pixels fall just beside it. Said, but not what groups changes.
    public var fewPixelsIn: [PopoverPart]

    /// How the colour moved, over the changed pixels: "redder", "lighter", "more
    /// transparent", ... (nil when no pixel was compared). With the parts, what tells one
    /// drawing change from another: unlike the size of the change, it reads the same at
    /// every scale and over anti-aliased edges.
    public var colour: String?

    /// The share of the changed pixels a part must hold to be one of `parts`.
    public static let mainShare = 0.01

    public init(facts: FactsStanding, geometry: [Delta], parts: [PopoverPart], fewPixelsIn: [PopoverPart] = [],
                colour: String? = nil) {
        self.facts = facts
        self.geometry = geometry
        self.parts = parts
        self.fewPixelsIn = fewPixelsIn
        self.colour = colour
    }

    enum CodingKeys: String, CodingKey { case facts, geometry, parts, fewPixelsIn, colour }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(facts: try c.decode(FactsStanding.self, forKey: .facts), geometry: try c.decode([Delta].self, forKey: .geometry),
                  parts: try c.decode([PopoverPart].self, forKey: .parts),
                  fewPixelsIn: try c.decodeIfPresent([PopoverPart].self, forKey: .fewPixelsIn) ?? [],
                  colour: try c.decodeIfPresent(String.self, forKey: .colour))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(facts, forKey: .facts)
        try c.encode(geometry, forKey: .geometry)
        try c.encode(parts, forKey: .parts)
        if !fewPixelsIn.isEmpty { try c.encode(fewPixelsIn, forKey: .fewPixelsIn) }
        try c.encodeIfPresent(colour, forKey: .colour)
    }

    /// The facts that differ between `expected` and `actual`.
    public static func deltas(expected: Facts, actual: Facts) -> [Delta] {
        let before = Dictionary(expected.flattened().map { ($0.path, $0.value) }, uniquingKeysWith: { a, _ in a })
        let after = Dictionary(actual.flattened().map { ($0.path, $0.value) }, uniquingKeysWith: { a, _ in a })
        return Set(before.keys).union(after.keys).sorted().compactMap { path in
            before[path] == after[path] ? nil : Delta(fact: path, expected: before[path], actual: after[path])
        }
    }

    /// The parts holding the pixels a comparison counted as different (or, if it counted
    /// none, every pixel that differs), judged on `outline`: the main ones, and those
    /// holding only a few.
    public static func parts(of diff: DiffMap, on outline: PopoverOutline) -> (main: [PopoverPart], few: [PopoverPart]) {
        guard let region = diff.changedRegion else { return ([], []) }
        let classes = diff.classes
        let counted = classes.contains(.different)
        let width = diff.width
        var pixels: [(x: Int, y: Int)] = []
        for y in region.y..<(region.y + region.height) {
            for x in region.x..<(region.x + region.width) {
                let c = classes[y * width + x]
                if c == .different || (!counted && c != .equal) { pixels.append((x, y)) }
            }
        }
        let counts = outline.count(pixels)
        let total = counts.values.reduce(0, +)
        let main = counts.filter { Double($0.value) >= mainShare * Double(total) }.keys.sorted()
        return (main, counts.keys.filter { !main.contains($0) }.sorted())
    }
}

extension CaseCause {
    /// How the colour of the changed pixels moved: the channels whose summed change is at
    /// least a quarter of the largest one's, as words. Straight colour over anti-aliased
    /// edges swings by more than the paint did, but not the other way, so the signs of the
    /// sums are what stays put.
    public static func colour(expected: RGBAImage, actual: RGBAImage, diff: DiffMap) -> String? {
        guard let region = diff.changedRegion, expected.width == actual.width, expected.height == actual.height else { return nil }
        let classes = diff.classes
        var sums = [Int](repeating: 0, count: 4)
        let width = expected.width
        expected.pixels.withUnsafeBufferPointer { e in
            actual.pixels.withUnsafeBufferPointer { a in
                for y in region.y..<(region.y + region.height) {
                    for x in region.x..<(region.x + region.width) where classes[y * width + x] != .equal {
                        let i = (y * width + x) * 4
                        for c in 0..<4 { sums[c] += Int(a[i + c]) - Int(e[i + c]) }
                    }
                }
            }
        }
        let largest = sums.map(abs).max() ?? 0
        guard largest > 0 else { return "unchanged on average" }
        let moved = sums.map { abs($0) * 4 >= largest ? ($0 > 0 ? 1 : -1) : 0 }
        var words: [String] = []
        if moved[0] != 0 && moved[0] == moved[1] && moved[1] == moved[2] {
            words.append(moved[0] > 0 ? "lighter" : "darker")
        } else {
            for (c, name) in ["red", "green", "blue"].enumerated() where moved[c] != 0 {
                words.append(moved[c] > 0 ? (name == "red" ? "redder" : name == "green" ? "greener" : "bluer") : "less \(name)")
            }
        }
        if moved[3] != 0 { words.append(moved[3] > 0 ? "more opaque" : "more transparent") }
        return words.joined(separator: ", ")
    }
}

/// A group of failing cases whose causes have the same signature: one change a reviewer
/// decides on once.
public struct Change: Sendable, Hashable, Codable {
    /// Stable for the same signature: the first 8 hex digits of its SHA-256, with "c".
    public var id: String
    /// One line in words, in amounts every member shares.
    public var explanation: String
    /// What kind of change it is: `geometry`, `drawing` (geometry unchanged),
    /// `unexplained` (no facts to compare), `new` (no golden yet), `error`.
    public var kind: String
    /// Member case IDs, in the run's order.
    public var cases: [String]

    public init(id: String, explanation: String, kind: String, cases: [String]) {
        self.id = id
        self.explanation = explanation
        self.kind = kind
        self.cases = cases
    }
}
