import Foundation
import PopoverFiles
import PopoverHarness

/// `summary.md`: the run for a CI job's summary page (GitHub's job summary, a GitLab or
/// Buildkite annotation): the verdict and counts, the changes with the command that
/// accepts each, the worst failing cases linked to their place on the report page with
/// their triptychs, orphaned goldens, run errors, and the commands that reproduce and
/// accept. Plain CommonMark with pipe tables, which GitHub and GitLab both render; every
/// value from the run is escaped (`Escape.markdown`), so an ID or explanation cannot break
/// a table or a link; in commands, quoted for the shell as the page's review panel quotes
/// them.
public struct SummaryMarkdown: RunReporter {
    public init() {}
    public var fileName: String? { "summary.md" }
    public func file(_ run: RunRecord) -> [UInt8] { Array(Self.render(run).utf8) }

    /// Failing cases (and changes) listed in their tables; the rest are counted.
    public static let worstCasesShown = 20
    /// Cases given their own reproduce and accept commands.
    public static let commandsShown = 5
    /// Run errors and orphans listed; the rest are counted (GitHub keeps at most 1 MiB of
    /// a step's summary).
    public static let listItemsShown = 20

    public static func render(_ run: RunRecord) -> String {
        var lines: [String] = []
        lines.append("## popover-goldens: \(verdict(run))")
        lines.append("")
        lines.append(contentsOf: countsTable(run))
        if !run.errors.isEmpty {
            lines.append("")
            lines.append("### Run errors")
            lines.append("")
            lines.append(contentsOf: list(run.errors.map(Escape.markdown)))
        }
        if !run.changes.isEmpty {
            lines.append("")
            lines.append("### Changes")
            lines.append("")
            lines.append("| Change | Cases | What changed | Accept |")
            lines.append("| --- | ---: | --- | --- |")
            for change in run.changes.prefix(worstCasesShown) {
                let accept = run.acceptCommand(change).map(Escape.markdownCode) ?? "cannot be accepted"
                lines.append("| \(Escape.markdownCode(change.id)) | \(change.cases.count) | \(Escape.markdown(change.explanation)) | \(accept) |")
            }
            if run.changes.count > worstCasesShown {
                lines += ["", "… and \(run.changes.count - worstCasesShown) more changes on the [report page](index.html)."]
            }
        }
        let worst = worstFailures(run)
        if !worst.isEmpty {
            lines.append("")
            lines.append("### Worst failing cases")
            lines.append("")
            lines.append("| Case | Status | Different pixels | Largest channel difference | PSNR | Triptych |")
            lines.append("| --- | --- | ---: | ---: | ---: | --- |")
            for r in worst.prefix(worstCasesShown) {
                let link = "[\(Escape.markdown(r.id))](index.html#\(Escape.caseAnchor(r.id)))"
                let status = r.status.rawValue + (r.accepted == nil ? "" : " (accepted)")
                let m = r.metrics
                let triptych = r.artifacts.triptych.map {
                    "[\(Escape.markdown(FilePaths.lastComponent(of: $0.path)))](\(Escape.relativeURL($0.path)))"
                } ?? "none"
                lines.append("| \(link) | \(status) | \(m.map { String($0.differentPixels) } ?? "–") | "
                    + "\(m.map { String($0.maxChannelDelta) } ?? "–") | "
                    + "\(m.map { $0.psnr == nil ? "∞" : $0.psnrText } ?? "–") | \(triptych) |")
            }
            if worst.count > worstCasesShown {
                lines.append("")
                lines.append("… and \(worst.count - worstCasesShown) more failing case\(worst.count - worstCasesShown == 1 ? "" : "s") "
                    + "on the [report page](index.html).")
            }
        }
        if !run.orphans.isEmpty {
            lines.append("")
            lines.append("### Orphaned goldens")
            lines.append("")
            lines.append("No case owns these; \(Escape.markdownCode(run.pruneCommand.command)) deletes them.")
            lines.append("")
            lines.append(contentsOf: list(run.orphans.map { Escape.markdown("\(run.goldensFolder)/\($0).png") }))
        }
        let commands = self.commands(run, worst: worst)
        if !commands.isEmpty {
            lines.append("")
            lines.append("### Reproduce and accept")
            lines.append("")
            let fence = Escape.markdownFence(for: commands)
            lines.append(contentsOf: [fence + "sh"] + commands + [fence])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A bulleted list of at most `listItemsShown` items, then a line counting the rest.
    static func list(_ items: [String]) -> [String] {
        var lines = items.prefix(listItemsShown).map { "- " + $0 }
        if items.count > listItemsShown {
            lines += ["", "… and \(items.count - listItemsShown) more on the [report page](index.html)."]
        }
        return lines
    }

    /// `passed`, `failed` or `errors`, then how many cases.
    static func verdict(_ run: RunRecord) -> String {
        let word = switch run.exitCode {
        case 0: "passed"
        case 1: "failed"
        default: "errors"
        }
        let shard = run.shard.map { ", shard \($0.index) of \($0.count)" } ?? ""
        return "\(word) (\(run.results.count) case\(run.results.count == 1 ? "" : "s")\(shard))"
    }

    static func countsTable(_ run: RunRecord) -> [String] {
        var columns: [(String, Int)] = [("Passed", run.count(.passed)), ("Failed", run.count(.failed))]
        for (status, name) in [(CaseStatus.missing, "Missing"), (.new, "New"), (.recorded, "Re-recorded"), (.error, "Errors")]
        where run.count(status) > 0 {
            columns.append((name, run.count(status)))
        }
        if !run.orphans.isEmpty { columns.append(("Orphaned", run.orphans.count)) }
        if run.acceptedCount > 0 { columns.append(("Accepted since", run.acceptedCount)) }
        return ["| " + columns.map(\.0).joined(separator: " | ") + " |",
                "| " + columns.map { _ in "---:" }.joined(separator: " | ") + " |",
                "| " + columns.map { String($0.1) }.joined(separator: " | ") + " |"]
    }

    /// Failing cases, worst first: errors, then missing goldens, then failures by
    /// different pixels and then largest channel difference, ties by ID.
    static func worstFailures(_ run: RunRecord) -> [CaseResult] {
        func rank(_ s: CaseStatus) -> Int { s == .error ? 0 : s == .missing ? 1 : 2 }
        return run.failures.sorted { a, b in
            if rank(a.status) != rank(b.status) { return rank(a.status) < rank(b.status) }
            let (pa, pb) = (a.metrics?.differentPixels ?? 0, b.metrics?.differentPixels ?? 0)
            if pa != pb { return pa > pb }
            let (da, db) = (a.metrics?.maxChannelDelta ?? 0, b.metrics?.maxChannelDelta ?? 0)
            if da != db { return da > db }
            return a.id < b.id
        }
    }

    /// Shell commands: the whole run again, then each of the worst cases checked alone
    /// and accepted, then each change accepted whole.
    static func commands(_ run: RunRecord, worst: [CaseResult]) -> [String] {
        guard !worst.isEmpty else { return [] }
        // Checking never records here: a new case's golden is written only once someone
        // has looked at it (accept).
        var whole = ["check", "--record", "never"]
        if let filter = run.filter { whole += ["--filter", filter] }
        if let shard = run.shard { whole += ["--shard", "\(shard.index)/\(shard.count)"] }
        var lines = ["# the whole run again", run.command(whole)]
        let cases = worst.prefix(commandsShown)
        lines.append("# one case at a time: check it, and if the change is intended, accept it")
        for r in cases {
            lines.append(run.command(["check", "--record", "never", "--filter", r.id]))
            if r.status.isAcceptable { lines.append(run.command(["accept", r.id])) }
        }
        let acceptable = run.changes.compactMap(run.acceptCommand)
        if !acceptable.isEmpty {
            lines.append("# or a whole change at once")
            lines += acceptable.prefix(worstCasesShown)
        }
        return lines
    }
}
