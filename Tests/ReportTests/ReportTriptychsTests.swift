import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverReport
import Testing
import TestSupport

/// Which failing cases get a triptych: the 20 worst (summary.md's table), in its order.
@Suite("Triptychs of a report")
struct ReportTriptychsTests {
    /// 23 failing cases, case k with k + 1 of its 24 pixels changed, and a case whose
    /// golden was missing (no expected picture): by the worst-first order (most different
    /// pixels first), cases 22 down to 3 get triptychs; 0, 1 and 2 and the missing one do
    /// not.
    @Test("the 20 worst failing cases get one, the rest none")
    func worstTwenty() throws {
        let scratch = TemporaryFolder("triptychs")
        defer { scratch.remove() }
        let folder = ReportFolder(scratch.path + "/reports")
        let staging = try folder.stage()
        let expected = RGBAImage(width: 6, height: 4, pixels: [UInt8](repeating: 200, count: 96))
        var results: [CaseResult] = []
        for k in 0..<23 {
            var actual = expected
            for p in 0...k { actual.pixels[p * 4] = 10 }
            let comparison = ImageComparison.compare(expected: expected, actual: actual, tolerance: .exact, wantsDiffMap: true)
            let info = CaseInfo.sample(skin: "s", direction: .up, label: "case\(k)")
            var result = CaseResult.sample(info, status: .failed, message: "differs", metrics: comparison.metrics,
                                           width: 6, height: 4)
            result.artifacts = staging.keep(CaseImages(expected: expected, actual: actual, diff: comparison.diffMap), of: info)
            results.append(result)
        }
        let lost = CaseInfo.sample(skin: "s", direction: .down, label: "lost")
        var missing = CaseResult.sample(lost, status: .missing, message: "no golden", width: 6, height: 4)
        missing.artifacts = staging.keep(CaseImages(actual: expected), of: lost)
        results.append(missing)
        var run = RunRecord.sample(results: results)
        try folder.publish(&run, from: staging)

        let withTriptych = Set(run.results.filter { $0.artifacts.triptych != nil }.map(\.id))
        #expect(withTriptych == Set((3..<23).map { "s/up/case\($0)@1x" }))
        // Recorded in summary.json as in the run handed back, and each file there: 6 x 4
        // pictures go up 4 (24 wide, under the narrowest column 144): 3 * 144 + 32 = 464
        // by 28 + 16 + 8 = 52.
        let saved = try RunRecord.read(scratch.path + "/reports/summary.json")
        #expect(Set(saved.results.filter { $0.artifacts.triptych != nil }.map(\.id)) == withTriptych)
        for id in withTriptych {
            let image = try PNGFile.read(path: scratch.path + "/reports/cases/\(id).triptych.png")
            #expect(image.width == 464 && image.height == 52, "\(id)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/reports/cases/s/up/case2@1x.triptych.png"))
    }

    @Test("docs/ci.md states how many cases get one as the code makes them")
    func docsSayHowMany() throws {
        let page = try String(contentsOfFile: PackageFolders.root + "/docs/ci.md", encoding: .utf8)
        let stated = try #require(page.firstMatch(of: /Triptychs are made for the (\d+) worst failing cases/))
        #expect(Int(stated.1) == SummaryMarkdown.worstCasesShown)
    }
}
