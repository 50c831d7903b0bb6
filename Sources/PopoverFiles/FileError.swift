/// A file operation that failed, with the path and the OS's reason, e.g.
/// "Goldens/a/b.png: cannot write: Permission denied".
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Operation: String, Sendable {
        case read, write, lock, createDirectory = "create directory"
    }

    /// The path the caller asked about.
    public let path: String
    public let operation: Operation
    /// The errno value, or 0 when the refusal is ours (e.g. "not a regular file").
    public let code: Int32
    /// The OS's text for `code` (strerror), possibly with detail appended.
    public let reason: String

    public init(path: String, operation: Operation, code: Int32, reason: String) {
        self.path = path
        self.operation = operation
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(path): cannot \(operation.rawValue): \(reason)" }
}
