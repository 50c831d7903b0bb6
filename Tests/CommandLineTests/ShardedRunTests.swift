import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// Shards through the tool and through the golden suite, as CI runs them.
@Suite("Sharded runs through the tool", .serialized,
       .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct ShardedRunTests {
    @Test("check --shard I/N on three machines, merge-reports: the unsharded run's counts, failures and exit; refusals exit 2")
    func mergeThroughTheTool() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let filter = "path-slate/down"
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        for id in [ids[1], ids[40]] {
            var image = try PNGFile.read(path: folder.file("Goldens/\(id).png"))
            image.pixels.replaceSubrange(0..<4, with: [0, 0, 255, 255])
            try PNGFile.write(image, to: folder.file("Goldens/\(id).png"))
        }
        let whole = try await runTool(["check", "--filter", filter, "--record", "never", "--reports", "whole"], in: folder.path)
        #expect(whole.status == 1)
        for index in 1...3 {
            let shard = try await runTool(["check", "--filter", filter, "--record", "never", "--shard", "\(index)/3",
                                     "--reports", "shard\(index)"], in: folder.path)
            #expect(shard.status == 0 || shard.status == 1, "\(shard.stdout)\(shard.stderr)")
        }
        let merged = try await runTool(["merge-reports", "shard1", "shard2", "shard3", "--out", "merged"], in: folder.path)
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
        let summary = { (name: String) throws -> [String: Any] in
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("\(name)/summary.json")))) as? [String: Any])
        }
        #expect(try summary("merged")["counts"] as? [String: Int] == summary("whole")["counts"] as? [String: Int])
        let failing = { (name: String) throws -> [String] in
            ((try summary(name)["cases"] as? [[String: Any]]) ?? []).filter { $0["status"] as? String == "failed" }.compactMap { $0["id"] as? String }
        }
        #expect(try failing("merged") == failing("whole"))
        #expect(try failing("merged") == [ids[1], ids[40]])

        let missing = try await runTool(["merge-reports", "shard1", "shard3", "--out", "m2"], in: folder.path)
        #expect(missing.status == 2 && missing.stderr.contains("shard 2 of 3 is missing"), "\(missing.stderr)")
        let twice = try await runTool(["merge-reports", "shard1", "shard2", "shard2", "shard3", "--out", "m2"], in: folder.path)
        #expect(twice.status == 2 && twice.stderr.contains("shard 2 is given twice"), "\(twice.stderr)")
        let unsharded = try await runTool(["merge-reports", "whole", "shard2", "--out", "m2"], in: folder.path)
        #expect(unsharded.status == 2 && unsharded.stderr.contains("whole: not the result of a sharded run"), "\(unsharded.stderr)")
        // A shard of another run: a golden changed between the shards' checks.
        var image = try PNGFile.read(path: folder.file("Goldens/\(ids[5]).png"))
        image.pixels[4] ^= 1
        try PNGFile.write(image, to: folder.file("Goldens/\(ids[5]).png"))
        _ = try await runTool(["check", "--filter", filter, "--record", "never", "--shard", "2/3", "--reports", "other2"], in: folder.path)
        let foreign = try await runTool(["merge-reports", "shard1", "other2", "shard3", "--out", "m2"], in: folder.path)
        #expect(foreign.status == 2 && foreign.stderr.contains("comes from a different run (its goldens differ)"), "\(foreign.stderr)")
    }

    @Test("the golden suite sharded with GOLDEN_SHARD, by pixels and by GOLDEN_SHARD_TIMINGS: the shards' cases add up to what GOLDEN_FILTER selects, and each passes")
    func goldenSuiteSharded() async throws {
        // This test bundle itself, run again for the golden suite alone, once per shard.
        let bundle = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        // One skin's cases (GOLDEN_FILTER, as a user narrows the suite): what is tested is how
        // shards share out whatever the suite selects, which the whole catalog adds nothing to
        // but 2498 more drawings per round.
        let filter = "gik-tinted/*"
        let selected = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter)
        let reports = TemporaryFolder()
        defer { reports.remove() }
        // By pixels, then by the timings the first round's first shard recorded (the
        // other cases estimated): either way the shards add up to the catalog.
        for round in ["pixels", "timings"] {
            var total = 0
            for index in 1...3 {
                var environment = ["GOLDEN_SHARD": "\(index)/3", "GOLDEN_FILTER": filter,
                                   "GOLDEN_REPORTS": reports.file("\(round)-\(index)"), "CI": "1"]
                if round == "timings" { environment["GOLDEN_SHARD_TIMINGS"] = reports.file("pixels-1/summary.json") }
                let run = try await runProgram(bundle, ["--testing-library", "swift-testing", "--filter", "GoldenSuite"],
                                         environment: environment)
                // Swift Testing reports on standard error.
                let output = run.stdout + run.stderr
                #expect(run.status == 0, "\(round) shard \(index): \(output.suffix(2000))")
                let counted = try #require(output.firstMatch(of: /"matches its golden" with (\d+) test cases passed/),
                                           "\(round) shard \(index) printed no count")
                total += Int(counted.1) ?? 0
            }
            #expect(selected.count > 100 && total == selected.count, "\(round): \(total) of \(selected.count)")
        }
    }
}
