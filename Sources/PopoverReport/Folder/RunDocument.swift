import Foundation
import PopoverFiles
import PopoverHarness

/// `summary.json`: a finished run as data, for scripts, dashboards, and this tool itself
/// (accepting cases later, merging shards, re-rendering the page all start from it).
///
/// ```json
/// {"format": "popover-goldens run", "version": 2, "exitCode": 1,
///  "counts": {"passed": 2078, "failed": 2, "total": 2080, ...},
///  "started": "2026-11-22T12:00:00Z", "seconds": 2.1, "jobs": 2, "recordMode": "never",
///  "tolerance": "exact", "goldens": "Goldens", "errors": [], "notes": [], "orphans": [],
///  "cases": [{"id": "gik-default/up/popover8-portrait@2x", "status": "failed",
///             "metrics": {...}, "goldenDigest": "…", "images": {"actual": {"path": …,
///             "digest": "…"}, …}, …}, …]}
/// ```
public enum RunDocument {
    public static let format = "popover-goldens run"
    public static let version = 2

    enum Key: String, CodingKey { case format, version, exitCode, counts }

    /// The document's bytes: sorted keys, indented, one final newline.
    public static func encode(_ run: CheckRun) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Encoding plain values cannot fail.
        return [UInt8]((try? encoder.encode(Envelope(run: run))) ?? Data()) + [10]
    }

    /// Reads a document written by `encode`; `name` (usually the path) names it in errors.
    /// The run a summary.json file holds.
    public static func read(_ file: String) throws(ReportError) -> CheckRun {
        let bytes: [UInt8]
        do { bytes = try FileIO.readBytes(path: file) } catch { throw .unreadableRun(file: file, reason: "cannot read: \(error.reason)") }
        return try decode(bytes, name: file)
    }

    public static func decode(_ bytes: [UInt8], name: String) throws(ReportError) -> CheckRun {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Envelope.self, from: Data(bytes)).run
        } catch ReportError.unreadableRun(_, let reason) {
            throw .unreadableRun(file: name, reason: reason)
        } catch {
            throw .unreadableRun(file: name, reason: Self.describe(error))
        }
    }

    /// The run, under the document's own header.
    struct Envelope: Codable {
        var run: CheckRun

        init(run: CheckRun) { self.run = run }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let format = try c.decodeIfPresent(String.self, forKey: .format)
            let version = try c.decodeIfPresent(Int.self, forKey: .version)
            guard format == RunDocument.format, version == RunDocument.version else {
                throw ReportError.unreadableRun(file: "", reason: "not a popover-goldens run of version \(RunDocument.version)"
                    + " (format \(format.map { "'\($0)'" } ?? "missing"), version \(version.map(String.init) ?? "missing"))")
            }
            run = try CheckRun(from: decoder)
            // A report may come from elsewhere (a CI artifact): its IDs become paths of
            // goldens and of files kept for undo, so each must be a case ID as the
            // catalog makes them (no "..", no leading "/", no NUL), and appear once.
            var seen = Set<String>()
            for result in run.results {
                guard GoldenCase.isSafeID(result.id) else {
                    throw ReportError.unreadableRun(file: "", reason: "the case ID \(String(reflecting: result.id)) is not one "
                        + "this tool makes (lowercase letters, digits and -+._@/ only, no '..', no leading '/')")
                }
                guard seen.insert(result.id).inserted else {
                    throw ReportError.unreadableRun(file: "", reason: "the case \(result.id) is listed twice")
                }
            }
            if let selection = run.shard?.selection {
                var selected = Set<String>()
                for id in selection where !GoldenCase.isSafeID(id) || !selected.insert(id).inserted {
                    throw ReportError.unreadableRun(file: "", reason: "the shard's case list names \(String(reflecting: id)) "
                        + "twice or is not a case ID this tool makes")
                }
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(RunDocument.format, forKey: .format)
            try c.encode(RunDocument.version, forKey: .version)
            try c.encode(run.exitCode, forKey: .exitCode)
            try c.encode(run.counts, forKey: .counts)
            try run.encode(to: encoder)
        }
    }

    /// A decoding error in a sentence that names the key at fault.
    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at " + keys.joined(separator: ".")
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
        case DecodingError.typeMismatch(_, let context): return "wrong type\(path(context)): \(context.debugDescription)"
        case DecodingError.valueNotFound(_, let context): return "missing value\(path(context))"
        case DecodingError.dataCorrupted(let context):
            if let inner = context.underlyingError as? ReportError { return inner.reason }
            return "not valid JSON\(path(context)): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
