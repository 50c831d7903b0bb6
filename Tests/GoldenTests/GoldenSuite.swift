import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import Testing
import TestSupport

/// One check of every case (or of this machine's shard: GOLDEN_SHARD=I/N), shared by the
/// parameterized test below: it runs once, on every core, when the first case asks for
/// its verdict, and publishes Reports/index.html (or the folder GOLDEN_REPORTS names).
enum GoldenRun {
    static let catalog: Result<CaseCatalog, any Error> = Result { CaseCatalog.standard(skinsFolder: PackageFolders.skins) }
    static let reports = ProcessInfo.processInfo.environment["GOLDEN_REPORTS"].flatMap { $0.isEmpty ? nil : $0 }
        ?? PackageFolders.root + "/Reports"

    /// GOLDEN_SHARD, when set: the share of the cases this machine judges.
    static let shard: Result<Shard?, HarnessError> = Result { () throws(HarnessError) -> Shard? in
        guard let text = ProcessInfo.processInfo.environment["GOLDEN_SHARD"], !text.isEmpty else { return nil }
        return try Shard(parsing: text)
    }

    /// GOLDEN_SHARD_TIMINGS, when set: an earlier run's summary.json to share the cases
    /// out by (as `check --shard-timings`).
    static let timings: Result<[String: Double]?, any Error> = Result {
        guard let file = ProcessInfo.processInfo.environment["GOLDEN_SHARD_TIMINGS"], !file.isEmpty else { return nil }
        return try RunRecord.read(file).caseSeconds
    }

    static var caseIDs: [String] {
        guard let catalog = try? catalog.get() else { return ["(the case catalog failed to load)"] }
        guard case .success(let shard) = shard else { return ["(GOLDEN_SHARD is not I/N)"] }
        guard case .success(let timings) = timings else { return ["(GOLDEN_SHARD_TIMINGS cannot be read)"] }
        let cases = shard.map { $0.select(catalog.cases, cost: catalog.shardCost(for: catalog.cases, timings: timings)) }
            ?? catalog.cases
        return cases.map(\.id)
    }

    static let outcome: Result<(run: RunRecord, byID: [String: CaseResult]), any Error> = Result {
        var options = CheckOptions()
        options.goldensFolder = PackageFolders.goldens
        options.recordMode = try RecordMode.fromEnvironment()
        options.shard = try shard.get()
        options.shardTimings = try timings.get()
        let run = try ReportFolder(reports).check(CheckRunner(catalog: try catalog.get(), options: options)).run
        return (run, Dictionary(uniqueKeysWithValues: run.results.map { ($0.id, $0) }))
    }
}

@Suite("Goldens")
struct GoldenSuite {
    @Test("matches its golden", arguments: GoldenRun.caseIDs)
    func golden(_ id: String) throws {
        let outcome = try GoldenRun.outcome.get()
        let result = try #require(outcome.byID[id], "no result for \(id)")
        guard result.status.isFailure else { return }
        var metrics = ""
        if let m = result.metrics {
            metrics = " (differentPixels \(m.differentPixels), maxChannelDelta \(m.maxChannelDelta), "
                + "meanAbsoluteError \(String(format: "%.3f", m.meanAbsoluteError)), psnr "
                + (m.psnr.map { String(format: "%.1f", $0) } ?? "inf") + ")"
        }
        // The pictures, for `swift test --attachments-path DIR` and for a person reading.
        var files: [String] = []
        let images = [("expected", result.artifacts.expected), ("actual", result.artifacts.actual),
                      ("heatmap", result.artifacts.heatmap)]
        for case let (kind, image?) in images {
            let path = GoldenRun.reports + "/" + image.path
            files.append("\(kind) \(path)")
            if let bytes = try? FileIO.readBytes(path: path) {
                Attachment.record(bytes, named: id.replacingOccurrences(of: "/", with: "_") + ".\(kind).png")
            }
        }
        let accept = result.status.isAcceptable
            ? "; if the change is intended: popover-goldens accept '\(id)'" : ""
        Issue.record("""
            \(id): \(result.status.rawValue): \(result.message)\(metrics); \
            \(files.isEmpty ? "no images" : files.joined(separator: ", ")); \
            report \(GoldenRun.reports)/index.html\(accept)
            """)
    }

    @Test("the run itself had no errors, and no golden is orphaned")
    func runIsClean() throws {
        let run = try GoldenRun.outcome.get().run
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.orphans.isEmpty, "goldens no case owns: \(run.orphans); `scripts/regenerate-goldens --prune` deletes them")
    }
}
