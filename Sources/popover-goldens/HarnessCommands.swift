import ArgumentParser
import Foundation
import PopoverDiff
import PopoverHarness
import PopoverImage

/// Options shared by check and record.
struct RunOptions: ParsableArguments {
    @Option(help: "Only cases whose ID matches this pattern (* any run, ? one character; a leading part up to a / also selects).")
    var filter: String?

    @Option(help: "The goldens folder.")
    var goldens = "Goldens"

    @Option(help: "The reports folder.")
    var reports = "Reports"

    @Option(parsing: .unconditional, help: "Worker threads (default: every core).")
    var jobs: Int?

    @OptionGroup var tolerance: ToleranceOptions

    @Flag(help: "Also put images of passing cases in the report.")
    var reportAllImages = false

    func checkOptions(recordMode: RecordMode) throws -> CheckOptions {
        for (option, value) in [("--goldens", goldens), ("--reports", reports)] where value.isEmpty {
            throw UserError("\(option): the folder name is empty")
        }
        var options = CheckOptions()
        options.goldensFolder = goldens
        options.reportsFolder = reports
        options.filter = filter
        options.recordMode = recordMode
        if let jobs {
            guard jobs >= 1 else { throw UserError("--jobs: \(jobs) is not a positive number of threads") }
            options.jobs = jobs
        }
        options.suiteTolerance = try tolerance.tolerance()
        options.reportImagesForPassingCases = reportAllImages
        options.showsProgress = isatty(2) == 1
        return options
    }
}

/// Suite-wide tolerance from the command line. Values are taken unconditionally, so a
/// negative one ("--different-pixels -1") reaches the check that names it instead of
/// being read as an option.
struct ToleranceOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Allowed largest channel difference, N (0-N) or N-M, 0-255 (default 0).")
    var maxChannelDelta: String?

    @Option(parsing: .unconditional, help: "Allowed number of differing pixels, N (0-N) or N-M (default 0).")
    var differentPixels: String?

    @Option(parsing: .unconditional, help: "Perceptual (YIQ) threshold 0-1 that also excuses anti-aliased pixels (default off).")
    var perceptual: String?

    /// Nil when no option was given (the tolerances file's default then applies).
    func tolerance() throws -> Tolerance? {
        guard maxChannelDelta != nil || differentPixels != nil || perceptual != nil else { return nil }
        do {
            return try Tolerance(parsingMaxChannelDelta: maxChannelDelta, differentPixels: differentPixels, perceptual: perceptual)
        } catch {
            throw UserError("\(error)")
        }
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print every case ID.")

    @Option(help: "Only IDs matching this pattern.")
    var filter: String?

    func run() throws {
        let catalog = try loadCatalog()
        let cases = catalog.cases(matching: filter)
        if cases.isEmpty, let filter { throw UserError("\(HarnessError.noCaseMatches(filter))") }
        print(cases.map(\.id).joined(separator: "\n"))
    }
}

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

    func run() throws {
        let mode: RecordMode
        do {
            mode = try record ?? RecordMode.fromEnvironment()
        } catch {
            throw UserError("\(error)")
        }
        try execute(try runOptions.checkOptions(recordMode: mode), verb: "check")
    }
}

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Re-render cases and rewrite the goldens that changed (others are left untouched).")

    @Argument(help: "Only cases matching this pattern.")
    var pattern: String?

    @OptionGroup var runOptions: RunOptions

    @Flag(help: "Delete goldens that no case owns.")
    var prune = false

    func run() throws {
        var options = try runOptions.checkOptions(recordMode: .all)
        if let pattern { options.filter = pattern }
        options.prune = prune
        try execute(options, verb: "record")
    }
}

extension RecordMode: ExpressibleByArgument {}

func loadCatalog() throws -> CaseCatalog {
    do {
        return try CaseCatalog.standard()
    } catch {
        throw UserError("\(error)")
    }
}

/// Runs a check or record and prints what a person needs: failing cases with their
/// metrics, what was recorded, orphans, errors, the summary and the report's path.
func execute(_ options: CheckOptions, verb: String) throws {
    let catalog = try loadCatalog()
    let result: CheckRun
    do {
        result = try CheckRunner(catalog: catalog, options: options).run()
    } catch {
        throw UserError("\(error)")
    }
    for r in result.results where r.status.isFailure {
        print("\(r.status.rawValue.uppercased()) \(r.id): \(r.message)\(metricsText(r))")
    }
    let added = result.results.filter { $0.status == .new }
    let changed = result.results.filter { $0.status == .recorded }
    for r in added { print("added    \(r.goldenPath)") }
    for r in changed { print("changed  \(r.goldenPath)") }
    for id in result.pruned { print("removed  \(options.goldensFolder)/\(id).png") }
    for id in result.orphans {
        print("orphan   \(options.goldensFolder)/\(id).png (no case owns it; `popover-goldens record --prune` deletes it)")
    }
    for e in result.errors { print("ERROR \(e)") }
    var parts = ["\(result.count(.passed)) passed", "\(result.count(.failed)) failed"]
    for (status, word) in [(CaseStatus.missing, "missing"), (.new, "new"), (.recorded, "re-recorded"), (.error, "errors")]
    where result.count(status) > 0 {
        parts.append("\(result.count(status)) \(word)")
    }
    if !result.orphans.isEmpty { parts.append("\(result.orphans.count) orphaned") }
    let seconds = String(format: "%.2f", result.seconds)
    print("\(verb): \(result.results.count) cases in \(seconds) s on \(result.jobs) threads: \(parts.joined(separator: ", "))")
    if let report = result.reportPath { print("report: \(report)") }
    if result.exitCode != 0 { throw ExitCode(result.exitCode) }
}

private func metricsText(_ r: CaseResult) -> String {
    guard let m = r.metrics else { return "" }
    return " [differentPixels \(m.differentPixels), maxChannelDelta \(m.maxChannelDelta), mae "
        + String(format: "%.3f", m.meanAbsoluteError) + ", psnr " + (m.psnr.map { String(format: "%.1f", $0) } ?? "inf") + "]"
}
