import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import Testing
import TestSupport

/// One check of every case (or of this machine's shard: GOLDEN_SHARD=I/N, or of the cases
/// GOLDEN_FILTER selects, as `check --filter` reads it), shared by the parameterized test
/// below: it runs once, on every core, when the first case asks for its verdict, and
/// publishes its report outside the repository (`PackageFolders.scratch`/Reports, or the
/// folder GOLDEN_REPORTS names). It records nothing unless GOLDEN_RECORD asks it to: the
/// suite leaves the repository as it found it.
enum GoldenRun {
    static let catalog: Result<CaseCatalog, any Error> = Result { CaseCatalog.standard(skinsFolder: PackageFolders.skins) }
    static let reports = ProcessInfo.processInfo.environment["GOLDEN_REPORTS"].flatMap { $0.isEmpty ? nil : $0 }
        ?? PackageFolders.scratch + "/Reports"

    /// `never`, unless GOLDEN_RECORD names a mode.
    static let recordMode: Result<RecordMode, HarnessError> = Result { () throws(HarnessError) -> RecordMode in
        guard let mode = ProcessInfo.processInfo.environment["GOLDEN_RECORD"], !mode.isEmpty else { return .never }
        return try RecordMode.fromEnvironment()
    }

    /// GOLDEN_SHARD, when set: the share of the cases this machine judges.
    static let shard: Result<Shard?, HarnessError> = Result { () throws(HarnessError) -> Shard? in
        guard let text = ProcessInfo.processInfo.environment["GOLDEN_SHARD"], !text.isEmpty else { return nil }
        if text == CIShard.word { return try CIShard.from(environment: ProcessInfo.processInfo.environment).shard }
        return try Shard(parsing: text)
    }

    /// GOLDEN_FILTER, when set: only the cases it selects are drawn and judged.
    static let filter = ProcessInfo.processInfo.environment["GOLDEN_FILTER"].flatMap { $0.isEmpty ? nil : $0 }

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
        let selected = catalog.cases(matching: filter)
        guard !selected.isEmpty else { return ["(GOLDEN_FILTER '\(filter ?? "")' matches no case)"] }
        let cases = shard.map { $0.select(selected, cost: catalog.shardCost(for: selected, timings: timings)) } ?? selected
        return cases.map(\.id)
    }

    static let outcome: Result<(run: RunRecord, byID: [String: CaseResult]), any Error> = Result {
        var options = CheckOptions()
        options.goldensFolder = PackageFolders.goldens
        options.recordMode = try recordMode.get()
        options.shard = try shard.get()
        options.shardTimings = try timings.get()
        options.filter = filter
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
        guard let message = GoldenMessages.text(result, reports: GoldenRun.reports) else { return }
        // The pictures, for `swift test --attachments-path DIR` and for a person reading.
        for (kind, path) in GoldenMessages.pictures(result, reports: GoldenRun.reports) {
            if let bytes = try? FileIO.readBytes(path: path) {
                Attachment.record(bytes, named: id.replacingOccurrences(of: "/", with: "_") + ".\(kind).png")
            }
        }
        Issue.record(Comment(rawValue: message))
    }

    @Test("the suite writes nothing inside the repository: its report and the fault injection's go outside, no golden is recorded")
    func writesOutsideTheRepository() throws {
        let root = PackageFolders.root + "/"
        let environment = ProcessInfo.processInfo.environment
        if environment["GOLDEN_REPORTS"]?.isEmpty ?? true {
            #expect(!GoldenRun.reports.hasPrefix(root) && GoldenRun.reports.hasPrefix("/"), "\(GoldenRun.reports)")
        }
        #expect(!PackageFolders.testReports.hasPrefix(root), "\(PackageFolders.testReports)")
        let scratch = TemporaryFolder()
        defer { scratch.remove() }
        #expect(!scratch.path.hasPrefix(root))
        if environment["GOLDEN_RECORD"]?.isEmpty ?? true {
            #expect(try GoldenRun.recordMode.get() == .never)
        }
    }

    @Test("the run itself had no errors, and no golden is orphaned")
    func runIsClean() throws {
        let run = try GoldenRun.outcome.get().run
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.orphans.isEmpty, "goldens no case owns: \(run.orphans); `scripts/regenerate-goldens --prune` deletes them")
    }
}
