import PopoverDiff
import PopoverHarness
import Testing
import TestSupport

/// What `swift test` says of a case: the golden suite's messages, built from results made
/// by hand.
@Suite("The golden suite's messages")
struct GoldenMessageTests {
    @Test("a failing case names its change and what changed, and both ways to accept it")
    func failing() throws {
        var r = CaseResult.sample(.sample(skin: "s", direction: .up, label: "a"), status: .failed, message: "fail: 3 different pixels",
                                  metrics: ComparisonMetrics(width: 4, height: 4, differentPixels: 3, maxChannelDelta: 9,
                                                             meanAbsoluteError: 0.5, psnr: 40, pass: false, tolerance: "exact"))
        r.explanation = "arrow apex moved +1 pt (x 10 -> 11)"
        r.change = "c0123abcd"
        r.artifacts.actual = SavedImage(path: "cases/s/up/a@1x.actual.png", width: 4, height: 4)
        let text = try #require(GoldenMessages.text(r, reports: "R"))
        #expect(text == "s/up/a@1x: failed: fail: 3 different pixels (differentPixels 3, maxChannelDelta 9, meanAbsoluteError "
            + "0.5000, psnr 40.00 dB); arrow apex moved +1 pt (x 10 -> 11) [change c0123abcd]; actual R/cases/s/up/a@1x.actual.png; "
            + "report R/index.html; if the change is intended: popover-goldens accept 's/up/a@1x' (or the whole change: "
            + "popover-goldens accept --change c0123abcd)")
    }

    @Test("a golden recorded by this run is said, for a re-run to compare; a passing case says nothing")
    func recordedAndPassing() {
        let new = CaseResult.sample(.sample(skin: "s", direction: .up, label: "n"), status: .new,
                                    message: "no golden yet: recorded Goldens/s/up/n@1x.png")
        #expect(GoldenMessages.text(new, reports: "R")
            == "s/up/n@1x: recorded Goldens/s/up/n@1x.png (no golden yet: recorded Goldens/s/up/n@1x.png); re-run to compare")
        let passed = CaseResult.sample(.sample(skin: "s", direction: .up, label: "p"), status: .passed, message: "identical")
        #expect(GoldenMessages.text(passed, reports: "R") == nil)
    }

    @Test("the pictures a failing case attaches: the triptych first, then expected, actual and heatmap")
    func picturesOrder() {
        var r = CaseResult.sample(.sample(skin: "s", direction: .up, label: "a"), status: .failed, message: "fail")
        r.artifacts = CaseArtifacts(expected: SavedImage(path: "cases/s/up/a@1x.expected.png", width: 4, height: 4),
                                    actual: SavedImage(path: "cases/s/up/a@1x.actual.png", width: 4, height: 4),
                                    heatmap: SavedImage(path: "cases/s/up/a@1x.heatmap.png", width: 4, height: 4),
                                    thumbnail: SavedImage(path: "cases/s/up/a@1x.thumbnail.png", width: 4, height: 4),
                                    triptych: SavedImage(path: "cases/s/up/a@1x.triptych.png", width: 464, height: 48))
        let pictures = GoldenMessages.pictures(r, reports: "R")
        #expect(pictures.map(\.kind) == ["triptych", "expected", "actual", "heatmap"])
        #expect(pictures.map(\.path) == ["R/cases/s/up/a@1x.triptych.png", "R/cases/s/up/a@1x.expected.png",
                                         "R/cases/s/up/a@1x.actual.png", "R/cases/s/up/a@1x.heatmap.png"])
    }
}
