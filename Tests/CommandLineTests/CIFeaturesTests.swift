import Foundation
import PopoverHarness
import Testing
import TestSupport

/// The tool in a CI job: a dry compare that gates elsewhere, and a shard from the CI's
/// own variables.
@Suite("At home in CI, through the tool")
struct CIFeaturesTests {
    static let filter = "path-slate/up/popover8"

    func project() throws -> (TemporaryFolder, [String]) {
        let folder = TemporaryFolder("ci-features")
        try linkCommittedSkins(into: folder.path)
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        return (folder, ids)
    }

    @Test("check --no-fail exits 0 with the same report a failing check writes")
    func noFail() async throws {
        let (folder, ids) = try project()
        defer { folder.remove() }
        try FileManager.default.removeItem(atPath: folder.file("Goldens/\(ids[0]).png"))
        let failing = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", "A"], in: folder.path)
        #expect(failing.status == 1)
        let dry = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", "B", "--no-fail"], in: folder.path)
        #expect(dry.status == 0, "\(dry.stdout)")
        #expect(dry.stdout.contains("--no-fail: exit 0 (the run's own status is 1)"))
        let a = try RunRecord.read(folder.file("A/summary.json")), b = try RunRecord.read(folder.file("B/summary.json"))
        #expect(b.exitCode == 1 && b.counts == a.counts)
        #expect(b.results.map { "\($0.id) \($0.status)" } == a.results.map { "\($0.id) \($0.status)" })
    }

    @Test("check --shard auto takes the shard from CircleCI's variables and says so; none set is an error naming them")
    func autoShard() async throws {
        let (folder, ids) = try project()
        defer { folder.remove() }
        var judged: [String] = []
        for index in 0..<2 {
            let run = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--shard", "auto", "--reports", "S\(index)"],
                                  in: folder.path, environment: ["CIRCLE_NODE_INDEX": "\(index)", "CIRCLE_NODE_TOTAL": "2"])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("note: shard \(index + 1) of 2, from CircleCI's CIRCLE_NODE_INDEX=\(index) and CIRCLE_NODE_TOTAL=2"),
                    "\(run.stdout)")
            let record = try RunRecord.read(folder.file("S\(index)/summary.json"))
            #expect(record.shard?.index == index + 1 && record.shard?.count == 2)
            judged += record.results.map(\.id)
        }
        #expect(judged.sorted() == ids.sorted())
        let none = try await runTool(["check", "--filter", Self.filter, "--shard", "auto"], in: folder.path)
        #expect(none.status == 2)
        #expect(none.stderr.contains("--shard auto: no CI parallelism variables are set (looked for CI_NODE_INDEX/CI_NODE_TOTAL"),
                "\(none.stderr)")
    }
}
