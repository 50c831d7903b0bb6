import Foundation

/// An exclusive advisory lock (`flock`) on a lock file or a folder, held until
/// `release()`: how the writers of one report folder, one goldens folder or one digest
/// cache take turns. The lock is on the inode, so writers reaching it through different
/// paths (a symbolic link) still exclude each other. A lock file is created if missing
/// and never removed (removing it would let a late writer lock a fresh inode); a folder
/// is locked as it is, which needs no file in it and works on a read-only mount.
public struct FileLock: Sendable {
    private let fd: Int32

    /// Waits for the lock on the file `path`, made if missing; EINTR is retried.
    public static func acquire(_ path: String) throws(FileError) -> FileLock {
        try lock(path, open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644))
    }

    /// Waits for the lock on the folder `path` itself.
    public static func acquire(folder path: String) throws(FileError) -> FileLock {
        try lock(path, open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    }

    private static func lock(_ path: String, _ fd: Int32) throws(FileError) -> FileLock {
        guard fd >= 0 else { throw POSIX.error(path, .lock, errno) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw POSIX.error(path, .lock, code)
            }
        }
        return FileLock(fd: fd)
    }

    public func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
