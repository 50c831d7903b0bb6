import Foundation
import PopoverDiff
import PopoverSkins

// JSON forms of tolerances and configurations.
//
// A range is written as a bare number N (0...N), a string "N" (0...N) or "N-M", or an
// array [N, M]; it is encoded as the string "N-M". A perceptual threshold is a number,
// or "off"/null. `countAntiAliasing` is true or false, written only when true. Unknown
// keys are rejected so that a misspelt option cannot silently leave a tolerance exact.

/// A coding key for any name, used to list and reject unknown keys.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

enum ToleranceKey: String, CodingKey, CaseIterable {
    /// The keys of a full tolerance (a layer may also say `ignore`).
    static var ofTolerance: [String] { allCases.filter { $0 != .ignore }.map(\.rawValue) }

    case maxChannelDelta, differentPixels, perceptualThreshold, countAntiAliasing, ignore
}

enum ConfigKey: String, CodingKey, CaseIterable {
    case suite = "default", skins, cases
}

/// A range as written in JSON, before its option's checks.
enum WrittenRange: Decodable {
    case count(Int)
    case text(String)
    case pair([Int])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let count = try? container.decode(Int.self) {
            self = .count(count)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let pair = try? container.decode([Int].self) {
            self = .pair(pair)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected N, \"N\", \"N-M\" or [N, M]")
        }
    }

    func range(option: String) throws(ToleranceError) -> ClosedRange<Int> {
        switch self {
        case .count(let upper):
            guard upper >= 0 else { throw ToleranceError(option: option, value: String(upper), problem: .negative) }
            return 0...upper
        case .text(let text):
            return try Tolerance.parseRange(text, option: option)
        case .pair(let bounds):
            let written = "[" + bounds.map(String.init).joined(separator: ", ") + "]"
            guard bounds.count == 2 else { throw ToleranceError(option: option, value: written, problem: .notARange) }
            guard bounds[0] <= bounds[1] else {
                throw ToleranceError(option: option, value: written, problem: .reversedRange)
            }
            return bounds[0]...bounds[1]
        }
    }
}

/// A perceptual threshold as written in JSON.
enum WrittenThreshold: Decodable {
    case number(Double)
    case text(String)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a number in 0...1 or \"off\"")
        }
    }

    /// nil for off.
    func threshold(option: String) throws(ToleranceError) -> Double? {
        switch self {
        case .null: return nil
        case .text(let text): return try Tolerance.parseThreshold(text, option: option)
        case .number(let value):
            try Tolerance.checkThreshold(value, option: option)
            return value
        }
    }
}

/// A flag as written in JSON: `true`, `false`, or something else, kept as written for
/// the error that names it.
enum WrittenFlag: Decodable {
    case flag(Bool)
    case other(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if container.decodeNil() {
            self = .other("null")
        } else if let number = try? container.decode(Double.self) {
            self = .other(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)")
        } else if let text = try? container.decode(String.self) {
            self = .other("\"\(text)\"")
        } else {
            self = .other("a list or an object")
        }
    }

    func flag(option: String) throws(ToleranceError) -> Bool {
        switch self {
        case .flag(let value): return value
        case .other(let written): throw ToleranceError(option: option, value: written, problem: .notTrueOrFalse)
        }
    }
}

extension DecodingError {
    /// Wraps a tolerance problem found at `key` so `TolerancePolicy(json:)` can recover it.
    static func tolerance(_ error: ToleranceError, at path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(Context(codingPath: path, debugDescription: error.description, underlyingError: error))
    }
}

/// Throws for any key of the object at `decoder` not among `known`; `name` stands for
/// the object in the message when it is the top-level value.
func rejectUnknownKeys(_ decoder: any Decoder, known: [String], name: String) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    for key in container.allKeys where !known.contains(key.stringValue) {
        let path = decoder.codingPath.map(\.stringValue)
        let error = ToleranceError(
            option: path.isEmpty ? name : path.joined(separator: "."),
            value: key.stringValue,
            problem: .unknownKey(expected: known))
        throw DecodingError.tolerance(error, at: decoder.codingPath)
    }
}

// MARK: - Tolerance

extension Tolerance: Codable {
    /// Missing keys keep their exact defaults; the result is validated.
    public init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, known: ToleranceKey.ofTolerance, name: "tolerance")
        let layer = try ToleranceLayer(from: decoder)
        // In a full tolerance, "off", null and a missing key all mean no threshold.
        self = Tolerance.exact.applying(layer)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ToleranceKey.self)
        try container.encode(Tolerance.format(maxChannelDelta), forKey: .maxChannelDelta)
        try container.encode(Tolerance.format(differentPixels), forKey: .differentPixels)
        try container.encodeIfPresent(perceptualThreshold, forKey: .perceptualThreshold)
        if countAntiAliasing { try container.encode(true, forKey: .countAntiAliasing) }
    }
}

// MARK: - ToleranceLayer

extension ToleranceLayer: Codable {
    /// Missing keys inherit; `"perceptualThreshold": "off"` or `null` turns the
    /// threshold off. The result is validated.
    public init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, known: ToleranceKey.allCases.map(\.rawValue), name: "tolerance")
        let container = try decoder.container(keyedBy: ToleranceKey.self)
        self.init()
        func decode<T>(_ key: ToleranceKey, _ convert: (String) throws(ToleranceError) -> T) throws -> T {
            do throws(ToleranceError) {
                return try convert(key.rawValue)
            } catch {
                throw DecodingError.tolerance(error, at: container.codingPath + [key])
            }
        }
        if let written = try container.decodeIfPresent(WrittenRange.self, forKey: .maxChannelDelta) {
            maxChannelDelta = try decode(.maxChannelDelta) { option throws(ToleranceError) in
                let range = try written.range(option: option)
                try Tolerance.checkChannelRange(range, option: option)
                return range
            }
        }
        if let written = try container.decodeIfPresent(WrittenRange.self, forKey: .differentPixels) {
            differentPixels = try decode(.differentPixels) { option throws(ToleranceError) in
                let range = try written.range(option: option)
                try Tolerance.checkPixelRange(range, option: option)
                return range
            }
        }
        if container.contains(.perceptualThreshold) {
            let written = try container.decode(WrittenThreshold.self, forKey: .perceptualThreshold)
            let threshold = try decode(.perceptualThreshold) { option throws(ToleranceError) in
                try written.threshold(option: option)
            }
            perceptual = threshold.map { .threshold($0) } ?? .off
        }
        if container.contains(.countAntiAliasing) {
            let written = try container.decode(WrittenFlag.self, forKey: .countAntiAliasing)
            countAntiAliasing = try decode(.countAntiAliasing) { option throws(ToleranceError) in
                try written.flag(option: option)
            }
        }
        if container.contains(.ignore) {
            let names = PopoverPart.allCases.map(\.rawValue)
            // A list of part names, or one name alone.
            let words: [String]
            if let list = try? container.decode([String].self, forKey: .ignore) {
                words = list
            } else if let one = try? container.decode(String.self, forKey: .ignore) {
                words = [one]
            } else {
                let written = try container.decode(WrittenFlag.self, forKey: .ignore)
                let shown: String
                switch written {
                case .flag(let b): shown = "\(b)"
                case .other(let text): shown = text
                }
                throw DecodingError.tolerance(ToleranceError(option: ToleranceKey.ignore.rawValue, value: shown,
                                                             problem: .notWordsOf(expected: names)),
                                              at: container.codingPath + [ToleranceKey.ignore])
            }
            ignore = try words.map { word in
                guard let part = PopoverPart(rawValue: word) else {
                    throw DecodingError.tolerance(ToleranceError(option: ToleranceKey.ignore.rawValue, value: "\"\(word)\"",
                                                                 problem: .notOneOf(expected: names)),
                                                  at: container.codingPath + [ToleranceKey.ignore])
                }
                return part
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ToleranceKey.self)
        try container.encodeIfPresent(maxChannelDelta.map(Tolerance.format), forKey: .maxChannelDelta)
        try container.encodeIfPresent(differentPixels.map(Tolerance.format), forKey: .differentPixels)
        switch perceptual {
        case nil: break
        case .off?: try container.encode("off", forKey: .perceptualThreshold)
        case .threshold(let value)?: try container.encode(value, forKey: .perceptualThreshold)
        }
        try container.encodeIfPresent(countAntiAliasing, forKey: .countAntiAliasing)
        try container.encodeIfPresent(ignore, forKey: .ignore)
    }
}

// MARK: - TolerancePolicy

extension TolerancePolicy: Codable {
    public init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, known: ConfigKey.allCases.map(\.rawValue), name: "tolerance config")
        let container = try decoder.container(keyedBy: ConfigKey.self)
        // The suite default is a full tolerance (missing options exact) that may also
        // say what it ignores.
        let suite = try container.decodeIfPresent(ToleranceLayer.self, forKey: .suite) ?? ToleranceLayer()
        self.init(
            suite: Tolerance.exact.applying(suite),
            skins: try container.decodeIfPresent([String: ToleranceLayer].self, forKey: .skins) ?? [:],
            cases: try container.decodeIfPresent([String: ToleranceLayer].self, forKey: .cases) ?? [:])
        suiteIgnore = suite.ignore ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ConfigKey.self)
        var suiteLayer = ToleranceLayer(maxChannelDelta: suite.maxChannelDelta, differentPixels: suite.differentPixels,
                                        perceptual: suite.perceptualThreshold.map { .threshold($0) },
                                        countAntiAliasing: suite.countAntiAliasing ? true : nil)
        suiteLayer.ignore = suiteIgnore.isEmpty ? nil : suiteIgnore
        try container.encode(suiteLayer, forKey: .suite)
        if !skins.isEmpty { try container.encode(skins, forKey: .skins) }
        if !cases.isEmpty { try container.encode(cases, forKey: .cases) }
    }
}
