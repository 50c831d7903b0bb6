import Foundation
import PopoverDiff
import PopoverHarness
import PopoverReport

/// What a check prints: failing cases with their metrics and what changed, what was
/// recorded, orphans, errors and notes, one summary line, the report's path, and last
/// the changes the failures group into, each with the command that accepts it whole.
/// Each line goes through the console, which escapes it.
struct RunPrinter: RunReporter {
    /// What the run was: "check", "record", "merged 3 shards".
    let verb: String

    func finished(_ run: RunRecord, report: PublishedReport?, console: Console) {
        func print(_ line: String) { console.line(line) }
        for r in run.results where r.status.isFailure {
            print("\(r.status.rawValue.uppercased()) \(r.id): \(r.message)\(Self.metricsText(r))")
            if let explanation = r.explanation, r.status == .failed { print("    \(explanation)") }
        }
        for r in run.results where r.status == .new { print("added    \(r.goldenPath)") }
        for r in run.results where r.status == .recorded { print("changed  \(r.goldenPath)") }
        for id in run.pruned { print("removed  \(run.goldensFolder)/\(id).png") }
        for id in run.orphans {
            print("orphan   \(run.goldensFolder)/\(id).png (no case owns it; `\(run.pruneCommand.command)` deletes it)")
        }
        for e in run.errors { print("ERROR \(e)") }
        for note in run.notes { print("note: \(note)") }
        var parts = ["\(run.count(.passed)) passed", "\(run.count(.failed)) failed"]
        for (status, word) in [(CaseStatus.missing, "missing"), (.new, "new"), (.recorded, "re-recorded"), (.error, "errors")]
        where run.count(status) > 0 {
            parts.append("\(run.count(status)) \(word)")
        }
        if !run.orphans.isEmpty { parts.append("\(run.orphans.count) orphaned") }
        let shard = run.shard.map { " (shard \($0.index) of \($0.count))" } ?? ""
        let seconds = String(format: "%.2f", run.seconds)
        print("\(verb): \(run.results.count) cases\(shard) in \(seconds) s on \(run.jobs) threads: \(parts.joined(separator: ", "))")
        if let report { print("report: \(report.indexPath)") }
        Self.printChanges(run, to: console)
    }

    /// `3 changes: 312 cases — arrow apex moved +1 pt along x (210); ...` (the three
    /// biggest, with their case counts), then one line each with the command that takes it.
    static func printChanges(_ run: RunRecord, to console: Console) {
        func print(_ line: String) { console.line(line) }
        guard !run.changes.isEmpty else { return }
        let cases = run.changes.reduce(0) { $0 + $1.cases.count }
        let shown = run.changes.prefix(3).map { "\($0.explanation) (\($0.cases.count))" }.joined(separator: "; ")
        print("\(run.changes.count) change\(run.changes.count == 1 ? "" : "s"): \(cases) case\(cases == 1 ? "" : "s") — "
            + shown + (run.changes.count > 3 ? "; …" : ""))
        for change in run.changes {
            print("  \(change.id)  \(change.cases.count) case\(change.cases.count == 1 ? "" : "s"): \(change.explanation)"
                + (run.acceptCommand(change).map { "  (accept: \($0))" } ?? ""))
        }
    }

    private static func metricsText(_ r: CaseResult) -> String {
        guard let m = r.metrics else { return "" }
        return " [\(m.line)]"
    }
}
