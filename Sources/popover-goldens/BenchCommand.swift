import ArgumentParser
import Foundation
import PopoverBench
import PopoverHarness
import PopoverSkins

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure drawing, PNG coding, comparison (against ImageMagick's compare) and whole checks.",
        discussion: """
        Run from a release build on an otherwise idle machine; every figure is the best of
        --repetitions runs. The goldens must match (run scripts/check first).
        """)

    @Option(help: "The goldens folder.")
    var goldens = "Goldens"

    @Option(help: "Repetitions per measurement; the best counts.")
    var repetitions = 3

    @Flag(help: "Fewer cases per measurement: a smoke run, not figures to quote.")
    var quick = false

    @Option(help: "Also write every figure as JSON to this file.")
    var json: String?

    func run() throws {
        guard repetitions >= 1 else { throw UserError("--repetitions: \(repetitions) is not a positive number") }
        let catalog = try loadCatalog(skins: SkinCatalog.defaultSkinsFolder)
        let scratch = NSTemporaryDirectory() + "popover-goldens-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var bench = Benchmarks(catalog: catalog, goldensFolder: goldens, scratch: scratch)
        bench.repetitions = repetitions
        do {
            // First, while this process has no other finished children: the kernel's
            // child usage figures then describe the check alone.
            let full = try fullCheck(scratch: scratch)
            let renders = try bench.renderFigures(limit: quick ? 20 : nil)
            print("Drawing, one thread (ms per case, Mpx/s of canvas):")
            for r in renders {
                print("  " + "\(r.skin) @\(r.scale)x".padding(toLength: 22, withPad: " ", startingAt: 0)
                    + String(format: "%5d cases  %7.2f ms  %7.1f Mpx/s", r.cases, r.millisecondsPerCase, r.megapixelsPerSecond))
            }
            let png = try bench.pngFigures(sample: quick ? 40 : 200)
            let exact = try bench.exactMatchThroughput()
            print("PNG and comparison throughput, one thread:")
            for t in png + [exact] {
                print("  " + t.name.padding(toLength: 64, withPad: " ", startingAt: 0)
                    + String(format: "%8.1f Mpx/s", t.megapixelsPerSecond))
            }
            let pairs = try bench.pairFigures()
            print("Comparing pairs (ours vs ImageMagick `compare -channel RGBA -metric AE`):")
            for p in pairs {
                let mpx = Double(p.pixels) / 1e6
                var line = "  " + p.kind.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + String(format: "%8d px differ (AE %@)  files: ours %6.2f ms", p.differentPixels,
                             (p.imageMagickAE.map { "\($0)" } ?? "n/a") as NSString, p.oursFilesSeconds * 1000)
                if let im = p.imageMagickFilesSeconds {
                    line += String(format: ", compare %6.2f ms (%.1fx)", im * 1000, im / p.oursFilesSeconds)
                }
                line += String(format: "; pixels: ours %7.1f Mpx/s", mpx / p.oursPixelsSeconds)
                if let raw = p.imageMagickRawSeconds {
                    line += String(format: ", compare rgba: %5.1f Mpx/s (%.0fx)", mpx / raw, raw / p.oursPixelsSeconds)
                }
                print(line)
            }
            let checks = try bench.checkFigures(shares: quick ? [0.1, 0.2] : [0.25, 0.5, 1])
            print("Whole checks in one process (every golden matching):")
            for c in checks {
                print(String(format: "  %5d cases on %d thread%@  %6.2f s  (%.2f ms per case)", c.cases, c.jobs,
                             (c.jobs == 1 ? "" : "s") as NSString, c.seconds, c.seconds * 1000 / Double(c.cases)))
            }
            print(String(format: "Full check as a separate process: %d cases, %.2f s wall, %.1f s CPU, peak memory %.0f MiB",
                         catalog.cases.count, full.wall, full.cpu, full.peakMiB))
            if let json {
                struct Document: Encodable {
                    var renders: [Benchmarks.RenderFigure]
                    var throughput: [Benchmarks.Throughput]
                    var pairs: [Benchmarks.PairFigure]
                    var checks: [Benchmarks.CheckFigure]
                    var fullCheck: [String: Double]
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = try encoder.encode(Document(
                    renders: renders, throughput: png + [exact], pairs: pairs, checks: checks,
                    fullCheck: ["seconds": full.wall, "cpuSeconds": full.cpu, "peakMiB": full.peakMiB,
                                "cases": Double(catalog.cases.count)]))
                try data.write(to: URL(fileURLWithPath: json))
            }
        } catch let error as UserError {
            throw error
        } catch {
            throw UserError("\(error)")
        }
    }

    /// Runs `popover-goldens check` as a child process: wall time, CPU time and peak
    /// resident memory (the child's maximum RSS as the kernel counts it). Call it before
    /// any other child process has finished: the kernel sums CPU time and takes the
    /// largest RSS over all of them.
    private func fullCheck(scratch: String) throws -> (wall: Double, cpu: Double, peakMiB: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = ["check", "--goldens", goldens, "--reports", scratch + "/reports", "--record", "never"]
        process.standardOutput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let wall = ContinuousClock.now - start
        guard process.terminationStatus == 0 else {
            throw UserError("the full check exited \(process.terminationStatus): the goldens must match first")
        }
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let (s, a) = wall.components
        return (Double(s) + Double(a) * 1e-18, cpu, Double(usage.ru_maxrss) / 1024)
    }
}
