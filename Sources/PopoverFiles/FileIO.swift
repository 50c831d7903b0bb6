import Foundation

/// Reading and writing whole files with POSIX calls, so that every step (and its errno)
/// is under our control: golden files must never be seen half-written.
public enum FileIO {
    /// The whole content of the regular file at `path`.
    public static func readBytes(path: String) throws(FileError) -> [UInt8] {
        // O_NONBLOCK so that a FIFO at `path` cannot hang open(); it is refused just below,
        // and regular files ignore the flag.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            // A socket cannot be opened at all: say what it is, not "No such device or address".
            if code == ENXIO, POSIX.fileType(path) == S_IFSOCK { throw notRegular(path, "a socket") }
            throw POSIX.error(path, .read, code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIX.error(path, .read, errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw POSIX.error(path, .read, EISDIR)
        case S_IFIFO: throw notRegular(path, "a FIFO (named pipe)")
        case S_IFCHR: throw notRegular(path, "a character device")
        default: throw notRegular(path, "a block device")
        }
        // Read to the end, not to st_size: /proc files say 0, and a file may have grown
        // since fstat (atomic writers replace files rather than growing them). The chunk is
        // left uninitialised: every golden of a check is read here.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        let code: Int32 = withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 1) { chunk in
            while true {
                let count = read(fd, chunk.baseAddress, chunk.count)
                if count > 0 { bytes += chunk[..<count] } else if count == 0 { return 0 } else if errno != EINTR { return errno }
            }
        }
        guard code == 0 else { throw POSIX.error(path, .read, code) }
        return bytes
    }

    private static func notRegular(_ path: String, _ kind: String) -> FileError {
        FileError(path: path, operation: .read, code: 0, reason: "is \(kind), not a regular file")
    }

    /// Replaces the file at `path` with `bytes` so that a reader, or a crash or SIGKILL at
    /// any moment, sees either the complete old file or the complete new one:
    /// the bytes go to a temporary file beside the target (".<name>.tmp-<pid>-<random>"),
    /// which is fsynced and then renamed over the target; the directory is fsynced so the
    /// rename itself survives a power loss. The temporary is removed on any failure.
    ///
    /// The new file gets mode 0666 minus the umask. The directory must exist (see
    /// `createDirectories`).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
        let temporary = try writeTemporary(bytes, beside: path)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw POSIX.error(path, .write, code)
        }
        try syncDirectory(FilePaths.parent(of: path), for: path)
    }

    /// The first half of `writeAtomically`, for a writer that replaces several files
    /// together: `bytes` in a new temporary file beside `path`, synced, and its path. The
    /// caller renames it over `path` or removes it. Errors are said of `path`; on one,
    /// the temporary is gone.
    public static func writeTemporary(_ bytes: [UInt8], beside path: String) throws(FileError) -> String {
        let temporary = try temporaryPath(beside: path)
        try create(temporary, with: bytes, sync: true, errorsOf: path)
        return temporary
    }

    /// Writes `bytes` to a new file `file`, failing if it exists, and fsyncs it if `sync`;
    /// on a failure the file is removed and the error said of `path`.
    static func create(_ file: String, with bytes: [UInt8], sync: Bool, errorsOf path: String) throws(FileError) {
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw POSIX.error(path, .write, errno) }
        var code = bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) }
        if code == 0 && sync { code = POSIX.sync(fd) }
        // close can report a deferred write error (e.g. on NFS); it counts too.
        if close(fd) != 0 && code == 0 { code = errno }
        guard code == 0 else {
            unlink(file)
            throw POSIX.error(path, .write, code)
        }
    }

    /// Creates the directory at `path` and any missing parents (like `mkdir -p`).
    /// Existing directories are fine; an existing non-directory anywhere on the way is not.
    public static func createDirectories(_ path: String) throws(FileError) {
        guard !path.isEmpty else {
            throw FileError(path: path, operation: .createDirectory, code: ENOENT, reason: "empty path")
        }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
            prefix += component
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            if code == EEXIST {
                if POSIX.fileType(prefix) == S_IFDIR { continue }
                throw FileError(path: path, operation: .createDirectory, code: ENOTDIR,
                                reason: "\(prefix) exists and is not a directory")
            }
            throw POSIX.error(path, .createDirectory, code, detail: prefix == path ? nil : "creating \(prefix)")
        }
    }

    // MARK: Helpers

    /// A name beside `path` no other writer uses: hidden, with our pid and 64 random bits.
    /// Long names are shortened so the temporary stays within NAME_MAX (255 bytes).
    public static func temporaryPath(beside path: String) throws(FileError) -> String {
        let directory = FilePaths.parent(of: path), name = FilePaths.lastComponent(of: path)
        guard !path.hasSuffix("/"), name != ".", name != ".." else {
            throw FileError(path: path, operation: .write, code: EISDIR, reason: "the path names a directory, not a file")
        }
        let stem = name.utf8.count > 180 ? String(decoding: name.utf8.prefix(180), as: UTF8.self) : name
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        let separator = directory.hasSuffix("/") ? "" : "/"
        return "\(directory)\(separator).\(stem).tmp-\(getpid())-\(random)"
    }

    /// Makes renames in `directory` durable; an error is said of `path`, the file renamed.
    /// Some file systems cannot fsync a directory (EINVAL); that is not a failure of the
    /// write, which has already happened.
    public static func syncDirectory(_ directory: String, for path: String) throws(FileError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let code = POSIX.sync(fd)
        if code != 0 && code != EINVAL && code != ENOTSUP {
            throw POSIX.error(path, .write, code, detail: "the file was replaced, but syncing \(directory) failed")
        }
    }
}
