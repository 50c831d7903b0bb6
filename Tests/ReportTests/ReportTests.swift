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
        for reference in page.values(of: "src") + page.values(of: "href") {
            #expect(!reference.hasPrefix("//"), "\(reference) is a network reference")
            if reference.hasPrefix("#") { continue }
            let file = try #require(page.file(for: reference), "\(reference) is not a relative path")
            #expect(FileManager.default.fileExists(atPath: file), "\(reference) names no file")
        }
        // The scripts are inline: five script elements (the five files), none with a src.
        #expect(countOccurrences(of: "<script", in: page.html) == 5)
        #expect(countOccurrences(of: "<script>", in: page.html) == 5)
        #expect(page.html.contains("<script>"))
        #expect(page.values(of: "src").allSatisfy { !$0.hasSuffix(".js") })
    }

    @Test("every in page link has its target")
    func everyInPageLinkHasItsTarget() throws {
        let ids = Set(page.values(of: "id"))
        for reference in page.values(of: "href") where reference.hasPrefix("#") {
            #expect(ids.contains(String(reference.dropFirst())), "\(reference) links nowhere")
        }
        // Each case is one overview cell, linking to it.
        for c in cases {
            #expect(countOccurrences(of: "title=\"\(c.id)\"", in: page.html) == 1, "\(c.id)")
            #expect(ids.contains("c-" + c.id), "\(c.id) has no section or list entry")
        }
    }

    @Test("failed case shows expected actual and heatmap")
    func failedCaseShowsExpectedActualAndHeatmap() throws {
        for id in changed {
            let section = try #require(page.section(for: id))
            for kind in ["expected", "actual", "heatmap"] {
                #expect(section.contains("src=\"cases/\(id).\(kind).png\""), "\(id) lacks \(kind)")
            }
            #expect(section.contains("data-status=\"failed\""))
            #expect(section.contains("data-region="))
            #expect(section.contains("differentPixels"))
            #expect(section.contains(run.goldensFolder + "/" + id + ".png"))
            // A thumbnail of the heatmap, and its hover copy in the overview.
            #expect(section.contains("src=\"cases/\(id).thumbnail.png\""))
        }
        // Sizes differ: expected and actual, no heatmap; slider and blink still work.
        let resizedSection = try #require(page.section(for: resized))
        #expect(resizedSection.contains("cases/\(resized).expected.png"))
        #expect(resizedSection.contains("cases/\(resized).actual.png"))
        #expect(!resizedSection.contains("heatmap.png"))
        #expect(!resizedSection.contains("data-region"))
        // Missing: only what this run drew.
        let missing = try #require(page.section(for: deleted))
        #expect(missing.contains("cases/\(deleted).actual.png") && !missing.contains("expected.png"))
        let error = try #require(page.section(for: garbled))
        #expect(error.contains("data-status=\"error\""))
    }

    @Test("failures come first")
    func failuresComeFirst() throws {
        let order = [changed[0], changed[1], resized, garbled, deleted].map { id in
            page.html.range(of: "id=\"c-\(id)\"").map { page.html.distance(from: page.html.startIndex, to: $0.lowerBound) }
        }
        // failed (in catalog order), then error, then missing.
        let positions = order.compactMap { $0 }
        #expect(positions.count == 5)
        let failedIDs = cases.map(\.id).filter { Set(changed + [resized]).contains($0) }
        let failedPositions = failedIDs.map { id in page.html.range(of: "id=\"c-\(id)\"")!.lowerBound }
        #expect(failedPositions == failedPositions.sorted())
        let lastFailed = failedPositions.max()!
        let errorAt = page.html.range(of: "id=\"c-\(garbled)\"")!.lowerBound
        let missingAt = page.html.range(of: "id=\"c-\(deleted)\"")!.lowerBound
        #expect(lastFailed < errorAt && errorAt < missingAt)
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
