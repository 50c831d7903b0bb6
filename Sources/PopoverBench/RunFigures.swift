import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage

/// Whole runs of the tool as separate processes, the ones a maintainer waits on:
/// - a clean check of every case (every golden matching), with the digest cache warm, the
///   same right after a rebuild (a fresh copy of the executable: another file, inode and
///   modification time, with the cache as the last check left it), and without the cache
///   (`--no-cache`: every golden decoded);
/// - a check in which every case fails: each golden with a band of four rows across its
///   middle a few levels redder, so that every comparison, heatmap and report image is
///   made, and the full report written;
/// - recording every golden from scratch, into an empty folder, and what the goldens then
///   weigh on disk;
/// - the all-failing report in headless Chromium: how soon its first screen shows, its
///   longest task, total blocking time and layout shift while loading, and for each main
///   control the time from a click (or key) to the next paint.
/// Each is the best of `repetitions` by wall time, with its CPU time and peak memory.
public struct RunFigures: Sendable, Codable {
    public var cases: Int
    public var cleanCheck: ChildRun
    public var cleanCheckAfterRebuild: ChildRun
    public var cleanCheckWithoutCache: ChildRun
    public var allFailingCheck: ChildRun
    public var allFailingReportMiB: Double
    public var recordAll: ChildRun
    /// The recorded goldens: their bytes, and the disk space they take (`du`'s count).
    public var goldensBytes: Int
    public var goldensDiskMiB: Double
    /// The all-failing report in headless Chromium; nil without Chromium.
    public var reportFirstScreen: ReportLoad?

    /// Seconds from opening the report to its first contentful paint, to its largest
    /// contentful paint (the first screen shown) and to its load event; how many images
    /// and elements the page then has (only cases near the screen are drawn); while
    /// loading, the longest task, the total blocking time (each task's milliseconds past
    /// 50) and the cumulative layout shift; and per main control, from the input to the
    /// next paint (Event Timing) and the longest task it caused.
    public struct ReportLoad: Sendable, Codable {
        public var firstPaintSeconds: Double
        public var firstScreenSeconds: Double
        public var loadSeconds: Double
        public var imagesLoaded: Int
        public var imagesInPage: Int
        public var elements: Int
        public var longestTaskMs: Double
        public var totalBlockingMs: Double
        public var layoutShift: Double
        public var controls: [String: ControlFigure]
    }

    public struct ControlFigure: Sendable, Codable {
        public var toNextPaintMs: Double
        public var longestTaskMs: Double
    }
}

extension Benchmarks {
    /// `tool` is the popover-goldens executable; `pageScript` the Playwright script that
    /// times the report's first screen.
    public func runFigures(tool: String, pageScript: String?) throws -> RunFigures {
        let cache = scratch + "/cache"
        let clean = { (executable: String) in
            try ChildRun.run(executable, ["check", "--goldens", self.goldensFolder, "--reports", self.scratch + "/reports-clean",
                                          "--record", "never", "--cache", cache])
        }
        _ = try clean(tool)   // fills the cache: a first check after a clone decodes every golden once
        // Warm and rebuilt in turn, so both meet the same machine.
        var warm: [ChildRun] = [], rebuilt: [ChildRun] = []
        for round in 0..<max(1, repetitions) {
            warm.append(try clean(tool))
            let copy = scratch + "/build-\(round)/popover-goldens"
            try FileManager.default.createDirectory(atPath: FilePaths.parent(of: copy), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: tool, toPath: copy)
            rebuilt.append(try clean(copy))
        }
        let cleanCheck = warm.min { $0.wallSeconds < $1.wallSeconds }!
        let afterRebuild = rebuilt.min { $0.wallSeconds < $1.wallSeconds }!
        guard cleanCheck.status == 0, afterRebuild.status == 0 else {
            throw BenchError("the clean check exited \(cleanCheck.status), after a rebuild \(afterRebuild.status): the goldens must match")
        }
        let uncached = try ChildRun.best(repetitions) {
            try ChildRun.run(tool, ["check", "--goldens", self.goldensFolder, "--reports", self.scratch + "/reports-clean",
                                    "--record", "never", "--no-cache"])
        }
        guard uncached.status == 0 else { throw BenchError("the clean check without a cache exited \(uncached.status)") }

        let perturbed = scratch + "/perturbed"
        try perturbGoldens(into: perturbed)
        let failingReports = scratch + "/reports-failing"
        let failing = try ChildRun.best(repetitions) {
            try ChildRun.run(tool, ["check", "--goldens", perturbed, "--reports", failingReports, "--record", "never",
                                    "--cache", cache])
        }
        guard failing.status == 1 else { throw BenchError("the all-failing check exited \(failing.status), not 1") }

        let recorded = scratch + "/recorded"
        let record = try ChildRun.best(repetitions, before: { try? FileManager.default.removeItem(atPath: recorded) }) {
            try ChildRun.run(tool, ["record", "--goldens", recorded, "--reports", self.scratch + "/reports-record",
                                    "--cache", self.scratch + "/cache-record"])
        }
        guard record.status == 0 else { throw BenchError("recording every golden exited \(record.status)") }
        let (bytes, blocks) = Self.folderSize(recorded)

        var load: RunFigures.ReportLoad?
        if let pageScript {
            load = try? Self.reportLoad(script: pageScript, report: failingReports)
        }
        return RunFigures(cases: catalog.cases.count, cleanCheck: cleanCheck, cleanCheckAfterRebuild: afterRebuild,
                          cleanCheckWithoutCache: uncached,
                          allFailingCheck: failing,
                          allFailingReportMiB: Double(Self.folderSize(failingReports).blocks) / 1_048_576,
                          recordAll: record, goldensBytes: bytes, goldensDiskMiB: Double(blocks) / 1_048_576,
                          reportFirstScreen: load)
    }

    /// Every golden with rows h/2 ... h/2 + 3 a few levels redder where they are not
    /// transparent: every case then fails, by a band a person can find.
    func perturbGoldens(into folder: String) throws {
        let store = GoldenStore(folder: goldensFolder)
        for id in store.allIDs() {
            var image = try PNGFile.read(path: store.path(for: id))
            let top = image.height / 2
            for y in top..<min(image.height, top + 4) {
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    image.pixels[i + 3] = max(image.pixels[i + 3], 40)
                    image.pixels[i] = image.pixels[i] > 250 ? image.pixels[i] - 5 : image.pixels[i] + 5
                }
            }
            let target = folder + "/" + id + ".png"
            try FileIO.createDirectories(FilePaths.parent(of: target))
            try PNGFile.write(image, to: target)
        }
    }

    /// The bytes of the files under `folder`, and the disk space they take (512-byte
    /// blocks the file system gives them, as `du` counts).
    static func folderSize(_ folder: String) -> (bytes: Int, blocks: Int) {
        var bytes = 0, blocks = 0
        for relative in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? [] {
            var info = stat()
            guard stat(folder + "/" + relative, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFREG { bytes += Int(info.st_size) }
            blocks += Int(info.st_blocks) * 512
        }
        return (bytes, blocks)
    }

    /// Runs the page script (python3, Playwright, Debian's Chromium) on `report`.
    static func reportLoad(script: String, report: String) throws -> RunFigures.ReportLoad {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, report]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("the page script exited \(process.terminationStatus)") }
        return try JSONFile.decode(RunFigures.ReportLoad.self, from: [UInt8](data))
    }
}
