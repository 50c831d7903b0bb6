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

    /// The image this run drew the case with (seven-image skins): what an edit of an
    /// image's size or cap insets is named by when both sides chose it.
    public var image: String?

    /// The share of the changed pixels a part must hold to be one of `parts`.
    public static let mainShare = 0.01

    public init(facts: FactsStanding, geometry: [Delta], parts: [PopoverPart], fewPixelsIn: [PopoverPart] = [],
                colour: String? = nil, image: String? = nil) {
        self.image = image
        self.facts = facts
        self.geometry = geometry
        self.parts = parts
        self.fewPixelsIn = fewPixelsIn
        self.colour = colour
    }

    enum CodingKeys: String, CodingKey { case facts, geometry, parts, fewPixelsIn, colour, image }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(facts: try c.decode(FactsStanding.self, forKey: .facts), geometry: try c.decode([Delta].self, forKey: .geometry),
                  parts: try c.decode([PopoverPart].self, forKey: .parts),
                  fewPixelsIn: try c.decodeIfPresent([PopoverPart].self, forKey: .fewPixelsIn) ?? [],
                  colour: try c.decodeIfPresent(String.self, forKey: .colour), image: try c.decodeIfPresent(String.self, forKey: .image))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(facts, forKey: .facts)
        try c.encode(geometry, forKey: .geometry)
        try c.encode(parts, forKey: .parts)
        if !fewPixelsIn.isEmpty { try c.encode(fewPixelsIn, forKey: .fewPixelsIn) }
        try c.encodeIfPresent(colour, forKey: .colour)
        try c.encodeIfPresent(image, forKey: .image)
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

/// One cause, decided once: a skin's edited input with every case it touched (the
/// different amounts it caused folded in as `variants`), or, when no input changed, one
/// kind of move of the geometry or drawing. docs/run-record.md ("Each change") is the
/// contract the page draws from.
public struct Change: Sendable, Hashable, Codable {
    /// Stable for the same cause: "c" and the first 8 hex digits of its SHA-256.
    public var id: String
    /// The headline: one line leading with what a person sees.
    public var explanation: String
    /// `input` (a skin's input edited), `geometry` (no input changed, the geometry
    /// moved), `drawing` (only pixels moved), `unexplained` (the golden's facts are
    /// missing, stale or unreadable), `new` (new cases of no other change), `error`.
    public var kind: String
    /// Member case IDs, failing and new, in the run's order.
    public var cases: [String]
    /// For `input`: each edited input of the skin.
    public var edits: [Edit] = []
    /// The scope: skins, arrow directions, scales and families its members cover, sorted.
    public var skins: [String] = []
    public var directions: [String] = []
    public var scales: [Int] = []
    public var families: [String] = []
    /// The members that had no golden.
    public var newCases: [String] = []
    /// Goldens no case owns any more that the new cases replace.
    public var orphans: [String] = []
    /// The different amounts the cause gave, biggest first.
    public var variants: [Variant] = []
    /// Every fact that differs in any member, in telling order.
    public var facts: [FactSpan] = []
    /// How much the picture changed: what the page's index orders by.
    public var magnitude = Magnitude()
    /// The command that accepts it whole (none for `error`).
    public var command: String?

    /// A skin input whose recorded value differs: `field` as skin.json or metrics.json
    /// names it (`sideArrowCenterOffset`, `images.colours.border`, `side@2x.png`).
    public struct Edit: Sendable, Hashable, Codable {
        public var skin: String
        public var field: String
        public var expected: String
        public var actual: String

        public init(skin: String, field: String, expected: String, actual: String) {
            self.skin = skin
            self.field = field
            self.expected = expected
            self.actual = actual
        }
    }

    /// One amount the cause gave: its line, how many members, one of them.
    public struct Variant: Sendable, Hashable, Codable {
        public var explanation: String
        public var count: Int
        public var example: String
    }

    /// A fact that differs in some members: its path, its name as a person reads it (the
    /// skin field for an input, "derived: ..." for one that follows from others), whether
    /// it is an input, in how many members it differs, and for numbers the smallest and
    /// largest change (actual - expected).
    public struct FactSpan: Sendable, Hashable, Codable {
        public var fact: String
        public var name: String
        public var input: Bool
        public var cases: Int
        public var least: Double?
        public var most: Double?
    }

    /// Differing pixels over the members (device pixels; new cases count their whole
    /// image), the same in square points, the largest geometry move in points, the
    /// largest channel delta.
    public struct Magnitude: Sendable, Hashable, Codable {
        public var pixels = 0
        public var area = 0.0
        public var points = 0.0
        public var channel = 0
        public init() {}
    }

    public init(id: String, explanation: String, kind: String, cases: [String]) {
        self.id = id
        self.explanation = explanation
        self.kind = kind
        self.cases = cases
    }

    enum CodingKeys: String, CodingKey {
        case id, explanation, kind, cases, edits, skins, directions, scales, families, newCases, orphans, variants, facts
        case magnitude, command
    }

    /// Records written before changes had causes hold only the first four keys.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        explanation = try c.decode(String.self, forKey: .explanation)
        kind = try c.decode(String.self, forKey: .kind)
        cases = try c.decode([String].self, forKey: .cases)
        edits = try c.decodeIfPresent([Edit].self, forKey: .edits) ?? []
        skins = try c.decodeIfPresent([String].self, forKey: .skins) ?? []
        directions = try c.decodeIfPresent([String].self, forKey: .directions) ?? []
        scales = try c.decodeIfPresent([Int].self, forKey: .scales) ?? []
        families = try c.decodeIfPresent([String].self, forKey: .families) ?? []
        newCases = try c.decodeIfPresent([String].self, forKey: .newCases) ?? []
        orphans = try c.decodeIfPresent([String].self, forKey: .orphans) ?? []
        variants = try c.decodeIfPresent([Variant].self, forKey: .variants) ?? []
        facts = try c.decodeIfPresent([FactSpan].self, forKey: .facts) ?? []
        magnitude = try c.decodeIfPresent(Magnitude.self, forKey: .magnitude) ?? Magnitude()
        command = try c.decodeIfPresent(String.self, forKey: .command)
    }
}
