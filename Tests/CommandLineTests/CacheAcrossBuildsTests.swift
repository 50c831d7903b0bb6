import Foundation
import Testing
import TestSupport

/// The digest cache is keyed by content and by the libpng that decoded it, never by the
/// tool's own file: the loop people run (change the drawing code, build, check) finds the
/// goldens an earlier build decoded.
@Suite("The digest cache across builds", .enabled(if: popoverGoldensExecutable != nil || runningOnCI,
                                                    "popover-goldens was not built beside the tests"))
struct CacheAcrossBuildsTests {
    @Test("a check by a rebuilt tool confirms every golden an earlier build decoded, decoding none")
    func survivesRebuild() async throws {
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests (swift build --build-tests)")
        let work = temporaryFolder("cache-rebuild")
        try linkCommittedSkins(into: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        // The same program in two files, as two builds leave it: another path, inode and
        // modification time.
        for build in ["build-1", "build-2"] {
            try FileManager.default.copyItem(atPath: executable, toPath: work + "/" + build)
        }
        let filter = "path-slate/left/sweep*@1x", goldens = work + "/Goldens", cache = work + "/cache"
        let record = try await runProgram(work + "/build-1", ["record", filter, "--goldens", goldens, "--cache", cache,
                                                        "--reports", work + "/Recorded"], in: work)
        try #require(record.status == 0, "\(record.stdout)\(record.stderr)")
        let check = try await runProgram(work + "/build-2", ["check", "--filter", filter, "--goldens", goldens, "--cache", cache,
                                                       "--reports", work + "/Checked", "--record", "never"], in: work)
        #expect(check.status == 0, "\(check.stdout)")
        let data = try Data(contentsOf: URL(fileURLWithPath: work + "/Checked/summary.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(summary["cases"] as? [[String: Any]])
        let decoded = cases.filter { $0["confirmedFromCache"] as? Bool != true }.compactMap { $0["id"] as? String }
        #expect(cases.count == 30 && decoded.isEmpty, "decoded again after the rebuild: \(decoded.prefix(5))")
    }
}
