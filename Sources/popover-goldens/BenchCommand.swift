import ArgumentParser
import Foundation
import PopoverBench
import PopoverHarness
import PopoverSkins

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure whole runs, drawing, PNG coding and comparison (against ImageMagick's compare).",
        discussion: """
        Run from a release build on an otherwise idle machine; every figure is the best of
        --repetitions runs, and says what was timed. The goldens must match (run
        scripts/check first). Takes a few minutes: it records every golden from scratch
        and checks a copy of the goldens in which every case fails.
        """)

    @Option(help: "The goldens folder.")
    var goldens = "Goldens"

    @Option(help: "Repetitions per measurement; the best counts.")
    var repetitions = 3

    @Flag(help: "Fewer cases per measurement and no whole runs: a smoke run, not figures to quote.")
    var quick = false

    @Option(help: "Also write every figure as JSON to this file.")
    var json: String?

    func run() throws {
        guard repetitions >= 1 else { throw UserError("--repetitions: \(repetitions) is not a positive number") }
        let catalog = loadCatalog(skins: SkinCatalog.defaultSkinsFolder)
        let scratch = NSTemporaryDirectory() + "popover-goldens-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var bench = Benchmarks(catalog: catalog, goldensFolder: goldens, scratch: scratch)
        bench.repetitions = repetitions
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let pageScript = FileManager.default.fileExists(atPath: "scripts/bench-page")
            ? "scripts/bench-page" : nil
        try userFacing {
            let runs = quick ? nil : try bench.runFigures(tool: tool, pageScript: pageScript)
            if let runs { BenchPrinter.runs(runs) }
            let renders = try bench.renderFigures(limit: quick ? 20 : nil)
            BenchPrinter.renders(renders)
            let codec = try PNGCodecFigures.measure(goldensFolder: goldens, spreadEvery: quick ? 50 : 10,
                                                    repetitions: repetitions)
            let exact = try bench.exactMatchThroughput()
            BenchPrinter.throughput(codec, exact: exact)
            let digests = try DigestFigures.measure(goldensFolder: goldens, repetitions: repetitions)
            BenchPrinter.digests(digests)
            let pairs = try bench.pairFigures(tool: tool)
            BenchPrinter.pairs(pairs)
            let checks = try bench.checkFigures(shares: quick ? [0.1, 0.2] : [0.25, 0.5, 1])
            BenchPrinter.checks(checks)
            if let json {
                try BenchDocument(runs: runs, renders: renders, codec: codec, digests: digests, exactMatch: exact, pairs: pairs,
                                  checks: checks).write(to: json)
            }
        }
    }
}
