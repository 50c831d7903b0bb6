import Foundation
import PopoverHarness
import Testing

/// The package's own folders, found from this file's path (Tests/GoldenTests/...).
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// One check of every case, shared by the parameterized test below: it runs once, on
/// every core, when the first case asks for its verdict, and writes Reports/index.html.
enum GoldenRun {
    static let catalog: Result<CaseCatalog, any Error> = Result { try CaseCatalog.standard() }

    static var caseIDs: [String] { (try? catalog.get().cases.map(\.id)) ?? ["(the case catalog failed to load)"] }

    static let outcome: Result<(run: CheckRun, byID: [String: CaseResult]), any Error> = Result {
        var options = CheckOptions()
        options.goldensFolder = packageRoot + "/Goldens"
        options.reportsFolder = packageRoot + "/Reports"
        options.recordMode = try RecordMode.fromEnvironment()
        let run = try CheckRunner(catalog: catalog.get(), options: options).run()
        return (run, Dictionary(uniqueKeysWithValues: run.results.map { ($0.id, $0) }))
    }
}

@Suite("Goldens")
struct GoldenSuite {
    @Test("matches its golden", arguments: GoldenRun.caseIDs)
    func golden(_ id: String) throws {
        let outcome = try GoldenRun.outcome.get()
        let report = outcome.run.reportPath ?? "(no report written)"
        let result = try #require(outcome.byID[id], "no result for \(id)")
        var metrics = ""
        if let m = result.metrics {
            metrics = " (differentPixels \(m.differentPixels), maxChannelDelta \(m.maxChannelDelta), "
                + "meanAbsoluteError \(String(format: "%.3f", m.meanAbsoluteError)), psnr "
                + (m.psnr.map { String(format: "%.1f", $0) } ?? "inf") + ")"
        }
        #expect(!result.status.isFailure, "\(id): \(result.status.rawValue): \(result.message)\(metrics); report: \(report)")
    }

    @Test("the run itself had no errors, and no golden is orphaned")
    func runIsClean() throws {
        let run = try GoldenRun.outcome.get().run
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.orphans.isEmpty, "goldens no case owns: \(run.orphans); `scripts/regenerate-goldens --prune` deletes them")
    }
}
