import Foundation
import PopoverDiff
import PopoverHarness
import PopoverReport
import Testing
import TestSupport

/// What the page's script draws from: the data block of a hand-built run.
@Suite("The page's data")
struct ReportDataTests {
    /// Three failing cases of one change, with 5, 40 and 12 pixels changed, a new case
    /// (recorded, so in no change) and a passing one.
    static func run() -> RunRecord {
        func failed(_ label: String, pixels: Int) -> CaseResult {
            let metrics = ComparisonMetrics(width: 10, height: 10, differentPixels: pixels, maxChannelDelta: 9,
                                            meanAbsoluteError: 0.1, psnr: 40, pass: false, tolerance: "exact")
            var r = CaseResult.sample(.sample(skin: "flat", direction: .up, label: label), status: .failed,
                                      message: "differs", metrics: metrics, width: 10, height: 10)
            r.explanation = "the drawing changed in the border"
            return r
        }
        var run = RunRecord.sample(results: [
            .sample(.sample(skin: "flat", direction: .up, label: "fine"), status: .passed, message: "identical"),
            failed("a", pixels: 5), failed("b", pixels: 40), failed("c", pixels: 12),
            .sample(.sample(skin: "flat", direction: .down, label: "fresh"), status: .new, message: "recorded"),
        ])
        run.groupChanges()
        return run
    }

    @Test("cases needing attention in the page's order; a change names its members and shows the one with most changed pixels")
    func changesAndCases() throws {
        let run = Self.run()
        // The failing cases' change, and the new case's own (new cases are reviewed too).
        // (The failing cases were made by hand without causes: unexplained.)
        try #require(run.changes.map(\.kind).sorted() == ["new", "unexplained"])
        let drawing = try #require(run.changes.first { $0.kind == "unexplained" })
        let page = Page(html: ReportPage.render(run))
        // Failed before new (the page's order), catalog order within a status; no passing case.
        #expect(page.cases.compactMap { $0["id"] as? String } == ["flat/up/a@1x", "flat/up/b@1x", "flat/up/c@1x", "flat/down/fresh@1x"])
        let all = try #require(page.data["changes"] as? [[String: Any]])
        #expect(all.count == 2)
        let changes = all.filter { $0["id"] as? String == drawing.id }
        try #require(changes.count == 1)
        #expect(changes[0]["members"] as? [Int] == [0, 1, 2])
        #expect(changes[0]["representative"] as? Int == 1)   // "b", 40 pixels
        #expect(changes[0]["explanation"] as? String == drawing.explanation)
        #expect(changes[0]["command"] as? String == "popover-goldens accept --change \(drawing.id)")
        // Each case names its change, the new one its own.
        #expect(page.caseData("flat/down/fresh@1x")?["change"] as? String == run.changes.first { $0.kind == "new" }?.id)
        #expect(page.caseData("flat/up/c@1x")?["change"] as? String == drawing.id)
    }

    @Test("a change shows the member where its change is easiest to see: the largest share of changed pixels, not the most pixels nor the largest image; the regions go to the page")
    func representativeByShare() throws {
        func failed(_ label: String, side: Int, pixels: Int) -> CaseResult {
            let metrics = ComparisonMetrics(width: side, height: side, differentPixels: pixels, maxChannelDelta: 9,
                                            meanAbsoluteError: 0.1, psnr: 40, pass: false, tolerance: "exact")
            var r = CaseResult.sample(.sample(skin: "flat", direction: .up, label: label), status: .failed,
                                      message: "differs", metrics: metrics, width: side, height: side)
            r.explanation = "the drawing changed in the border"
            return r
        }
        // 400 of 10,000 pixels (4 %), 20 of 100 (20 %), 30 of 400 (7.5 %).
        var big = failed("big", side: 100, pixels: 400)
        big.changedRegions = [PixelRegion(x: 0, y: 0, width: 64, height: 1), PixelRegion(x: 64, y: 0, width: 36, height: 1)]
        var small = failed("small", side: 10, pixels: 20)
        small.changedRegions = [PixelRegion(x: 0, y: 0, width: 10, height: 2)]
        var run = RunRecord.sample(results: [big, small, failed("middle", side: 20, pixels: 30)])
        run.groupChanges()
        try #require(run.changes.count == 1)
        let page = Page(html: ReportPage.render(run))
        let changes = try #require(page.data["changes"] as? [[String: Any]])
        #expect(changes[0]["representative"] as? Int == 1)   // "small"
        #expect(page.caseData("flat/up/big@1x")?["regions"] as? [[Int]] == [[0, 0, 64, 1], [64, 0, 36, 1]])
        // One region is the changed region itself: not repeated.
        #expect(page.caseData("flat/up/small@1x")?["regions"] == nil)
    }

    @Test("the page holds the frames the script fills, with their heights, and the filter bar from the start")
    func framesInTheMarkup() {
        let page = Page(html: ReportPage.render(Self.run()))
        let ids = page.values(of: "id")
        for id in ["bar", "changes", "changes-list", "cases", "case-list", "report-data", "overview"] {
            #expect(ids.contains(id), "\(id)")
        }
        // The bar is shown from the first paint, not revealed later; the lists say how
        // many lines they will hold, so their height is there before the script runs.
        let barTag = page.html.range(of: "<nav[^>]*>", options: .regularExpression).map { String(page.html[$0]) } ?? ""
        #expect(barTag.contains("id=\"bar\"") && !barTag.contains("hidden"), "\(barTag)")
        #expect(page.values(of: "style").contains("--n:4"))   // four cases needing attention
        #expect(page.values(of: "style").contains("--n:2"))   // two changes: the failing cases', the new case's
        // The skip link goes to the changes.
        let skip = page.html.range(of: "<a class=\"skip\"[^>]*>", options: .regularExpression).map { String(page.html[$0]) } ?? ""
        #expect(skip.contains("href=\"#changes\""), "\(skip)")
    }
}
