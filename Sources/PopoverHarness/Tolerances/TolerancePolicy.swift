import Foundation
import PopoverImage
import PopoverDiff
import PopoverFiles
import PopoverSkins

/// Tolerances for a whole suite, read from JSON:
///
/// ```json
/// {
///   "default": { "maxChannelDelta": "0-1", "differentPixels": "0-20" },
///   "skins": { "gik-default": { "perceptualThreshold": 0.1 } },
///   "cases": {
///     "gik-default/up/*@2x": { "differentPixels": "0-300" },
///     "gik-default/up/popover8-portrait@2x": { "maxChannelDelta": 3, "perceptualThreshold": "off" }
///   }
/// }
/// ```
///
/// Layers, least to most specific: the suite `default` (a full tolerance, missing
/// options exact), then every matching `skins` key, then every matching `cases` key.
/// Each layer replaces only the options it sets. Keys of `skins` and `cases` are
/// ``IDPattern`` patterns (a key without `*` or `?` is an exact name). When several keys
/// of one section match, they apply in order of ``IDPattern/specificity`` (wildcard
/// patterns before exact names, fewer pinned characters first, ties by key in
/// ascending order), so the most specific key has the last word on every option it sets.
///
/// Ranges are written `"N"` (0...N), `"N-M"`, a bare number N (0...N) or `[N, M]`;
/// `perceptualThreshold` is a number in 0...1, or `"off"`/`null` (in a skin or case
/// layer, `"off"` turns off a threshold set below it); `countAntiAliasing` is `true` or
/// `false` (see ``PopoverDiff/Tolerance``). Unknown keys are errors.
public struct TolerancePolicy: Sendable, Equatable {
    /// The suite default (JSON key `default`).
    public var suite: Tolerance
    /// Layers by skin name or skin pattern (JSON key `skins`).
    public var skins: [String: ToleranceLayer]
    /// Layers by case ID or case ID pattern (JSON key `cases`).
    public var cases: [String: ToleranceLayer]
    /// The parts the suite ignores (`"ignore"` in `default`); skin and case layers that
    /// say `ignore` replace it.
    public var suiteIgnore: [PopoverPart] = []

    public init(
        suite: Tolerance = .exact,
        skins: [String: ToleranceLayer] = [:],
        cases: [String: ToleranceLayer] = [:]
    ) {
        self.suite = suite
        self.skins = skins
        self.cases = cases
    }

    /// Decodes and validates a configuration. Semantic problems (a bad range, threshold
    /// or unknown key) throw ``ToleranceError`` whose `option` is the JSON path, e.g.
    /// `cases.gik-default/*.maxChannelDelta: 300 is outside 0-255`; anything else (not
    /// JSON, a key given twice, a wrong type) a `JSONProblem`.
    public init(json: Data) throws {
        do {
            self = try JSONFile.decode(TolerancePolicy.self, from: [UInt8](json))
        } catch let problem as JSONProblem {
            guard case .dataCorrupted(let context)? = problem.decodingError,
                  let tolerance = context.underlyingError as? ToleranceError else { throw problem }
            let path = context.codingPath.map(\.stringValue)
            throw ToleranceError(option: path.isEmpty ? tolerance.option : path.joined(separator: "."),
                                 value: tolerance.value, problem: tolerance.problem)
        }
    }

    /// The goldens folder's `tolerances.json` if there is one (validated), with the suite
    /// default replaced by `suite` when given (the command line's options).
    public static func load(goldensFolder: String, suite: Tolerance?) throws(HarnessError) -> TolerancePolicy {
        let path = goldensFolder + "/" + GoldenStore.toleranceFile
        var policy = TolerancePolicy()
        let bytes: [UInt8]?
        do {
            // Read as a file this tool reads: a FIFO or a device is said to be one, not read.
            bytes = try FileIO.readBytes(path: path)
        } catch {
            // No file, or no goldens folder to hold one (said once, as the folder's own problem).
            guard error.code == ENOENT || error.code == ENOTDIR else { throw .invalidTolerances(file: path, reason: error.reason) }
            bytes = nil
        }
        if let bytes {
            do {
                policy = try TolerancePolicy(json: Data(bytes)).validated()
            } catch {
                throw .invalidTolerances(file: path, reason: "\(error)")
            }
        }
        if let suite { policy.suite = suite }
        return policy
    }

    /// The SHA-256 of `canonicalText`: what a run's identity carries, so shards of one run
    /// and the merge that re-derives their verdicts can tell they judged alike.
    public var digest: String { SHA256.hex(Array(canonicalText.utf8)) }

    /// The policy as sorted JSON: equal text, equal policy.
    public var canonicalText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "\(self)"
    }

    /// The tolerance for one case: suite default, then matching skin layers, then
    /// matching case layers (see the type's documentation for the order).
    public func tolerance(forCase id: String, skin: String) -> Tolerance {
        var result = suite
        for key in TolerancePolicy.orderedMatches(in: skins, for: skin) {
            result = result.applying(skins[key]!)
        }
        for key in TolerancePolicy.orderedMatches(in: cases, for: id) {
            result = result.applying(cases[key]!)
        }
        return result
    }

    /// The parts a case's differences are excused in: the suite's, replaced by the most
    /// specific skin and then case layer that says `ignore`.
    public func ignoredParts(forCase id: String, skin: String) -> [PopoverPart] {
        var result = suiteIgnore
        for key in TolerancePolicy.orderedMatches(in: skins, for: skin) { if let parts = skins[key]!.ignore { result = parts } }
        for key in TolerancePolicy.orderedMatches(in: cases, for: id) { if let parts = cases[key]!.ignore { result = parts } }
        return Array(Set(result)).sorted()
    }

    /// The `skins` and `cases` keys that apply to a case, in the order they are applied;
    /// useful for a report line such as "tolerance from: gik-default, gik-default/up/*".
    public func matchingKeys(forCase id: String, skin: String) -> (skins: [String], cases: [String]) {
        (TolerancePolicy.orderedMatches(in: skins, for: skin), TolerancePolicy.orderedMatches(in: cases, for: id))
    }

    /// Returns `self` if every layer is usable, otherwise throws naming the first bad
    /// option (in key order, so the error is the same on every run).
    @discardableResult
    public func validated() throws(ToleranceError) -> TolerancePolicy {
        try suite.validate(channelOption: "default.maxChannelDelta",
                           pixelsOption: "default.differentPixels",
                           perceptualOption: "default.perceptualThreshold")
        for (section, layers) in [("skins", skins), ("cases", cases)] {
            for key in layers.keys.sorted() {
                let prefix = "\(section).\(key)."
                try layers[key]!.validate(channelOption: prefix + "maxChannelDelta",
                                          pixelsOption: prefix + "differentPixels",
                                          perceptualOption: prefix + "perceptualThreshold")
            }
        }
        return self
    }

    static func orderedMatches(in layers: [String: ToleranceLayer], for name: String) -> [String] {
        layers.keys
            .map { (key: $0, glob: IDPattern($0)) }
            .filter { $0.glob.matches(name) }
            .sorted { a, b in
                let aRank = (a.glob.hasWildcards ? 0 : 1, a.glob.specificity)
                let bRank = (b.glob.hasWildcards ? 0 : 1, b.glob.specificity)
                if aRank != bRank { return aRank < bRank }
                return a.key < b.key
            }
            .map(\.key)
    }
}
