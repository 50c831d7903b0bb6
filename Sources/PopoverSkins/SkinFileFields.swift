import Foundation
import PopoverFiles
import PopoverRaster

/// A problem in a skin's or artwork's file, naming the file and the field
/// (`Skins/brand/skin.json: images.colours.border: "#12" is not a colour ...`).
public struct SkinFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// The field as a dotted path; empty for the file as a whole.
    public let field: String
    public let message: String

    public var description: String { field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)" }
}

/// One JSON object of a file, read field by field so that every problem names its field,
/// and so that a key the reader does not know is an error (a misspelt option must not be
/// silently ignored).
struct FileObject {
    let file: String
    let path: String
    let values: [String: Any]

    /// The top-level object of the file at `file`, read as a regular file, or a problem
    /// naming the file.
    static func read(_ file: String) throws(SkinFileProblem) -> FileObject {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: file)
        } catch {
            throw SkinFileProblem(file: file, field: "", message: "cannot read: \(error.reason)")
        }
        return try parse(bytes, file: file)
    }

    /// The top-level object of `bytes`, or a problem naming the file.
    static func parse(_ bytes: [UInt8], file: String) throws(SkinFileProblem) -> FileObject {
        let root: Any
        do {
            root = try JSONFile.object(from: bytes)
        } catch {
            throw SkinFileProblem(file: file, field: "", message: error.reason)
        }
        guard let object = root as? [String: Any] else {
            throw SkinFileProblem(file: file, field: "", message: "must hold a JSON object")
        }
        return FileObject(file: file, path: "", values: object)
    }

    func problem(_ key: String, _ message: String) -> SkinFileProblem {
        SkinFileProblem(file: file, field: field(key), message: message)
    }

    func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Throws for the first key (in sorted order) not among `known`.
    func allowOnly(_ known: [String]) throws(SkinFileProblem) {
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem(unknown, "unknown key (known keys: \(known.joined(separator: ", ")))")
        }
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func object(_ key: String) throws(SkinFileProblem) -> FileObject? {
        guard let value = values[key] else { return nil }
        guard let object = value as? [String: Any] else { throw problem(key, "must be a JSON object") }
        return FileObject(file: file, path: field(key), values: object)
    }

    func string(_ key: String) throws(SkinFileProblem) -> String? {
        guard let value = values[key] else { return nil }
        guard let text = value as? String else { throw problem(key, "must be a string") }
        return text
    }

    func bool(_ key: String) throws(SkinFileProblem) -> Bool? {
        guard let value = values[key] else { return nil }
        guard Self.isBoolean(value), let number = value as? NSNumber else { throw problem(key, "must be true or false") }
        return number.boolValue
    }

    /// A finite number that is not negative.
    func number(_ key: String) throws(SkinFileProblem) -> Double? {
        guard let value = values[key] else { return nil }
        guard !Self.isBoolean(value), let number = value as? NSNumber,
              number.doubleValue.isFinite, number.doubleValue >= 0 else {
            throw problem(key, "must be a number, 0 or more")
        }
        return number.doubleValue
    }

    /// A colour: "#rrggbb", "#rrggbbaa", or [r, g, b] / [r, g, b, a] with each from 0 to 1
    /// (numbers keep colours that are not whole 8-bit steps exact).
    func colour(_ key: String) throws(SkinFileProblem) -> Color? {
        guard let value = values[key] else { return nil }
        let wrong = problem(key, "\(Self.show(value)) is not a colour (write \"#rrggbb\", \"#rrggbbaa\", or [r, g, b] "
            + "or [r, g, b, a] with each from 0 to 1)")
        if let text = value as? String {
            guard text.hasPrefix("#"), let colour = Color(hex: text) else { throw wrong }
            return colour
        }
        guard let list = value as? [Any], list.count == 3 || list.count == 4 else { throw wrong }
        var parts: [Double] = []
        for item in list {
            guard !Self.isBoolean(item), let number = item as? NSNumber, (0...1).contains(number.doubleValue) else {
                throw wrong
            }
            parts.append(number.doubleValue)
        }
        return Color(red: parts[0], green: parts[1], blue: parts[2], alpha: parts.count == 4 ? parts[3] : 1)
    }

    /// JSONSerialization gives NSNumber for both true/false and numbers; a boolean is the
    /// one whose type code is "c".
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func show(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(value)"
    }
}
