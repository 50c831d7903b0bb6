import ArgumentParser
import PopoverHarness
import PopoverReport

struct MergeReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Merge the reports of a run's shards (check --shard I/N) into one report.",
        discussion: """
        The merged report, summary.json and junit.xml are what one machine running every
        case would have written. Refused (exit 2, naming the problem): a shard missing or
        given twice, a shard of a different run (goldens, tolerances, record mode or case
        catalog differ), a case judged twice or by no shard, and any verdict that this
        checkout's goldens and tolerances (the same options as check) do not give from
        what the shard recorded: the golden it compared against, the digest of what it
        drew, its metrics and its saved images.
        Exit status: 0 every case passed, 1 a case failed, 2 refused or errors.
        """)

    @Argument(help: "The shards' report folders.")
    var shards: [String]

    @Option(help: "Where to write the merged report.")
    var out = "Reports"

    @Option(help: "The goldens folder the shards were checked against.")
    var goldens = "Goldens"

    @OptionGroup var tolerance: ToleranceOptions

    @OptionGroup var ciOutputs: CIOutputOptions

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("name the shards' report folders") }
    }

    func run() throws {
        let store = GoldenStore(folder: goldens)
        let suite = try tolerance.tolerance()
        let policy = try userFacing { () throws(HarnessError) in
            try TolerancePolicy.load(goldensFolder: goldens, suite: suite)
        }
        let merged: ReportedRun
        do {
            merged = try MergedReport.merge(shards.map(ReportFolder.init), into: ReportFolder(out),
                                            verdicts: ShardVerdicts(store: store, tolerances: policy))
        } catch let refusal as MergeRefusal {
            throw UserError(lines: refusal.lines)
        } catch {
            throw UserError("\(error)")
        }
        Reporters.finish(merged.run, report: merged.report,
                         reporters: [RunPrinter(verb: "merged \(shards.count) shards")] + ciOutputs.reporters())
        if merged.run.exitCode != 0 { throw ExitCode(merged.run.exitCode) }
    }
}
