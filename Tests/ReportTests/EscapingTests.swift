import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PopoverDiff
import PopoverHarness
import PopoverImage
import PopoverReport
import Testing
import TestSupport

/// Whatever an ID, a message or a file name holds, it reaches the page as text: no
/// element, attribute or script of its own, and it reads back exactly as written.
@Suite("Hostile strings in the report")
final class HostileStrings {
    static let hostile = "<script>alert(1)</script>&\"'"
    let scratch: TemporaryFolder
    let odd: CaseInfo
    let spaced: CaseInfo
    let page: Page

    init() throws {
        scratch = TemporaryFolder("escaping")
        odd = CaseInfo.sample(skin: Self.hostile, direction: .up, label: "popover8-portrait",
                              anchor: "popover8", orientation: .portrait)
        // Characters a URL gives meaning to, and text that looks like an entity.
        spaced = CaseInfo.sample(skin: "odd skin", direction: .left, scale: 2, family: .sweep,
                                 label: "a b#c?d%e&lt;b&gt;", sweepSize: "104x120", offset: -3.5)
        let expected = RGBAImage(width: 4, height: 3, pixels: [UInt8](repeating: 200, count: 48))
        let actual = Swatch.marked(expected)
        let comparison = ImageComparison.compare(expected: expected, actual: actual, tolerance: .exact, wantsDiffMap: true)
        let folder = ReportFolder(scratch.path + "/reports")
        let staging = try folder.stage()
        var failed = CaseResult.sample(odd, status: .failed, message: "<img src=x onerror=alert(2)> & </details></template></script>",
                                       metrics: comparison.metrics, width: 4, height: 3)
        failed.artifacts = staging.keep(CaseImages(expected: expected, actual: actual, diff: comparison.diffMap), of: odd)
        failed.changedRegion = comparison.diffMap?.changedRegion
        var missing = CaseResult.sample(spaced, status: .missing, message: "no golden &amp; \"quoted\" 'single'",
                                        width: 4, height: 3)
        missing.artifacts = staging.keep(CaseImages(actual: actual), of: spaced)
        var run = RunRecord.sample(results: [failed, missing], orphans: ["</li><script>alert(3)</script>"],
                                  errors: ["<b>run error</b> &copy;"])
        run.filter = "\"><script>alert(4)</script>"
        try folder.publish(&run, from: staging)
        page = try Page(folder: scratch.path + "/reports")
    }

    deinit { scratch.remove() }

    @Test("nothing becomes markup")
    func nothingBecomesMarkup() {
        let html = page.html
        for raw in ["<script>alert", "<img src=x", "<b>run error", "</li><script>", "\"><script>"] {
            #expect(!html.contains(raw), "\(raw) reached the page as markup")
        }
        // Only the page's own script (its six files in one element) and its data, each
        // opened and closed once.
        #expect(countOccurrences(of: "<script", in: html) == 2)
        #expect(countOccurrences(of: "</script", in: html) == 2)
        // A closing tag in a message closes nothing: every element the page opens, it closes.
        #expect(countOccurrences(of: "<details", in: html) == countOccurrences(of: "</details>", in: html))
        #expect(countOccurrences(of: "<template", in: html) == countOccurrences(of: "</template>", in: html))
        // The one data block is JSON the script parses, never runs: no "<" in it at all,
        // so no string in it can end it. No inline handlers anywhere.
        #expect(countOccurrences(of: "<script type=", in: html) == 1)
        #expect(page.dataText.map { !$0.contains("<") } == true)
        #expect(!html.contains(" onerror=\"") && !html.contains(" onclick=\""))
    }

    @Test("strings read back as written")
    func stringsReadBackAsWritten() {
        let html = page.html
        let attribute = "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;/up/popover8-portrait@1x"
        #expect(html.contains("title=\"\(attribute) — failed\""))   // the overview cell
        // The data the script draws the lines from holds the strings as they are:
        // entity-shaped text stays text ("&lt;" is "&lt;", not "<").
        #expect(page.cases.compactMap { $0["id"] as? String } == [odd.id, spaced.id])
        #expect(spaced.id == "odd skin/left/a b#c?d%e&lt;b&gt;@2x")
        #expect(page.caseData(spaced.id)?["message"] as? String == "no golden &amp; \"quoted\" 'single'")
        #expect(page.caseData(odd.id)?["message"] as? String == "<img src=x onerror=alert(2)> & </details></template></script>")
        #expect(html.contains("title=\"odd skin/left/a b#c?d%e&amp;lt;b&amp;gt;@2x — missing\""))
        #expect(html.contains("&lt;b&gt;run error&lt;/b&gt; &amp;copy;"))
    }

    @Test("odd file names still link")
    func oddFileNamesStillLink() throws {
        let sources = page.imageSources + page.dataImageSources
        #expect(page.dataImageSources.count >= 4)   // expected, actual, heatmap, and the missing case's actual
        for source in sources {
            #expect(!source.contains("<") && !source.contains("\"") && !source.contains(" ") && !source.contains("#"))
            let file = try #require(page.file(for: source), "\(source) is not relative")
            #expect(FileManager.default.fileExists(atPath: file), "\(source) names no file")
        }
        let ids = Set(page.values(of: "id"))
        for reference in page.values(of: "href") where reference.hasPrefix("#") {
            #expect(ids.contains(String(reference.dropFirst())), "\(reference) links nowhere")
        }
    }

    @Test("machine readable files hold the raw strings")
    func machineReadableFilesHoldTheRawStrings() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: page.folder + "/summary.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        #expect(cases.compactMap { $0["id"] as? String } == [odd.id, spaced.id])
        let xml = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: page.folder + "/junit.xml")))
        let names = try xml.nodes(forXPath: "//testcase").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        // One testcase per case, and one for the run error.
        #expect(names == [odd.id, spaced.id, "<b>run error</b> &copy;"])
    }
}
