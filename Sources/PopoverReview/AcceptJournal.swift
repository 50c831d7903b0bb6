import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverReport

/// What an accept or undo is about to do to the goldens, written (with the report's
/// files staged) before the first golden is replaced, and removed once the report records
/// it. A review killed in between leaves it behind; the next review operation on the
/// report reads it and brings the record into line with the goldens on disk: each case
/// whose golden is the acceptance's is marked accepted, each whose golden is the one the
/// acceptance replaced is not. So a killed accept is finished, a killed undo completed,
/// and either can then be undone or redone as usual.
struct AcceptJournal: Codable, Equatable {
    static let file = "accepted/journal.json"
    static let format = "popover-goldens review journal"
    static let version = 1

    struct Entry: Codable, Equatable {
        var id: String
        var acceptance: Acceptance
    }

    var format = Self.format
    var version = Self.version
    var entries: [Entry]

    init(entries: [Entry]) { self.entries = entries }

    func write(in report: ReportFolder) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes = Array((try? encoder.encode(self)) ?? Data())
        try FileIO.createDirectories(report.path + "/accepted")
        try FileIO.writeAtomically(bytes, to: report.path + "/" + Self.file)
    }

    /// The journal a review left in `report`, nil when there is none; an unreadable one
    /// is an error naming it, since what it would say cannot be known.
    static func read(in report: ReportFolder) throws(ReviewError) -> AcceptJournal? {
        let path = report.path + "/" + file
        let bytes: [UInt8]
        do { bytes = try FileIO.readBytes(path: path) } catch {
            if error.code == ENOENT { return nil }
            throw .report(.io("\(path): cannot read the review journal: \(error.reason)"))
        }
        guard let journal = try? JSONDecoder().decode(AcceptJournal.self, from: Data(bytes)),
              journal.format == format, journal.version == version else {
            throw .report(.io("\(path): not a review journal this tool writes; look at it, then remove it"))
        }
        return journal
    }

    /// Brings `run`'s record into line with the goldens on disk for each case journaled:
    /// accepted when the golden is the acceptance's, not accepted when it is the one the
    /// acceptance replaced (a golden that is neither is left alone). Returns the cases it
    /// settled.
    func settle(_ run: inout RunRecord, store: GoldenStore) -> [String] {
        let indexByID = Dictionary(run.results.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var settled: [String] = []
        for entry in entries {
            guard let index = indexByID[entry.id] else { continue }
            let onDisk: String?
            switch store.read(entry.id) {
            case .found(let bytes): onDisk = SHA256.hex(bytes)
            case .missing: onDisk = nil
            case .unreadable: continue
            }
            switch onDisk {
            case entry.acceptance.goldenDigest: run.results[index].accepted = entry.acceptance
            case entry.acceptance.previousGoldenDigest: run.results[index].accepted = nil
            default: continue
            }
            settled.append(entry.id)
        }
        return settled
    }

    static func remove(in report: ReportFolder) {
        unlink(report.path + "/" + file)
    }
}
