
/// Selects cases by ID with a shell-like pattern (`*` any run of characters, `?` one).
///
/// A pattern selects an ID when it matches the whole ID or a leading part of it that
/// ends at a `/`: `gik-default` selects every case of that skin, `gik-*/left` every
/// left-arrow case of the seven-image skins, `*popover8*` every case of popover8.
public struct CaseFilter: Sendable {
    public let pattern: String
    private let glob: IDPattern

    public init(_ pattern: String) {
        self.pattern = pattern
        glob = IDPattern(pattern)
    }

    public func matches(_ id: String) -> Bool {
        if glob.matches(id) { return true }
        var prefix = ""
        for character in id {
            if character == "/" && glob.matches(prefix) { return true }
            prefix.append(character)
        }
        return false
    }
}
