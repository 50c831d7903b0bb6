/// A shell-like wildcard pattern for case IDs such as `gik-default/up/popover8-portrait@2x`.
///
/// - `*` matches any run of characters, including none and including `/`, so
///   `gik-default/*` matches every case of that skin at any depth and `*@2x` every
///   2x case.
/// - `?` matches exactly one character (also `/`).
/// - Every other character matches itself, case-sensitively. There are no character
///   classes and no escapes.
///
/// Matching is linear in practice (greedy with backtracking to the last `*`).
public struct IDPattern: Sendable, Hashable, CustomStringConvertible {
    enum Token: Hashable {
        case literal(Character)
        case anyOne
        case anyRun
    }

    public let pattern: String
    let tokens: [Token]

    public init(_ pattern: String) {
        self.pattern = pattern
        var tokens: [Token] = []
        for character in pattern {
            switch character {
            case "*":
                // Consecutive stars mean the same as one.
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            case "?":
                tokens.append(.anyOne)
            default:
                tokens.append(.literal(character))
            }
        }
        self.tokens = tokens
    }

    /// True when the pattern contains `*` or `?`; otherwise it only matches itself.
    public var hasWildcards: Bool { tokens.contains { $0 == .anyRun || $0 == .anyOne } }

    /// How many characters the pattern pins down (literals and `?`), a measure of how
    /// specific it is: `gik-default/up/*` (15) is more specific than `gik-default/*` (12).
    public var specificity: Int { tokens.filter { $0 != .anyRun }.count }

    public var description: String { pattern }

    /// Whether the whole of `text` matches the pattern.
    public func matches(_ text: String) -> Bool {
        let characters = Array(text)
        var p = 0, t = 0
        var lastStar = -1      // token index of the last `*` seen
        var starResume = 0     // text index that `*` will next try to swallow up to
        while t < characters.count {
            if p < tokens.count {
                switch tokens[p] {
                case .anyRun:
                    lastStar = p
                    starResume = t
                    p += 1
                    continue
                case .anyOne:
                    p += 1; t += 1
                    continue
                case .literal(let c) where c == characters[t]:
                    p += 1; t += 1
                    continue
                case .literal:
                    break
                }
            }
            // Mismatch: let the last `*` take one more character, or fail.
            guard lastStar >= 0 else { return false }
            starResume += 1
            t = starResume
            p = lastStar + 1
        }
        while p < tokens.count, tokens[p] == .anyRun { p += 1 }
        return p == tokens.count
    }
}
