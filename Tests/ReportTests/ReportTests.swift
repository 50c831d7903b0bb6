import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PopoverDiff
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// A check with every kind of trouble: its report must show each, link only files it
/// holds, and agree with summary.json and junit.xml.
@Suite("The report of a failing run")
final class FailingRunReport {
    let scratch: TemporaryFolder
    let run: RunRecord
    let page: Page
    let cases: [GoldenCase]
    let changed: [String], resized: String, deleted: String, garbled: String
    let orphan = "gik-default/up/no-such-case@1x"

    init() throws {
        scratch = TemporaryFolder("failing")
        let cases = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "gik-default/up")
        self.cases = cases
        let sweeps = cases.filter { $0.family == .sweep }
        let scenes = cases.filter { $0.family == .scene }
        changed = [scenes[0].id, sweeps[3].id]
        resized = scenes[5].id
        deleted = scenes[6].id
        garbled = sweeps[0].id
        let (deleted, garbled, orphan) = (self.deleted, self.garbled, self.orphan)
        run = try recordThenCheck(scratch, filter: "gik-default/up",
                                  faults: Faults(changed: Set(changed), resized: [resized])) { goldens, _ in
            try FileManager.default.removeItem(atPath: "\(goldens)/\(deleted).png")
            try Data("not a png".utf8).write(to: URL(fileURLWithPath: "\(goldens)/\(garbled).png"))
            try FileManager.default.copyItem(atPath: "\(goldens)/\(cases[1].id).png", toPath: "\(goldens)/\(orphan).png")
        }
        page = try Page(folder: scratch.path + "/reports")
    }

    deinit { scratch.remove() }

    @Test("the heatmap legend's bar runs through magma from magnitude 1 at 0% to 255 at 100%")
    func legendBar() {
        // Magma at t = 0.15 and 0.85, worked by hand in DiffTests' HeatmapTests.colourByHand.
        let first = "#271154", last = "#feb77e"
        #expect(page.html.contains("background:linear-gradient(to right, \(first) 0.0%, "), "\(first)")
        #expect(page.html.contains(", \(last) 100.0%)"), "\(last)")
    }

    @Test("counts are what was injected")
    func countsAreWhatWasInjected() throws {
        // Three cases drawn differently, one golden deleted, one unreadable, one extra.
        #expect(run.count(.failed) == 3)
        #expect(run.count(.missing) == 1)
        #expect(run.count(.error) == 1)
        #expect(run.count(.passed) == cases.count - 5)
        #expect(run.orphans == [orphan])
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/reports/index.html"))
    }

    @Test("summary JSON holds every case and the counts")
    func summaryJSONHoldsEveryCaseAndTheCounts() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: page.folder + "/summary.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let counts = try #require(json["counts"] as? [String: Int])
        #expect(counts == ["passed": cases.count - 5, "failed": 3, "missing": 1, "error": 1, "new": 0, "recorded": 0,
                           "orphaned": 1, "total": cases.count, "pruned": 0, "runErrors": 0, "accepted": 0])
        #expect(json["exitCode"] as? Int == 2)
        let entries = try #require(json["cases"] as? [[String: Any]])
        #expect(entries.map { $0["id"] as? String } == cases.map(\.id))
        let failed = try #require(entries.first { $0["id"] as? String == changed[0] })
        #expect(failed["status"] as? String == "failed")
        let metrics = try #require(failed["metrics"] as? [String: Any])
        // One pixel turned red: one different pixel, and red's full channel lands somewhere.
        #expect(metrics["differentPixels"] as? Int == 1)
        #expect(metrics["pass"] as? Bool == false)
    }

    @Test("JUnit has one testcase per case")
    func junitHasOneTestcasePerCase() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: page.folder + "/junit.xml"))
        let document = try XMLDocument(data: data)
        let testcases = try document.nodes(forXPath: "//testcase")
        #expect(testcases.count == cases.count)
        let names = testcases.compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        #expect(Set(names) == Set(cases.map(\.id)))
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 4)   // 3 failed + 1 missing
        #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
    }

    @Test("page uses no network and only files it has")
    func pageUsesNoNetworkAndOnlyFilesItHas() throws {
        #expect(!page.html.contains("http://") && !page.html.contains("https://"))
        #expect(!page.html.contains("<link") && !page.html.contains("@import"))
        for reference in page.values(of: "src") + page.values(of: "href") + page.dataImageSources {
            #expect(!reference.hasPrefix("//"), "\(reference) is a network reference")
            if reference.hasPrefix("#") { continue }
            let file = try #require(page.file(for: reference), "\(reference) is not a relative path")
            #expect(FileManager.default.fileExists(atPath: file), "\(reference) names no file")
        }
        #expect(page.dataImageSources.count >= 10)
        // The scripts are inline: one script element (the six files, so none runs before
        // the others have), none with a src, and the data block, which is JSON.
        #expect(countOccurrences(of: "<script", in: page.html) == 2)
        #expect(countOccurrences(of: "<script>", in: page.html) == 1)
        #expect(countOccurrences(of: "<script type=\"application/json\"", in: page.html) == 1)
        #expect(page.values(of: "src").allSatisfy { !$0.hasSuffix(".js") })
    }

    @Test("every in page link has its target")
    func everyInPageLinkHasItsTarget() throws {
        let ids = Set(page.values(of: "id"))
        for reference in page.values(of: "href") where reference.hasPrefix("#") {
            #expect(ids.contains(String(reference.dropFirst())), "\(reference) links nowhere")
        }
        // Each case is one overview cell, naming it; a failing one is in the data the
        // script draws its line from, a passing one has a line of its own.
        let cells = page.values(of: "data-case")
        for c in cases {
            #expect(cells.filter { $0 == c.id }.count == 1, "\(c.id)")
            #expect(ids.contains("c-" + c.id) || page.caseData(c.id) != nil, "\(c.id) has no line")
        }
        #expect(page.cases.count == 5)
    }

    @Test("failed case shows expected actual and heatmap")
    func failedCaseShowsExpectedActualAndHeatmap() throws {
        for id in changed {
            let c = try #require(page.caseData(id))
            for kind in ["expected", "actual", "heatmap"] {
                #expect(Page.imageSource(c, kind) == "cases/\(id).\(kind).png", "\(id) lacks \(kind)")
            }
            #expect(c["status"] as? String == "failed")
            #expect((c["region"] as? [Int])?.count == 4)
            let stats = (c["stats"] as? [[String]] ?? []).map { $0[0] }
            #expect(stats.contains("differentPixels"))
            #expect(c["golden"] as? String == run.goldensFolder + "/" + id + ".png")
            // A thumbnail of the heatmap, for the line and the overview's card.
            #expect(Page.imageSource(c, "thumb") == "cases/\(id).thumbnail.png")
        }
        // Sizes differ: expected and actual, no heatmap; wipe and blink still work.
        let resizedCase = try #require(page.caseData(resized))
        #expect(resizedCase["expected"] != nil && resizedCase["actual"] != nil)
        #expect(resizedCase["heatmap"] == nil && resizedCase["region"] == nil)
        // Missing: only what this run drew.
        let missing = try #require(page.caseData(deleted))
        #expect(missing["actual"] != nil && missing["expected"] == nil)
        #expect(page.caseData(garbled)?["status"] as? String == "error")
    }

    @Test("failures come first")
    func failuresComeFirst() throws {
        let order = page.cases.compactMap { $0["id"] as? String }
        // failed (in catalog order), then error, then missing.
        let failed = cases.map(\.id).filter { Set(changed + [resized]).contains($0) }
        #expect(order == failed + [garbled, deleted])
    }

    @Test("summary shows the run")
    func summaryShowsTheRun() throws {
        let html = page.html
        #expect(html.contains("Check failed with errors"))
        for (count, label) in [(cases.count - 5, "passed"), (3, "failed"), (1, "missing"), (1, "errors"), (0, "new"),
                               (0, "re-recorded"), (1, "orphaned goldens")] {
            #expect(html.contains("<b>\(count)</b><span>\(label)</span>"), "\(label)")
        }
        #expect(html.contains(run.goldensFolder + "/" + orphan + ".png"))
        #expect(html.contains(">never<"))               // record mode
        #expect(html.contains(">exact<"))               // tolerance
        #expect(html.contains(">gik-default/up<"))      // filter
    }
}

@Test("passing run report holds no images")
func passingRunReportHoldsNoImages() throws {
    let scratch = TemporaryFolder()
    defer { scratch.remove() }
    let run = try recordThenCheck(scratch, filter: "gik-tinted/left")
    #expect(run.results.allSatisfy { $0.status == .passed })
    let folder = scratch.path + "/reports"
    #expect(FileManager.default.fileExists(atPath: folder + "/index.html"))
    #expect(files(under: folder, endingWith: ".png").isEmpty)
    let page = try Page(folder: folder)
    #expect(!page.html.contains("<img"))
    #expect(page.html.contains("All \(run.results.count) cases passed"))
    // Each passing case keeps one line, which the overview links to.
    #expect(countOccurrences(of: "<li id=\"c-", in: page.html) == run.results.count)
}

@Test("images of passing cases when asked for")
func imagesOfPassingCasesWhenAskedFor() throws {
    let scratch = TemporaryFolder()
    defer { scratch.remove() }
    let run = try recordThenCheck(scratch, filter: "gik-tinted/down/sweep-120x104*", imagesForPassingCases: true)
    #expect(!run.results.isEmpty && run.results.allSatisfy { $0.status == .passed })
    let page = try Page(folder: scratch.path + "/reports")
    for r in run.results {
        let actual = try #require(r.artifacts.actual)
        #expect(page.html.contains("href=\"\(actual.path)\""))
        #expect(FileManager.default.fileExists(atPath: page.folder + "/" + actual.path))
    }
}
