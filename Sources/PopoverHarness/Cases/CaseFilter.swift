/// Selects cases by ID, the way test runners filter by name.
///
/// - Plain text (no `*` or `?`) selects every ID that contains it:
///   `gik-default/up/popover8` selects that anchor's cases at every scale and
///   orientation, `@3x` every 3x case.
/// - A pattern with wildcards (`*` any run of characters, `/` included; `?` one
///   character) selects an ID when it matches the whole ID or a leading part of it that
///   ends at a `/`: `gik-*/left` selects every left arrow of the seven-image skins,
///   `*popover8*@2x` every 2x case of popover8.
public struct CaseFilter: Sendable {
    public let pattern: String
    private let glob: IDPattern

    public init(_ pattern: String) {
        self.pattern = pattern
        glob = IDPattern(pattern)
    }

    public func matches(_ id: String) -> Bool {
        guard glob.hasWildcards else { return id.contains(pattern) }
        if glob.matches(id) { return true }
        var prefix = ""
        for character in id {
            if character == "/" && glob.matches(prefix) { return true }
            prefix.append(character)
        }
        return false
    }
}
