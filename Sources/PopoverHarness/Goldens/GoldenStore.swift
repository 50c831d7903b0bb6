import Foundation
import PopoverFiles
import PopoverImage

/// The goldens folder: one PNG per case at `<folder>/<case ID>.png`, a facts table
/// (`facts.tsv`, see `GoldenFacts`) in each folder of goldens, and an optional
/// `tolerances.json`. Nothing else: in particular no digests a check would have to trust
/// (see `GoldenDigestCache` for what it trusts instead).
public struct GoldenStore: Sendable {
    public let folder: String
    /// The facts tables this store has read or written.
    let factsTables = FactsTables()

    public init(folder: String) {
        self.folder = folder
    }

    public static let toleranceFile = "tolerances.json"

    public func path(for id: String) -> String { folder + "/" + id + ".png" }

    /// What is at a golden's path.
    public enum Lookup {
        case found([UInt8])
        case missing
        case unreadable(FileError)
    }

    public func read(_ id: String) -> Lookup {
        do {
            return .found(try FileIO.readBytes(path: path(for: id)))
        } catch {
            return error.code == ENOENT ? .missing : .unreadable(error)
        }
    }

    /// The SHA-256 of `id`'s golden file as it is on disk now; nil when there is none.
    /// What a writer holding the lock compares with the golden it judged.
    public func currentDigest(of id: String) throws(FileError) -> String? {
        switch read(id) {
        case .found(let bytes): return SHA256.hex(bytes)
        case .missing: return nil
        case .unreadable(let error): throw error
        }
    }

    /// Runs `body` holding the folder's writer lock: record, accept and undo, in this
    /// process or another, take turns replacing goldens, so none can replace a golden
    /// between another's look and its write.
    public func locked<T>(_ body: () throws -> T) throws -> T {
        try FileIO.createDirectories(folder)
        let lock = try FileLock.acquire(folder: folder)
        defer { lock.release() }
        return try body()
    }

    /// Replaces `id`'s golden and its row of the folder's facts table as one unit, if the
    /// golden on disk is still the one with SHA-256 `expected` (nil: still none;
    /// `HarnessError.goldenChanged` otherwise, so concurrent writers never lose each
    /// other's work). `png` nil removes the golden; `row` nil removes its row. The caller
    /// holds the folder's lock (`locked`).
    ///
    /// Everything that takes space is written first, to hidden temporary files beside the
    /// two, synced: a full disk stops the write there, with nothing replaced. Then two
    /// renames, which take none: the golden, then the table; should the table's fail, the
    /// old golden (kept meanwhile by a hard link) goes back. So a failure leaves the old
    /// pair. A kill between the renames leaves the new golden beside a row tied to the old
    /// one: stale, never taken as the new golden's, and rewritten by the next `record` or
    /// accept of the case.
    public func replaceHoldingLock(_ id: String, png: [UInt8]?, row: FactsTable.Row?, ifStill expected: String?) throws {
        let target = path(for: id)
        guard try currentDigest(of: id) == expected else { throw HarnessError.goldenChanged(target) }
        // Before creating anything: creating folders follows links too.
        try refuseLinkedFolders(to: id)
        if png != nil { try FileIO.createDirectories(FilePaths.parent(of: target)) }
        try refuseLinkedFolders(to: id)
        let name = FilePaths.lastComponent(of: id)
        let table = try changedFactsTable(of: id) { $0.rows[name] = row }
        var temporaries: [String] = []
        defer { for temporary in temporaries { unlink(temporary) } }
        func staged(_ bytes: [UInt8], beside path: String) throws -> String {
            let temporary = try FileIO.writeTemporary(bytes, beside: path)
            temporaries.append(temporary)
            return temporary
        }
        let newGolden = try png.map { try staged($0, beside: target) }
        let newTable = try table.differs ? table.bytes.map { try staged($0, beside: table.path) } : nil
        let oldGolden = try FileIO.temporaryPath(beside: target)
        temporaries.append(oldGolden)
        if expected != nil && link(target, oldGolden) != 0 {
            throw HarnessError.io("\(target): cannot keep the old golden while replacing it: \(String(cString: strerror(errno)))")
        }
        if let newGolden {
            try FileIO.move(newGolden, to: target)
        } else if expected != nil && unlink(target) != 0 {
            throw HarnessError.io("\(target): cannot remove: \(String(cString: strerror(errno)))")
        }
        CrashPoint.reach("goldens.golden-replaced")
        do {
            if let newTable {
                try FileIO.move(newTable, to: table.path)
            } else if table.differs {
                try removeFactsTable(table.path)
            }
        } catch {
            if expected != nil { try? FileIO.move(oldGolden, to: target) } else { unlink(target) }
            throw error
        }
        rememberFactsTable(table)
        // The renames have happened: a folder that cannot be synced changes nothing now.
        try? FileIO.syncDirectory(FilePaths.parent(of: target), for: target)
        if png == nil {
            // The kept old golden goes first: the folder may then be empty.
            unlink(oldGolden)
            removeEmptyFolders(above: target)
        }
    }

    /// Goldens are written only into real folders below this one: a folder of the
    /// goldens that is a symbolic link (which a branch can commit) would send writes
    /// wherever it points.
    func refuseLinkedFolders(to id: String) throws(FileError) {
        if let linked = FilePaths.linkedFolder(under: folder, along: id + ".png") {
            throw FileError(path: path(for: id), operation: .write, code: 0,
                            reason: "\(linked) is a symbolic link; goldens are written only into real folders")
        }
    }

    /// Checks the folder exists and can be listed.
    public func checkReadable() throws(HarnessError) {
        var info = stat()
        guard stat(folder, &info) == 0 else {
            let code = errno
            // Only a path that is simply absent is "missing" (recording may create it); a
            // path through a regular file ("file.txt/Goldens") or a refused search is not.
            if code == ENOENT { throw .goldensFolderMissing(folder) }
            let reason = String(cString: strerror(code))
            throw .goldensFolderUnreadable(folder, reason: code == ENOTDIR ? "\(reason): a part of the path is a file" : reason)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .goldensFolderUnreadable(folder, reason: "not a folder") }
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .goldensFolderUnreadable(folder, reason: (error as NSError).localizedFailureReason
                                           ?? (error as NSError).localizedDescription)
        }
    }

    /// Every golden ID present: PNG files below the folder, paths without ".png".
    public func allIDs() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var ids: [String] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".png") else { continue }
            ids.append(String(relative.dropLast(4)))
        }
        return ids.sorted()
    }

    /// Removes a golden, its facts' row (and the table, when that was the last row), and
    /// any folders they leave empty. The caller holds the folder's lock (`locked`).
    public func removeHoldingLock(_ id: String) throws {
        try replaceHoldingLock(id, png: nil, row: nil, ifStill: try currentDigest(of: id))
    }

    private func removeEmptyFolders(above file: String) {
        var parent = FilePaths.parent(of: file)
        while parent.count > folder.count, (try? FileManager.default.contentsOfDirectory(atPath: parent))?.isEmpty == true {
            try? FileManager.default.removeItem(atPath: parent)
            parent = FilePaths.parent(of: parent)
        }
    }
}
