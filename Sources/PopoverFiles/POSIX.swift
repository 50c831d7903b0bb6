import Foundation

/// Thin helpers over the POSIX calls FileIO makes, so each step and each errno is ours.
enum POSIX {
    static func error(_ path: String, _ operation: FileError.Operation, _ code: Int32,
                      detail: String? = nil) -> FileError {
        let text = String(cString: strerror(code))  // e.g. "Permission denied"
        return FileError(path: path, operation: operation, code: code,
                         reason: detail.map { "\(text) (\($0))" } ?? text)
    }

    /// Writes every byte, retrying short writes and EINTR; returns 0 or an errno value.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return written < 0 ? errno : EIO
            }
        }
        return 0
    }

    /// What a path is, following symbolic links; nil if it does not exist or cannot be examined.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// fsync that retries EINTR; returns 0 or an errno value.
    static func sync(_ fd: Int32) -> Int32 {
        while fsync(fd) != 0 {
            if errno != EINTR { return errno }
        }
        return 0
    }
}
