import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverImage

/// A golden's facts: the geometry it was drawn from, kept beside it as
/// `<goldens>/<case ID>.facts.json` so a pull request's diff shows, in words and numbers,
/// what an image change did (one small file per golden, so two branches that change
/// different cases never touch the same file).
///
/// ```json
/// {"case": "gik-default/up/popover8-portrait@2x", "format": "popover-goldens facts",
///  "golden": "<SHA-256 of the golden's file>", "version": 1,
///  "facts": {"apex": {"x": 120.5, ...}, "image": "up", "stages": [...], ...}}
/// ```
///
/// The facts are tied to their golden by its SHA-256: facts whose golden has changed
/// since are stale and never used. They explain; they never decide a verdict (pixels do).
public struct GoldenFacts: Sendable, Hashable {
    public static let format = "popover-goldens facts"
    public static let version = 1

    public var caseID: String
    /// The SHA-256 of the golden file these facts drew.
    public var golden: String
    public var facts: Facts

    public init(caseID: String, golden: String, facts: Facts) {
        self.caseID = caseID
        self.golden = golden
        self.facts = facts
    }

    /// The file's bytes: sorted keys, indented, one final newline; the same facts always
    /// give the same bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Plain values: encoding cannot fail.
        return [UInt8]((try? encoder.encode(self)) ?? Data()) + [10]
    }

    public static func decode(_ bytes: [UInt8], name: String) throws(HarnessError) -> GoldenFacts {
        do {
            let facts = try JSONDecoder().decode(GoldenFacts.self, from: Data(bytes))
            return facts
        } catch let error as HarnessError {
            throw error
        } catch {
            throw .io("\(name): not a facts file of version \(version) (\(describeDecoding(error)))")
        }
    }

    /// The facts' own digest: what a run records of the facts it drew a case from, so an
    /// acceptance can tell whether this build still draws the case the same way.
    public var factsDigest: String { Self.digest(facts) }

    public static func digest(_ facts: Facts) -> String {
        SHA256.hex(GoldenFacts(caseID: "", golden: "", facts: facts).encoded())
    }
}

extension GoldenFacts: Codable {
    enum Key: String, CodingKey { case format, version, caseID = "case", golden, facts }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let format = try c.decode(String.self, forKey: .format), version = try c.decode(Int.self, forKey: .version)
        guard format == Self.format, version == Self.version else {
            throw HarnessError.io("format '\(format)' version \(version), not '\(Self.format)' version \(Self.version)")
        }
        self.init(caseID: try c.decode(String.self, forKey: .caseID), golden: try c.decode(String.self, forKey: .golden),
                  facts: try c.decode(Facts.self, forKey: .facts))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(Self.format, forKey: .format)
        try c.encode(Self.version, forKey: .version)
        try c.encode(caseID, forKey: .caseID)
        try c.encode(golden, forKey: .golden)
        try c.encode(facts, forKey: .facts)
    }
}

/// How a golden's recorded facts stand against the golden on disk.
public enum FactsStanding: String, Sendable, Hashable, Codable {
    /// Recorded for exactly this golden.
    case recorded
    /// None recorded (a golden recorded before facts existed, or no golden at all).
    case missing
    /// Recorded for another golden: the golden changed since.
    case stale
    /// The facts file cannot be read or is not a facts file.
    case unreadable
}

extension GoldenStore {
    public static let factsSuffix = ".facts.json"

    public func factsPath(for id: String) -> String { folder + "/" + id + Self.factsSuffix }

    /// The facts recorded for `id`'s golden whose file has SHA-256 `goldenDigest`: the
    /// facts when they belong to it, and how they stand.
    public func facts(for id: String, goldenDigest: String?) -> (facts: Facts?, standing: FactsStanding) {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: factsPath(for: id))
        } catch {
            return (nil, error.code == ENOENT ? .missing : .unreadable)
        }
        guard let recorded = try? GoldenFacts.decode(bytes, name: factsPath(for: id)), recorded.caseID == id else {
            return (nil, .unreadable)
        }
        guard let goldenDigest, recorded.golden == goldenDigest else { return (nil, .stale) }
        return (recorded.facts, .recorded)
    }

    /// How `id`'s recorded facts stand against the golden with SHA-256 `goldenDigest`,
    /// reading only the file's header (what a passing case needs, for 2000 of them a run).
    public func factsStanding(for id: String, goldenDigest: String?) -> FactsStanding {
        struct Header: Decodable {
            var format: String
            var version: Int
            var `case`: String
            var golden: String
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: factsPath(for: id))
        } catch {
            return error.code == ENOENT ? .missing : .unreadable
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(bytes)), header.format == GoldenFacts.format,
              header.version == GoldenFacts.version, header.case == id else { return .unreadable }
        return header.golden == goldenDigest ? .recorded : .stale
    }

    /// Writes a golden's facts atomically, unless the file already holds these very bytes
    /// (a re-record that changes nothing touches nothing). Returns whether it wrote.
    @discardableResult
    public func writeFacts(_ facts: GoldenFacts) throws(FileError) -> Bool {
        let bytes = facts.encoded()
        let path = factsPath(for: facts.caseID)
        if let existing = try? FileIO.readBytes(path: path), existing == bytes { return false }
        try refuseLinkedFolders(to: facts.caseID)
        try FileIO.createDirectories(FilePaths.parent(of: path))
        try FileIO.writeAtomically(bytes, to: path)
        return true
    }
}

/// A decoding error in a sentence naming the key at fault.
func describeDecoding(_ error: any Error) -> String {
    func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return keys.isEmpty ? "" : " at " + keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
    case DecodingError.typeMismatch(_, let context): return "wrong type\(path(context)): \(context.debugDescription)"
    case DecodingError.valueNotFound(_, let context): return "missing value\(path(context))"
    case DecodingError.dataCorrupted(let context):
        if let inner = context.underlyingError as? HarnessError { return "\(inner)" }
        return "not valid JSON\(path(context)): \(context.debugDescription)"
    default: return "\(error)"
    }
}
