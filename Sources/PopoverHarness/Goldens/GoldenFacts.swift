import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverImage
import Synchronization

/// A golden's facts: the geometry it was drawn from, tied to the golden by the SHA-256 of
/// its file, so a pull request's diff shows, in words and numbers, what an image change
/// did. Facts whose golden has changed since are stale and never used. They explain; they
/// never decide a verdict (pixels do).
///
/// The goldens of one folder keep their facts in one table beside them,
/// `<goldens>/<skin>/<direction>/facts.tsv` (`FactsTable`, whose format docs/goldens.md
/// specifies, "The facts tables"): one file per folder rather than one per golden,
/// because each file takes a whole disk block, and GitHub shows a `.tsv` as a table and
/// diffs it by cell.
///
/// A table that cannot be read makes its folder's facts `unreadable`, with an error naming
/// the file, the line and the column; `record` rewrites it. `GoldenFacts` on its own, as
/// JSON, is what `factsDigest` hashes.
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

    /// The facts' own digest: what a run records of the facts it drew a case from, so an
    /// acceptance can tell whether this build still draws the case the same way.
    public var factsDigest: String { Self.digest(facts) }

    public static func digest(_ facts: Facts) -> String {
        SHA256.hex(GoldenFacts(caseID: "", golden: "", facts: facts).encoded())
    }
}

extension GoldenFacts: Encodable {
    enum Key: String, CodingKey { case format, version, caseID = "case", golden, facts }

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
    /// The facts table of the folder holding `id`'s golden.
    public func factsTablePath(for id: String) -> String {
        FilePaths.parent(of: path(for: id)) + "/" + FactsTable.fileName
    }

    /// The row `id` has in its folder's table, whatever golden it is tied to.
    public func recordedFacts(for id: String) -> GoldenFacts? {
        guard case .table(let table, _) = factsTables.entry(factsTablePath(for: id)),
              let row = table.rows[FilePaths.lastComponent(of: id)] else { return nil }
        return GoldenFacts(caseID: id, golden: row.golden, facts: row.facts)
    }

    /// The facts recorded for `id`'s golden whose file has SHA-256 `goldenDigest`: the
    /// facts when they belong to it, and how they stand. The folder's table is read once
    /// for this store (a check asks for every case).
    public func facts(for id: String, goldenDigest: String?) -> (facts: Facts?, standing: FactsStanding) {
        switch factsTables.entry(factsTablePath(for: id)) {
        case .missing: return (nil, .missing)
        case .unreadable: return (nil, .unreadable)
        case .table(let table, _):
            guard let row = table.rows[FilePaths.lastComponent(of: id)] else { return (nil, .missing) }
            guard let goldenDigest, row.golden == goldenDigest else { return (nil, .stale) }
            return (row.facts, .recorded)
        }
    }

    /// Why the table holding `id`'s facts cannot be read, or nil when it can (or is absent).
    public func factsProblem(for id: String) -> String? {
        if case .unreadable(let problem) = factsTables.entry(factsTablePath(for: id)) { return problem }
        return nil
    }

    /// Writes a golden's facts as its row of the folder's table. The caller holds the
    /// goldens folder's lock (`locked`). Returns whether the table was written: rewriting a
    /// row with the same facts touches nothing.
    @discardableResult
    public func writeFactsHoldingLock(_ facts: GoldenFacts) throws -> Bool {
        try updateFactsTableHoldingLock(of: facts.caseID) { table in
            table.rows[FilePaths.lastComponent(of: facts.caseID)] = FactsTable.Row(golden: facts.golden, facts: facts.facts)
        }
    }

    /// Removes `id`'s row from its folder's table, and the table when no row is left. The
    /// caller holds the goldens folder's lock.
    public func removeFactsHoldingLock(_ id: String) throws {
        try updateFactsTableHoldingLock(of: id) { $0.rows[FilePaths.lastComponent(of: id)] = nil }
    }

    /// Applies `change` to the table on disk and writes it atomically, or deletes it when no
    /// row is left, unless that leaves the bytes already there. Returns whether it wrote.
    @discardableResult
    private func updateFactsTableHoldingLock(of id: String, _ change: (inout FactsTable) -> Void) throws -> Bool {
        let changed = try changedFactsTable(of: id, change)
        guard changed.differs else {
            rememberFactsTable(changed)
            return false
        }
        if let bytes = changed.bytes {
            // Before creating anything: creating folders follows links too.
            try refuseLinkedFolders(to: id)
            try FileIO.createDirectories(FilePaths.parent(of: changed.path))
            try FileIO.writeAtomically(bytes, to: changed.path)
        } else {
            try removeFactsTable(changed.path)
        }
        rememberFactsTable(changed)
        return true
    }

    /// A folder's facts table as a change leaves it, not yet written.
    struct ChangedFactsTable {
        let path: String
        let table: FactsTable
        /// The new bytes; nil when no row is left and the file goes.
        let bytes: [UInt8]?
        /// Whether that differs from what is on disk.
        let differs: Bool
    }

    /// Reads the table from disk, not from what this store read before, so rows that
    /// other writers (which also hold the lock) added since are kept, and applies
    /// `change`. A table that cannot be parsed is started afresh: its rows were unusable,
    /// and `record` writes every case's row again.
    func changedFactsTable(of id: String, _ change: (inout FactsTable) -> Void) throws -> ChangedFactsTable {
        let path = factsTablePath(for: id)
        let existing: [UInt8]?
        do {
            existing = try FileIO.readBytes(path: path)
        } catch {
            // Only an absent table is empty: one that cannot be read is not overwritten.
            guard error.code == ENOENT else { throw error }
            existing = nil
        }
        var table = FactsTable()
        if let existing {
            if case .table(let known, let bytes) = factsTables.peek(path), bytes == existing {
                table = known
            } else if let read = try? FactsTable.decode(existing, file: path) {
                table = read
            }
        }
        change(&table)
        let bytes = table.rows.isEmpty ? nil : try table.encoded(file: path)
        return ChangedFactsTable(path: path, table: table, bytes: bytes, differs: bytes != existing)
    }

    /// What this store knows of a table once `changed` is on disk.
    func rememberFactsTable(_ changed: ChangedFactsTable) {
        factsTables.set(changed.bytes.map { .table(changed.table, bytes: $0) } ?? .missing, for: changed.path)
    }

    func removeFactsTable(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw HarnessError.io("\(path): cannot remove: \((error as NSError).localizedDescription)")
        }
    }

    /// Drops from every table the rows whose golden is gone (deleted by hand, not through
    /// the tool, which drops the row with the golden), and a table left with none.
    /// Returns the IDs whose rows went. The caller holds the goldens folder's lock; a
    /// table that cannot be read is left as it is.
    func removeRowsWithoutGoldensHoldingLock() throws -> [String] {
        var tables: [String] = []
        if let walker = FileManager.default.enumerator(atPath: folder) {
            while let relative = walker.nextObject() as? String {
                if FilePaths.lastComponent(of: relative) == FactsTable.fileName { tables.append(relative) }
            }
        }
        var removed: [String] = []
        for relative in tables.sorted() {
            // The run read every table it judged a case of; a row another writer added
            // since has its golden, and removing a row goes by the table on disk.
            guard case .table(let table, _) = factsTables.entry(folder + "/" + relative) else { continue }
            let parent = FilePaths.parent(of: relative)
            for name in table.rows.keys.sorted() {
                let id = parent == "." ? name : parent + "/" + name
                guard !FileManager.default.fileExists(atPath: self.path(for: id)) else { continue }
                try removeFactsHoldingLock(id)
                removed.append(id)
            }
        }
        return removed
    }
}

/// The facts tables a `GoldenStore` has read or written, by path: each parsed once for
/// the store however many cases ask (a check asks for 2080), shared by its threads.
/// Tables are read each under a lock of its own, so the threads of a check read
/// different folders' tables at once and wait only for the one they need.
final class FactsTables: Sendable {
    enum Entry: Sendable {
        /// The table, and the bytes it was read from or written as.
        case table(FactsTable, bytes: [UInt8])
        case missing
        /// Why it cannot be read.
        case unreadable(String)
    }

    /// One table's entry, nil until it is read or set.
    private final class Slot: Sendable {
        let entry = Mutex<Entry?>(nil)
    }

    private let slots = Mutex<[String: Slot]>([:])

    private func slot(_ path: String) -> Slot {
        slots.withLock { slots in
            if let slot = slots[path] { return slot }
            let slot = Slot()
            slots[path] = slot
            return slot
        }
    }

    /// The table at `path`, read now if this store has not read or written it yet (under
    /// its lock, so that threads asking at once parse it once).
    func entry(_ path: String) -> Entry {
        slot(path).entry.withLock { entry in
            if let entry { return entry }
            let read = Self.read(path)
            entry = read
            return read
        }
    }

    /// What is known of `path` without reading it.
    func peek(_ path: String) -> Entry? { slot(path).entry.withLock { $0 } }

    func set(_ entry: Entry, for path: String) { slot(path).entry.withLock { $0 = entry } }

    private static func read(_ path: String) -> Entry {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: path)
        } catch {
            return error.code == ENOENT ? .missing : .unreadable("\(error)")
        }
        do {
            return .table(try FactsTable.decode(bytes, file: path), bytes: bytes)
        } catch {
            return .unreadable("\(error)")
        }
    }
}
