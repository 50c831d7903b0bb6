import Foundation
import PopoverFiles

/// `summary.json`: a run's record as a file. It is the system's database: accepting
/// cases, undoing, reviewing, merging shards and sharing cases out by timings all start
/// from it, and the page, JUnit and the job summary are views of it.
///
/// ```json
/// {"format": "popover-goldens run", "version": 3, "exitCode": 1,
///  "counts": {"passed": 2078, "failed": 2, "total": 2080, ...},
///  "started": "2026-11-22T12:00:00Z", "seconds": 2.1, "jobs": 2, "recordMode": "never",
///  "tolerance": "exact", "goldens": "Goldens", "errors": [], "notes": [], "orphans": [],
///  "changes": [{"id": "c1a2b3c4d", "kind": "geometry", "explanation": "…", "cases": […]}],
///  "cases": [{"id": "gik-default/up/popover8-portrait@2x", "status": "failed",
///             "metrics": {...}, "goldenDigest": "…", "cause": {...}, "explanation": "…",
///             "change": "c1a2b3c4d", "images": {"actual": {"path": …, "digest": "…"}, …}, …}]}
/// ```
///
/// Version 2 (before causes and changes) is read too: its failing cases are grouped
/// without causes. A record may come from anywhere (a CI artifact of another branch), so
/// reading checks every ID is one this tool makes and every number is in range before
/// anything uses it.
extension RunRecord {
    public static let format = "popover-goldens run"
    public static let version = 3
    /// Versions this tool reads; older ones are migrated on reading.
    public static let readableVersions = [2, 3]

    /// The file's bytes: sorted keys, indented, one final newline.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Plain values: encoding cannot fail.
        return [UInt8]((try? encoder.encode(Envelope(run: self))) ?? Data()) + [10]
    }

    /// The run a summary.json file holds.
    public static func read(_ file: String) throws(RecordError) -> RunRecord {
        let bytes: [UInt8]
        do { bytes = try FileIO.readBytes(path: file) } catch {
            throw RecordError(file: file, reason: "cannot read: " + (error.code == ENOENT ? "no such file" : error.reason))
        }
        return try decode(bytes, name: file)
    }

    /// Decodes, migrates and checks a record; `name` (usually the path) names it in errors.
    public static func decode(_ bytes: [UInt8], name: String) throws(RecordError) -> RunRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var run: RunRecord
        let version: Int
        do {
            let envelope = try JSONFile.decode(Envelope.self, from: bytes, decoder: decoder)
            (run, version) = (envelope.run, envelope.version)
        } catch let error as RecordError {
            throw RecordError(file: name, reason: error.reason)
        } catch {
            throw RecordError(file: name, reason: "\(error)")
        }
        do {
            try RecordCheck.check(run)
        } catch {
            throw RecordError(file: name, reason: error.reason)
        }
        if version < 3 { run.groupChanges() }
        return run
    }

    /// The run under the document's own header.
    struct Envelope: Codable {
        enum Key: String, CodingKey { case format, version, exitCode, counts }
        var run: RunRecord
        var version = RunRecord.version

        init(run: RunRecord) { self.run = run }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let format = try c.decodeIfPresent(String.self, forKey: .format)
            let version = try c.decodeIfPresent(Int.self, forKey: .version)
            guard format == RunRecord.format, let version, RunRecord.readableVersions.contains(version) else {
                throw RecordError(file: "", reason: "not a popover-goldens run of version \(RunRecord.readableVersions.map(String.init).joined(separator: " or "))"
                    + " (format \(format.map { "'\($0)'" } ?? "missing"), version \(version.map(String.init) ?? "missing"))")
            }
            self.version = version
            run = try RunRecord(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(RunRecord.format, forKey: .format)
            try c.encode(RunRecord.version, forKey: .version)
            try c.encode(run.exitCode, forKey: .exitCode)
            try c.encode(run.counts, forKey: .counts)
            try run.encode(to: encoder)
        }
    }
}

/// A run record that cannot be used; names the file and what is wrong.
public struct RecordError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { file.isEmpty ? reason : "\(file): \(reason)" }
}

/// What reading a record checks before anything uses it: IDs a check makes, each once;
/// every number in a range this tool could have written (a size fits a PNG this tool
/// reads, a count fits its image, a duration is finite and at most a week).
enum RecordCheck {
    struct Problem: Error { let reason: String }

    static let longestSeconds = 7 * 86_400.0
    static let largestSide = 16_384
    static let mostShards = 1_000

    static func check(_ run: RunRecord) throws(RecordError) {
        do {
            try checkRun(run)
        } catch {
            throw RecordError(file: "", reason: error.reason)
        }
    }

    private static func checkRun(_ run: RunRecord) throws(Problem) {
        try seconds(run.seconds, at: "seconds")
        // A merged run's threads are its shards' together.
        try within(run.jobs, 0...RunRecord.mostJobs * mostShards, at: "jobs")
        var seen = Set<String>()
        for (i, result) in run.results.enumerated() {
            let at = "cases[\(i)]"
            guard CaseID.isValid(result.id) else {
                throw Problem(reason: "\(at).id: \(String(reflecting: result.id)) is not a case ID this tool makes "
                    + "(skin/direction/name@Nx: lowercase letters, digits and -+._ only)")
            }
            guard seen.insert(result.id).inserted else { throw Problem(reason: "the case \(result.id) is listed twice") }
            try seconds(result.seconds, at: "\(at).seconds")
            try hex(result.goldenDigest, digits: 64, at: "\(at).goldenDigest")
            try hex(result.drawnDigest, digits: 16, at: "\(at).drawn")
            try hex(result.factsDigest, digits: 64, at: "\(at).factsDigest")
            try hex(result.artifacts.actual?.digest, digits: 64, at: "\(at).images.actual.digest")
            if let accepted = result.accepted {
                // Read back by undo and written again with the report: an acceptance of
                // this case, replacing the golden the run compared against.
                try hex(accepted.goldenDigest, digits: 64, at: "\(at).accepted.goldenDigest")
                // A new case the run recorded had no golden before it: its acceptance replaced none.
                let replaced = accepted.previousGoldenDigest == result.goldenDigest
                    || (result.status == .new && accepted.previousGoldenDigest == nil)
                guard result.status.isAcceptable, replaced,
                      ISO8601DateFormatter().date(from: accepted.at) != nil else {
                    throw Problem(reason: "\(at).accepted is not an acceptance of this \(result.status.rawValue) case (its "
                        + "previous golden must be the one the run compared against, its time ISO 8601)")
                }
            }
            try within(result.width, 0...largestSide, at: "\(at).width")
            try within(result.height, 0...largestSide, at: "\(at).height")
            if let m = result.metrics {
                try within(m.width, 0...largestSide, at: "\(at).metrics.width")
                try within(m.height, 0...largestSide, at: "\(at).metrics.height")
                let pixels = m.width * m.height
                try within(m.differentPixels, 0...pixels, at: "\(at).metrics.differentPixels")
                try within(m.excusedPixels, 0...pixels, at: "\(at).metrics.excusedPixels")
                try within(m.maxChannelDelta, 0...255, at: "\(at).metrics.maxChannelDelta")
                try finite(m.meanAbsoluteError, 0...255, at: "\(at).metrics.meanAbsoluteError")
                if let psnr = m.psnr { try finite(psnr, 0...1_000, at: "\(at).metrics.psnr") }
            }
            try within(result.changedRegions.count, 0...64, at: "\(at).changedRegions.count")
            for (name, region) in [("changedRegion", result.changedRegion)] + result.changedRegions.enumerated().map({ ("changedRegions[\($0)]", Optional($1)) }) {
                guard let r = region else { continue }
                try within(r.x, 0...largestSide, at: "\(at).\(name).x")
                try within(r.y, 0...largestSide, at: "\(at).\(name).y")
                try within(r.width, 1...largestSide, at: "\(at).\(name).width")
                try within(r.height, 1...largestSide, at: "\(at).\(name).height")
                guard r.x + r.width <= max(result.width, 1) || result.width == 0,
                      r.y + r.height <= max(result.height, 1) || result.height == 0 else {
                    throw Problem(reason: "\(at).\(name) lies outside the \(result.width) x \(result.height) image")
                }
            }
            let a = result.artifacts
            for (name, image) in [("expected", a.expected), ("actual", a.actual), ("heatmap", a.heatmap),
                                  ("thumbnail", a.thumbnail), ("triptych", a.triptych)] {
                guard let image else { continue }
                try within(image.width, 0...largestSide, at: "\(at).images.\(name).width")
                try within(image.height, 0...largestSide, at: "\(at).images.\(name).height")
            }
        }
        if let shard = run.shard {
            try within(shard.count, 1...mostShards, at: "shard.count")
            try within(shard.index, 1...shard.count, at: "shard.index")
            var selected = Set<String>()
            for id in shard.selection where !CaseID.isValid(id) || !selected.insert(id).inserted {
                throw Problem(reason: "the shard's case list names \(String(reflecting: id)) twice or is not a case ID "
                    + "this tool makes")
            }
        }
        for (i, change) in run.changes.enumerated() {
            for id in change.cases where !seen.contains(id) {
                throw Problem(reason: "changes[\(i)] names \(String(reflecting: id)), which is not a case of the run")
            }
        }
    }

    private static func within(_ value: Int, _ range: ClosedRange<Int>, at key: String) throws(Problem) {
        guard range.contains(value) else { throw Problem(reason: "\(key): \(value) is outside \(range.lowerBound)...\(range.upperBound)") }
    }

    private static func finite(_ value: Double, _ range: ClosedRange<Double>, at key: String) throws(Problem) {
        guard value.isFinite, range.contains(value) else {
            throw Problem(reason: "\(key): \(value) is outside \(plain(range.lowerBound))...\(plain(range.upperBound))")
        }
    }

    private static func seconds(_ value: Double, at key: String) throws(Problem) {
        try finite(value, 0...longestSeconds, at: key)
    }

    private static func hex(_ value: String?, digits: Int, at key: String) throws(Problem) {
        guard let value else { return }
        guard value.utf8.count == digits, value.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw Problem(reason: "\(key): \(String(reflecting: value)) is not \(digits) lowercase hex digits")
        }
    }

    private static func plain(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : "\(v)" }
}
