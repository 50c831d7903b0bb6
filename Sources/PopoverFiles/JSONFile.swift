import Foundation

/// The one way this tool reads a JSON document (tolerances.json, skin.json, metrics.json,
/// summary.json, approvals.json, a shard's record, the bench's figures): Foundation's
/// parser, after one pass over the bytes that Foundation does not make.
///
/// - A key given twice in one object is an error naming the key and where it is:
///   Foundation keeps one of the two silently (`JSONDecoder` the first,
///   `JSONSerialization` the last), so a diff could show one value while the other
///   applies.
/// - Arrays and objects nested more than `deepestNesting` levels are said to be nested
///   too deeply, not "not valid JSON".
///
/// Errors are `JSONProblem`s, whose reason the caller puts after the file's name.
public enum JSONFile {
    /// Foundation's own limit, said in words before Foundation refuses.
    public static let deepestNesting = 512

    /// Decodes `type` from `bytes` with `decoder`. A decoding error becomes a `JSONProblem`
    /// in words (its `decodingError` kept); other errors a type's `init(from:)` throws
    /// pass through as they are.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8],
                                            decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try scan(bytes)
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw JSONProblem(error, bytes: bytes)
        }
    }

    /// The document as `JSONSerialization` gives it (dictionaries, arrays, `NSNumber`s,
    /// strings), under the same rules.
    public static func object(from bytes: [UInt8]) throws(JSONProblem) -> Any {
        try scan(bytes)
        do {
            return try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw JSONProblem(notJSON: bytes)
        }
    }

    /// One pass over the bytes, for what Foundation does not say: nesting deeper than
    /// `deepestNesting`, and the first key an object has twice (once Foundation finds the
    /// document is JSON: in one that is not, what looks like a key may not be one). It only
    /// tells strings from the rest; whether the document is JSON is Foundation's to say.
    private static func scan(_ bytes: [UInt8]) throws(JSONProblem) {
        // Per open array or object: the keys an object has had so far (nil for an array),
        // and whether the next string is a key.
        var open: [(keys: Set<String>?, expectsKey: Bool)] = []
        var duplicate: (key: String, offset: Int)?
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                let start = i
                var escaped = false
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") {
                        escaped = true
                        i += 1
                    }
                    i += 1
                }
                if let last = open.indices.last, open[last].expectsKey, duplicate == nil {
                    open[last].expectsKey = false
                    let literal = Array(bytes[start..<min(i + 1, bytes.count)])
                    // An escaped key is compared by what it spells ("\u0061" is "a").
                    let key = escaped ? (try? JSONDecoder().decode(String.self, from: Data(literal)))
                                      : String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
                    if let key, open[last].keys?.insert(key).inserted == false { duplicate = (key, start) }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[i] == UInt8(ascii: "{")
                open.append((isObject ? [] : nil, isObject))
                guard open.count <= deepestNesting else {
                    throw JSONProblem(reason: "nested too deeply: more than \(deepestNesting) levels of arrays and objects "
                        + "(\(JSONProblem.position(i, in: bytes)))")
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
            case UInt8(ascii: ","):
                if let last = open.indices.last, open[last].keys != nil { open[last].expectsKey = true }
            default:
                break
            }
            i += 1
        }
        guard let duplicate, (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil
        else { return }
        throw JSONProblem(reason: "the key \(String(reflecting: duplicate.key)) appears twice in one object "
            + "(the second at \(JSONProblem.position(duplicate.offset, in: bytes))); say it once")
    }
}

/// What is wrong with a JSON document, in words: a key given twice, nesting too deep,
/// not JSON at all, or (with `decodingError`) not what the reader expects at a key.
public struct JSONProblem: Error, Sendable, CustomStringConvertible {
    public let reason: String
    /// The decoder's own error, for a reader that looks inside it.
    public let decodingError: DecodingError?

    public init(reason: String) {
        self.reason = reason
        decodingError = nil
    }

    init(_ error: DecodingError, bytes: [UInt8]) {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at " + keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        reason = switch error {
        case .keyNotFound(let key, let context): "missing key '\(key.stringValue)'\(path(context))"
        case .typeMismatch(_, let context): "wrong type\(path(context)): \(context.debugDescription)"
        case .valueNotFound(_, let context): "missing value\(path(context))"
        case .dataCorrupted(let context) where context.underlyingError != nil: "\(context.underlyingError!)"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            "wrong value\(path(context)): \(context.debugDescription)"
        case .dataCorrupted: Self(notJSON: bytes).reason
        @unknown default: "\(error)"
        }
        decodingError = error
    }

    /// "not valid JSON: <what the parser says is wrong> at line L, column C" (JSONDecoder
    /// says only "not valid JSON").
    init(notJSON bytes: [UInt8]) {
        let said = Self.parserSays(bytes)
        reason = "not valid JSON" + (said.map { ": " + $0.said + ($0.offset.map { " at " + Self.position($0, in: bytes) } ?? "") } ?? "")
        decodingError = nil
    }

    public var description: String { reason }

    /// What Foundation's parser says is wrong with `bytes`, and the offset of the byte it
    /// names, if it names one; nil when it finds nothing wrong.
    public static func parserSays(_ bytes: some Sequence<UInt8>) -> (said: String, offset: Int?)? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
            return nil
        } catch {
            var said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not valid JSON"
            if said.hasSuffix(".") { said.removeLast() }
            guard let match = said.firstMatch(of: /(.*) around character (\d+)/), let offset = Int(match.2) else { return (said, nil) }
            return (String(match.1), offset)
        }
    }

    /// "line L, column C" (from 1, columns counted in bytes) of the byte at `offset`.
    static func position(_ offset: Int, in bytes: [UInt8]) -> String {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        let column = offset - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}
