#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
/// ``Glob`` patterns (a key without `*` or `?` is an exact name). When several keys
/// of one section match, they apply in order of ``Glob/specificity`` (wildcard
/// patterns before exact names, fewer pinned characters first, ties by key in
/// ascending order), so the most specific key has the last word on every option it sets.
///
/// Ranges are written `"N"` (0...N), `"N-M"`, a bare number N (0...N) or `[N, M]`;
/// `perceptualThreshold` is a number in 0...1, or `"off"`/`null` (in a skin or case
/// layer, `"off"` turns off a threshold set below it). Unknown keys are errors.
public struct ToleranceConfig: Sendable, Equatable {
    /// The suite default (JSON key `default`).
    public var suite: Tolerance
    /// Layers by skin name or skin pattern (JSON key `skins`).
    public var skins: [String: ToleranceOverride]
    /// Layers by case ID or case ID pattern (JSON key `cases`).
    public var cases: [String: ToleranceOverride]

    public init(
        suite: Tolerance = .exact,
        skins: [String: ToleranceOverride] = [:],
        cases: [String: ToleranceOverride] = [:]
    ) {
        self.suite = suite
        self.skins = skins
        self.cases = cases
    }

    /// Decodes and validates a configuration. Semantic problems (a bad range, threshold
    /// or unknown key) throw ``ToleranceError`` whose `option` is the JSON path, e.g.
    /// `cases.gik-default/*.maxChannelDelta: 300 is outside 0-255`; malformed JSON
    /// throws the decoder's `DecodingError`.
    public init(json: Data) throws {
        do {
            self = try JSONDecoder().decode(ToleranceConfig.self, from: json)
        } catch let DecodingError.dataCorrupted(context) {
            if let problem = context.underlyingError as? ToleranceError {
                let path = context.codingPath.map(\.stringValue)
                throw ToleranceError(
                    option: path.isEmpty ? problem.option : path.joined(separator: "."),
                    value: problem.value,
                    problem: problem.problem)
            }
            throw DecodingError.dataCorrupted(context)
        }
    }

    /// Reads and decodes a configuration file; see ``init(json:)``.
    public init(contentsOf url: URL) throws {
        try self.init(json: try Data(contentsOf: url))
    }

    /// The tolerance for one case: suite default, then matching skin layers, then
    /// matching case layers (see the type's documentation for the order).
    public func tolerance(forCase id: String, skin: String) -> Tolerance {
        var result = suite
        for key in ToleranceConfig.orderedMatches(in: skins, for: skin) {
            result = result.applying(skins[key]!)
        }
        for key in ToleranceConfig.orderedMatches(in: cases, for: id) {
            result = result.applying(cases[key]!)
        }
        return result
    }

    /// The `skins` and `cases` keys that apply to a case, in the order they are applied;
    /// useful for a report line such as "tolerance from: gik-default, gik-default/up/*".
    public func matchingKeys(forCase id: String, skin: String) -> (skins: [String], cases: [String]) {
        (ToleranceConfig.orderedMatches(in: skins, for: skin), ToleranceConfig.orderedMatches(in: cases, for: id))
    }

    /// Returns `self` if every layer is usable, otherwise throws naming the first bad
    /// option (in key order, so the error is the same on every run).
    @discardableResult
    public func validated() throws(ToleranceError) -> ToleranceConfig {
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

    static func orderedMatches(in layers: [String: ToleranceOverride], for name: String) -> [String] {
        layers.keys
            .map { (key: $0, glob: Glob($0)) }
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
