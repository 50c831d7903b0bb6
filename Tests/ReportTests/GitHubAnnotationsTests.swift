import PopoverDiff
import PopoverHarness
import PopoverReport
import Testing
import TestSupport

/// The `::error` lines for GitHub Actions, against lines written out by hand.
@Suite("GitHub annotations")
struct GitHubAnnotationsTests {
    static func failing(_ label: String, skin: String = "gik-default", pixels: Int, explanation: String?) -> CaseResult {
        var r = CaseResult.sample(.sample(skin: skin, direction: .up, label: label), status: .failed, message: "fail: \(pixels)",
                                  metrics: ComparisonMetrics(width: 1, height: 1, differentPixels: pixels, maxChannelDelta: 1,
                                                             meanAbsoluteError: 0, psnr: nil, pass: false, tolerance: "exact"))
        r.explanation = explanation
        return r
    }

    @Test("60 failing cases: the 50 worst, one line each, then one line saying 10 more")
    func capped() {
        // Case i has i + 1 different pixels: the worst is case 59, the 50th worst case 10.
        let results = (0..<60).map { Self.failing("case-\($0)", pixels: $0 + 1, explanation: "moved \($0)") }
        let lines = GitHubAnnotations.lines(RunRecord.sample(results: results))
        #expect(lines.count == 51)
        #expect(lines[0] == "::error file=Goldens/gik-default/up/case-59@1x.png,title=gik-default/up/case-59@1x::moved 59")
        #expect(lines[49] == "::error file=Goldens/gik-default/up/case-10@1x.png,title=gik-default/up/case-10@1x::moved 10")
        #expect(lines[50] == "::error title=popover-goldens::and 10 more failing cases; the job summary and the report list them all")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("::error file=Goldens/gik-default/up/case-") })
    }

    @Test("50 failing cases: 50 lines and no more; passing cases none")
    func exactlyFifty() {
        let results = (0..<50).map { Self.failing("case-\($0)", pixels: 1, explanation: nil) }
            + [CaseResult.sample(.sample(skin: "gik-default", direction: .down, label: "fine"), status: .passed, message: "identical")]
        let lines = GitHubAnnotations.lines(RunRecord.sample(results: results))
        #expect(lines.count == 50)
        // No explanation: the case's message.
        #expect(lines[0] == "::error file=Goldens/gik-default/up/case-0@1x.png,title=gik-default/up/case-0@1x::fail: 1")
    }

    @Test("escaping: % CR LF in the message; also : and , in properties")
    func escaping() {
        let r = Self.failing("x", skin: "a:b,c%d", pixels: 1, explanation: "50% of\r\nthe arrow: moved, up")
        #expect(GitHubAnnotations.lines(RunRecord.sample(results: [r])) == [
            "::error file=Goldens/a%3Ab%2Cc%25d/up/x@1x.png,title=a%3Ab%2Cc%25d/up/x@1x::50%25 of%0D%0Athe arrow: moved, up",
        ])
    }
}
