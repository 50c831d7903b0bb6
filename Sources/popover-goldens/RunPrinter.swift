import Foundation
import Synchronization
import PopoverDiff
import PopoverHarness

/// What a check prints: failing cases with their metrics and what changed, what was
/// recorded, orphans, errors and notes, one summary line, the report's path, and last
/// the changes the failures group into, each with the command that accepts it whole.
enum RunPrinter {
    static func print(_ run: RunRecord, verb: String, reportPath: String?) {
        for r in run.results where r.status.isFailure {
            Swift.print("\(r.status.rawValue.uppercased()) \(r.id): \(r.message)\(metricsText(r))")
            if let explanation = r.explanation, r.status == .failed { Swift.print("    \(explanation)") }
        }
        for r in run.results where r.status == .new { Swift.print("added    \(r.goldenPath)") }
        for r in run.results where r.status == .recorded { Swift.print("changed  \(r.goldenPath)") }
        for id in run.pruned { Swift.print("removed  \(run.goldensFolder)/\(id).png") }
        for id in run.orphans {
            Swift.print("orphan   \(run.goldensFolder)/\(id).png (no case owns it; `popover-goldens record --prune` deletes it)")
        }
        for e in run.errors { Swift.print("ERROR \(e)") }
        for note in run.notes { Swift.print("note: \(note)") }
        var parts = ["\(run.count(.passed)) passed", "\(run.count(.failed)) failed"]
        for (status, word) in [(CaseStatus.missing, "missing"), (.new, "new"), (.recorded, "re-recorded"), (.error, "errors")]
        where run.count(status) > 0 {
            parts.append("\(run.count(status)) \(word)")
        }
        if !run.orphans.isEmpty { parts.append("\(run.orphans.count) orphaned") }
        let shard = run.shard.map { " (shard \($0.index) of \($0.count))" } ?? ""
        let seconds = String(format: "%.2f", run.seconds)
        Swift.print("\(verb): \(run.results.count) cases\(shard) in \(seconds) s on \(run.jobs) threads: \(parts.joined(separator: ", "))")
        if let reportPath { Swift.print("report: \(reportPath)") }
        printChanges(run)
    }

    /// `3 changes: 312 cases — arrow apex moved +1 pt along x (210); ...` (the three
    /// biggest, with their case counts), then one line each with the command that takes it.
    static func printChanges(_ run: RunRecord) {
        guard !run.changes.isEmpty else { return }
        let cases = run.changes.reduce(0) { $0 + $1.cases.count }
        let shown = run.changes.prefix(3).map { "\($0.explanation) (\($0.cases.count))" }.joined(separator: "; ")
        Swift.print("\(run.changes.count) change\(run.changes.count == 1 ? "" : "s"): \(cases) case\(cases == 1 ? "" : "s") — "
            + shown + (run.changes.count > 3 ? "; …" : ""))
        for change in run.changes {
            let acceptable = change.kind != "error"
            Swift.print("  \(change.id)  \(change.cases.count) case\(change.cases.count == 1 ? "" : "s"): \(change.explanation)"
                + (acceptable ? "  (accept: popover-goldens accept --change \(change.id))" : ""))
        }
    }

    private static func metricsText(_ r: CaseResult) -> String {
        guard let m = r.metrics else { return "" }
        return " [\(m.line)]"
    }
}
