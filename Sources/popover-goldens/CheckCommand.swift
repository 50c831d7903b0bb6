import ArgumentParser
import Foundation
import PopoverHarness
import PopoverReport

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Render every case, compare it with its golden, write the report.",
        discussion: """
        Record mode: --record, else GOLDEN_RECORD, else never when CI is set and missing otherwise.
        Exit status: 0 all pass, 1 a case failed or lacks its golden, 2 usage or I/O errors.
        """)

    @OptionGroup var runOptions: RunOptions

    @Option(help: "never, missing, failed or all.")
    var record: RecordMode?

    @Flag(help: "Exit 0 whatever the verdicts, once the report is written: for pipelines that gate elsewhere (on summary.json or junit.xml).")
    var noFail = false

    @OptionGroup var ciOutputs: CIOutputOptions

    func run() throws {
        let mode = try record ?? userFacing { () throws(HarnessError) in try RecordMode.fromEnvironment() }
        try runCheck(try runOptions.checkOptions(recordMode: mode), reports: runOptions.reports, skins: runOptions.skins,
                     verb: "check", noFail: noFail, ciOutputs: ciOutputs)
    }
}

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Re-render cases and rewrite the goldens whose pixels changed.",
        discussion: "Unchanged goldens are not touched; with --facts-only no golden is. Exit status: 0 done, 1 a case failed, 2 errors.")

    @Argument(help: "Only cases matching this text or pattern.")
    var pattern: String?

    @OptionGroup var runOptions: RunOptions

    @Flag(help: "Delete goldens that no case owns.")
    var prune = false

    @Flag(help: "With --prune: delete even more than a quarter of the goldens at once.")
    var force = false

    @Flag(help: "Write only facts (of goldens whose pixels are unchanged) and, with --prune, delete orphans: no golden image is written.")
    var factsOnly = false

    func validate() throws {
        if force && !prune { throw ValidationError("--force applies to --prune only") }
    }

    func run() throws {
        var options = try runOptions.checkOptions(recordMode: factsOnly ? .never : .all)
        options.factsOnly = factsOnly
        if let pattern { options.filter = pattern }
        options.prune = prune
        options.forcePrune = force
        try runCheck(options, reports: runOptions.reports, skins: runOptions.skins, verb: "record")
    }
}

/// Runs a check or record with its report, hands the run to its reporters (what a
/// person reads, and with `ciOutputs` what a CI service reads), and exits with the run's
/// status.
func runCheck(_ options: CheckOptions, reports: String, skins: String, verb: String, noFail: Bool = false,
              ciOutputs: CIOutputOptions? = nil) throws {
    let catalog = loadCatalog(skins: skins)
    var runner = CheckRunner(catalog: catalog, options: options)
    let meter = ProgressMeter()
    runner.progress = { done, total in meter.update(done, of: total) }
    let checked = try userFacing { try ReportFolder(reports).check(runner) }
    meter.finish()
    Reporters.finish(checked.run, report: checked.report,
                     reporters: [RunPrinter(verb: verb)] + (ciOutputs?.reporters() ?? []))
    let run = checked.run
    if noFail {
        if run.exitCode != 0 { print("--no-fail: exit 0 (the run's own status is \(run.exitCode))") }
        return
    }
    if run.exitCode != 0 { throw ExitCode(run.exitCode) }
}

/// The catalog of the skin folders in `skins` and the built-in skins. A skin folder with
/// a mistake is reported by the check (or list) and the other skins still go ahead.
func loadCatalog(skins: String) -> CaseCatalog {
    CaseCatalog.standard(skinsFolder: skins)
}
