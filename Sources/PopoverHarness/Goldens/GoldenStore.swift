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

    /// Writes a golden's PNG bytes if the golden on disk is still the one with SHA-256
    /// `expected` (nil: still none), under the folder's lock; throws `goldenChanged`
    /// otherwise. What a writer that judged or planned against a golden must use.
    public func replace(_ id: String, png: [UInt8], ifStill expected: String?) throws {
        try locked { try replaceHoldingLock(id, png: png, ifStill: expected) }
    }

    /// `replace` for a caller that already holds the lock (a second `flock` in the same
    /// process would wait for itself). `png` nil removes the golden and its facts' row.
    public func replaceHoldingLock(_ id: String, png: [UInt8]?, ifStill expected: String?) throws {
        guard try currentDigest(of: id) == expected else { throw HarnessError.goldenChanged(path(for: id)) }
        if let png { try write(id, png: png) } else { try removeHoldingLock(id) }
    }

    /// Writes a golden's PNG bytes atomically, creating folders as needed.
    public func write(_ id: String, png: [UInt8]) throws(FileError) {
        let target = path(for: id)
        // Before creating anything: creating folders follows links too.
        try refuseLinkedFolders(to: id)
        if let slash = target.lastIndex(of: "/") {
            try FileIO.createDirectories(String(target[..<slash]))
        }
        try refuseLinkedFolders(to: id)
        try FileIO.writeAtomically(png, to: target)
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
    public func removeHoldingLock(_ id: String) throws(HarnessError) {
        do {
            try refuseLinkedFolders(to: id)
        } catch {
            throw .io("\(error)")
        }
        do {
            try FileManager.default.removeItem(atPath: path(for: id))
        } catch {
            throw .io("\(path(for: id)): cannot remove: \((error as NSError).localizedDescription)")
        }
        do {
            try removeFactsHoldingLock(id)
        } catch let error as HarnessError {
            throw error
        } catch {
            throw .io("\(error)")
        }
        var parent = FilePaths.parent(of: path(for: id))
        while parent.count > folder.count, (try? FileManager.default.contentsOfDirectory(atPath: parent))?.isEmpty == true {
            try? FileManager.default.removeItem(atPath: parent)
            parent = FilePaths.parent(of: parent)
        }
    }
}
