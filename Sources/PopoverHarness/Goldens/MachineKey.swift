import Foundation
import PopoverFiles
import PopoverImage

/// This machine's secret: 32 random bytes in a file of their own in the cache folder
/// (`popover-goldens.key`), readable by its owner only. It seals what must not be taken
/// from a file alone: every acceptance a review records carries an HMAC-SHA256 under it,
/// so an undo acts only on acceptances this tool recorded here (a report's summary.json
/// may come from anywhere).
///
/// The key is used only if it is a regular file (not a link), owned by this user, not
/// readable or writable by group or others, and exactly 32 bytes: a key someone else
/// could read or have written vouches for nothing.
public struct MachineKey: Equatable, Sendable {
    public static let fileName = "popover-goldens.key"
    static let size = 32

    let bytes: [UInt8]

    public enum Found {
        case key(MachineKey)
        /// There is a key, but it cannot be trusted; the reason names the file.
        case untrusted(String)
        /// No key could be read or made (the folder cannot be made, say).
        case unavailable(String)
    }

    /// The key in `folder`, made (with the folder) if there is none yet. Making it is
    /// atomic: it is written under a temporary name and linked into place, so runs that
    /// start together all end up with the one key that was linked first.
    public static func readOrMake(in folder: String) -> Found {
        let path = folder + "/" + fileName
        if let found = read(path) { return found }
        do {
            try FileIO.createDirectories(folder)
        } catch {
            return .unavailable("cannot keep the golden digest cache: \(error)")
        }
        var random = SystemRandomNumberGenerator()
        let fresh = (0..<size).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        let temporary = folder + "/.\(fileName).\(getpid()).\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .unavailable("\(temporary): cannot create: \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        // The umask may only take bits away; fchmod makes the mode exactly owner-only.
        let written = fchmod(fd, 0o600) == 0 && fresh.withUnsafeBytes { write(fd, $0.baseAddress, size) } == size
            && fsync(fd) == 0
        close(fd)
        guard written else { return .unavailable("\(temporary): cannot write the cache's key") }
        if link(temporary, path) != 0 && errno != EEXIST {
            return .unavailable("\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        return read(path) ?? .unavailable("\(path): vanished as it was made")
    }

    /// The key at `path`, or nil if there is no file there.
    static func read(_ path: String) -> Found? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: return .untrusted("\(path) is a symbolic link, not the cache's own key")
            default: return .unavailable("\(path): cannot read: \(String(cString: strerror(errno)))")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unavailable("\(path): cannot examine: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { return .untrusted("\(path) is not a regular file") }
        guard info.st_uid == getuid() else {
            return .untrusted("\(path) belongs to user \(info.st_uid), not to this user (\(getuid()))")
        }
        guard info.st_mode & 0o077 == 0 else {
            return .untrusted("\(path) can be read or written by others (mode \(String(info.st_mode & 0o777, radix: 8))); it must be 600")
        }
        guard info.st_size == size else { return .untrusted("\(path) holds \(info.st_size) bytes, not a \(size)-byte key") }
        var bytes = [UInt8](repeating: 0, count: size)
        let count = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, size) }
        guard count == size else { return .unavailable("\(path): cannot read its \(size) bytes") }
        return .key(MachineKey(bytes: bytes))
    }

    /// The seal of `content`: HMAC-SHA256 under this key.
    public func seal(_ content: [UInt8]) -> [UInt8] { HMACSHA256.code(content, key: bytes) }
}
