import ArgumentParser
import Foundation
import PopoverDiff
import PopoverHarness
import PopoverReport

/// Options shared by check and record.
struct RunOptions: ParsableArguments {
    @Option(help: "Only cases whose ID contains this text, or matches this pattern (* any run, ? one character).")
    var filter: String?

    @Option(help: "Only this share of the cases, I/N (e.g. 2/3), for splitting a run over machines; `auto` reads the CI's own variables (GitLab CI_NODE_INDEX/CI_NODE_TOTAL, CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, Buildkite BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT).")
    var shard: String?

    @Option(help: "With --shard: share the cases out by how long each took in this earlier run's summary.json (give every shard the same file).")
    var shardTimings: String?

    @Option(help: "The goldens folder.")
    var goldens = "Goldens"

    @Option(help: "The report folder (replaced whole by each run).")
    var reports = "Reports"

    @Option(help: "The folder of skin folders (each Skins/<id>/skin.json a skin).")
    var skins = "Skins"

    @Option(parsing: .unconditional, help: "Worker threads, 1 to 4096 (default: every core).")
    var jobs: Int?

    @OptionGroup var tolerance: ToleranceOptions

    @Flag(help: "Also keep images of passing cases in the report.")
    var reportAllImages = false

    @Option(help: "Where the digest cache (facts learned by decoding goldens) is kept (default: $POPOVER_GOLDENS_CACHE, else ~/.cache/popover-goldens).")
    var cache: String?

    @Flag(help: "Keep no digest cache: decode every golden.")
    var noCache = false

    func checkOptions(recordMode: RecordMode) throws -> CheckOptions {
        for (option, value) in [("--goldens", goldens), ("--reports", reports)] where value.isEmpty {
            throw UserError("\(option): the folder name is empty")
        }
        var options = CheckOptions()
        options.goldensFolder = goldens
        options.skinsFolder = skins
        options.reportsFolder = reports
        options.filter = filter
        options.recordMode = recordMode
        if let jobs {
            guard jobs >= 1 else { throw UserError("--jobs: \(jobs) is not a positive number of threads") }
            guard jobs <= RunRecord.mostJobs else {
                throw UserError("--jobs: \(jobs) is more than \(RunRecord.mostJobs), the most threads a check runs on")
            }
            options.jobs = jobs
        }
        if let shard {
            if shard == CIShard.word {
                let found = try userFacing { () throws(HarnessError) in
                    try CIShard.from(environment: ProcessInfo.processInfo.environment)
                }
                options.shard = found.shard
                options.shardSource = found.source
            } else {
                options.shard = try userFacing { () throws(HarnessError) in try Shard(parsing: shard) }
            }
        }
        if let shardTimings {
            guard shard != nil else { throw UserError("--shard-timings: only with --shard") }
            options.shardTimings = try loadTimings(shardTimings)
        }
        options.suiteTolerance = try tolerance.tolerance()
        options.keepsImagesOfPassingCases = reportAllImages
        options.cacheFolder = noCache ? nil : (cache ?? GoldenDigestCache.defaultFolder())
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

    @Flag(help: "With --perceptual, count anti-aliased pixels as different instead of excusing them (pixelmatch's includeAA).")
    var countAntiAliasing = false

    /// Nil when no option was given (the tolerances file's default then applies).
    func tolerance() throws -> Tolerance? {
        guard maxChannelDelta != nil || differentPixels != nil || perceptual != nil || countAntiAliasing else { return nil }
        return try userFacing { () throws(ToleranceError) in
            try Tolerance(parsingMaxChannelDelta: maxChannelDelta, differentPixels: differentPixels, perceptual: perceptual,
                          countAntiAliasing: countAntiAliasing)
        }
    }
}

extension RecordMode: ExpressibleByArgument {}

/// Seconds by case ID from a run's summary.json (a merged one covers every case).
func loadTimings(_ file: String) throws -> [String: Double] {
    try userFacing { () throws(RecordError) in try RunRecord.read(file) }.caseSeconds
}
