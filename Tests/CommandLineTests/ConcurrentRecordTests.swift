import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// Two `record` processes at once over overlapping cases, sharing one goldens folder and
/// one digest cache: goldens are separate files written by rename, each folder's facts
/// table is read, changed and written under the goldens folder's lock, and the cache
/// merges under a lock, so neither run's work is lost to the other's.
@Suite("Two record runs at once", .enabled(if: popoverGoldensExecutable != nil || runningOnCI,
                                           "popover-goldens was not built beside the tests"))
struct ConcurrentRecordTests {
    @Test("overlapping record runs at once: every golden of both is whole and right, and the shared cache knows them all")
    func twoRecordsAtOnce() async throws {
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests (swift build --build-tests)")
        let work = temporaryFolder("two-records")
        try linkCommittedSkins(into: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let goldens = work + "/Goldens", cache = work + "/cache"
        // Left sweeps at 1x in one run, every sweep of the path skin at 1x in the other:
        // 30 cases both write, 90 only the second.
        let filters = ["path-slate/left/sweep*@1x", "path-slate/*/sweep*@1x"]
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let first = try catalog.cases(matching: filters[0]).map(\.id)
        let all = try catalog.cases(matching: filters[1]).map(\.id)
        try #require(first.count == 30 && all.count == 120)

        for round in 0..<3 {
            try? FileManager.default.removeItem(atPath: goldens)
            let runs = try filters.enumerated().map { i, filter in
                let process = toolProcess(executable, ["record", filter, "--goldens", goldens, "--cache", cache,
                                                       "--reports", work + "/Reports-\(i)", "--jobs", "2"], in: work)
                // A case that could not be written is said on standard output (the run's
                // summary), a bad value on standard error: both kept for the message.
                for stream in ["out", "err"] {
                    _ = FileManager.default.createFile(atPath: work + "/record-\(i).\(stream)", contents: nil)
                }
                process.standardOutput = FileHandle(forWritingAtPath: work + "/record-\(i).out")
                process.standardError = FileHandle(forWritingAtPath: work + "/record-\(i).err")
                return process
            }
            try await runToExit(runs)
            let said = (0..<2).map { i in
                ["out", "err"].map { (try? String(contentsOfFile: work + "/record-\(i).\($0)", encoding: .utf8)) ?? "" }
                    .joined(separator: "\n")
            }
            #expect(runs.map(\.terminationReason) == [.exit, .exit] && runs.map(\.terminationStatus) == [0, 0],
                    "round \(round): \(runs.map(\.terminationReason)) \(runs.map(\.terminationStatus)): \(said)")

            // Every golden either run wrote is whole and holds the committed pixels.
            for id in all {
                let written = try PNGFile.read(path: goldens + "/" + id + ".png")
                let committed = try PNGFile.read(path: PackageFolders.goldens + "/" + id + ".png")
                #expect(written == committed, "round \(round): \(id)")
            }
            #expect(GoldenStore(folder: goldens).allIDs() == all.sorted(), "round \(round): goldens beyond the cases")
            // Both runs wrote rows into the same folders' facts tables: every golden's row is
            // there, tied to it.
            let store = GoldenStore(folder: goldens)
            for id in all {
                let digest = SHA256.hex(try FileIO.readBytes(path: store.path(for: id)))
                #expect(store.facts(for: id, goldenDigest: digest).standing == .recorded, "round \(round): \(id)'s facts")
            }

            // The cache holds what both runs learned: a check with it confirms every case
            // without decoding a golden.
            let check = try await runTool(["check", "--filter", filters[1], "--goldens", goldens, "--cache", cache,
                                     "--reports", work + "/Check", "--record", "never"], in: work)
            #expect(check.status == 0, "round \(round): \(check.stdout)")
            let data = try Data(contentsOf: URL(fileURLWithPath: work + "/Check/summary.json"))
            let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let cases = try #require(summary["cases"] as? [[String: Any]])
            let unconfirmed = cases.filter { $0["confirmedFromCache"] as? Bool != true }.compactMap { $0["id"] as? String }
            #expect(cases.count == all.count && unconfirmed.isEmpty,
                    "round \(round): the cache forgot what a run learned: \(unconfirmed.prefix(5))")
            try? FileManager.default.removeItem(atPath: cache)
        }
    }
}
