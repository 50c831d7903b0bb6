#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell-like wildcard pattern for case IDs such as `gik-default/up/popover8-portrait@2x`,
/// matched by the C library's `fnmatch(3)`:
///
/// - `*` matches any run of characters, including none and including `/` (no
///   `FNM_PATHNAME`), so `gik-default/*` matches every case of that skin at any depth and
///   `*@2x` every 2x case.
/// - `?` matches exactly one character (also `/`; IDs are ASCII, so a character is a byte).
/// - Every other character matches itself, case-sensitively: `[` and `\` are escaped
///   before `fnmatch` sees them, so there are no character classes and no escapes. A
///   pattern holding NUL, which no ID does, matches nothing.
public struct IDPattern: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String
    /// `pattern` as `fnmatch` reads it; nil for one that can match nothing.
    private let escaped: String?

    public init(_ pattern: String) {
        self.pattern = pattern
        guard !pattern.contains("\0") else {
            escaped = nil
            return
        }
        var escaped = ""
        for character in pattern {
            if character == "[" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        self.escaped = escaped
    }

    /// True when the pattern contains `*` or `?`; otherwise it only matches itself.
    public var hasWildcards: Bool { pattern.contains("*") || pattern.contains("?") }

    /// How many characters the pattern pins down (literals and `?`), a measure of how
    /// specific it is: `gik-default/up/*` (15) is more specific than `gik-default/*` (12).
    public var specificity: Int { pattern.count { $0 != "*" } }

    public var description: String { pattern }

    /// Whether the whole of `text` matches the pattern.
    public func matches(_ text: String) -> Bool {
        guard let escaped else { return false }
        return fnmatch(escaped, text, 0) == 0
    }
}
