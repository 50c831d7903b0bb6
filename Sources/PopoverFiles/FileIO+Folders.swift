import Foundation

/// Files written into a private folder that is published whole, and the publishing.
extension FileIO {
    /// Writes `bytes` to a new file at `path` (failing if it exists), without syncing:
    /// for files in a folder nobody sees until `exchange` publishes it, after one
    /// `syncFileSystem` for them all.
    public static func writeNew(_ bytes: [UInt8], to path: String) throws(FileError) {
        try create(path, with: bytes, sync: false, errorsOf: path)
    }

    /// Makes everything written to the file system holding `path` durable (Linux's
    /// `syncfs`; elsewhere `sync`).
    public static func syncFileSystem(containing path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        if fd >= 0, let syncfs = Native.syncfs {
            _ = syncfs(fd)
        } else {
            sync()
        }
    }

    /// Swaps two existing paths in one step (Linux's `renameat2` with
    /// `RENAME_EXCHANGE`): a reader sees either the old or the new one at each path,
    /// never neither. Returns false when the file system or system cannot (the caller
    /// then falls back to two renames); throws on any other failure.
    public static func exchange(_ a: String, _ b: String) throws(FileError) -> Bool {
        guard let renameat2 = Native.renameat2 else { return false }
        let renameExchange: UInt32 = 2
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0 { return true }
        let code = errno
        if code == EINVAL || code == ENOSYS || code == ENOTSUP { return false }
        throw POSIX.error(b, .write, code, detail: "exchanging it with \(a)")
    }

    /// Renames `from` to `to`, replacing an empty folder or a file at `to`.
    public static func move(_ from: String, to: String) throws(FileError) {
        guard rename(from, to) == 0 else { throw POSIX.error(to, .write, errno, detail: "renaming \(from)") }
    }
}

/// System calls the C library has but Swift's module for it does not export (they
/// need `_GNU_SOURCE`), looked up once at run time.
private enum Native {
    typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    typealias Syncfs = @convention(c) (Int32) -> Int32

    static let renameat2: Renameat2? = symbol("renameat2")
    static let syncfs: Syncfs? = symbol("syncfs")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let pointer = dlsym(handle, name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }
}
