/// The commands a run prints: complete (they carry the run's non-default `--goldens`,
/// `--reports` and `--skins`, so they work as printed from the same folder) and safe
/// (none re-records a failing golden).
extension RunRecord {
    /// A command the run advises, and what it does to disk, in words.
    public struct Advice: Sendable, Hashable, Codable {
        public var command: String
        public var does: String
    }

    /// `popover-goldens <words>` with the folders this run used, each word quoted for a
    /// POSIX shell when it needs to be.
    public func command(_ words: [String]) -> String {
        Self.command(words, goldens: goldensFolder, reports: reportsFolder, skins: skinsFolder)
    }

    /// `popover-goldens <words>` with these folders where they are not the defaults.
    public static func command(_ words: [String], goldens: String, reports: String, skins: String) -> String {
        var all = ["popover-goldens"] + words
        if goldens != defaultGoldens { all += ["--goldens", goldens] }
        if reports != defaultReports { all += ["--reports", reports] }
        if skins != defaultSkins { all += ["--skins", skins] }
        return all.map(shellWord).joined(separator: " ")
    }

    /// The command that accepts a change whole; nil for one that cannot be accepted.
    public func acceptCommand(_ change: Change) -> String? {
        change.kind == "error" ? nil : command(["accept", "--change", change.id])
    }

    /// Writes facts only, and prunes: never a golden image. (`record` alone re-records
    /// every failing golden, so it is never what a note advises.) Both cover the run's
    /// cases: the filter it was given, if any, as `--filter`, which reads a filter that
    /// begins with `-` as the option's value.
    public var factsCommand: Advice {
        Advice(command: command(["record", "--facts-only"] + filterWords),
               does: "writes the missing, stale or unreadable facts of the goldens; no golden changes")
    }

    private var filterWords: [String] { filter.map { ["--filter", $0] } ?? [] }

    public var pruneCommand: Advice {
        Advice(command: command(["record", "--facts-only", "--prune"] + filterWords),
               does: "deletes the goldens no case owns and writes missing facts; no other golden changes")
    }

    /// What the run advises: writing facts when some goldens lack them, pruning when
    /// goldens are orphans.
    public var advice: [Advice] {
        var advice: [Advice] = []
        let standings: [FactsStanding] = [.missing, .stale, .unreadable]
        if results.contains(where: { r in r.factsStanding.map(standings.contains) ?? r.cause.map { standings.contains($0.facts) } ?? false }) {
            advice.append(factsCommand)
        }
        if !orphans.isEmpty { advice.append(pruneCommand) }
        return advice
    }

    /// A word as a POSIX shell reads it: as is when it holds only safe characters, else
    /// in single quotes.
    public static func shellWord(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "-_./@+".unicodeScalars.contains(s)
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
