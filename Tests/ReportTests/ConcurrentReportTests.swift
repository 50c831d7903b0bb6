import Foundation
import PopoverHarness
import PopoverFiles
import PopoverImage
import PopoverReport
import Testing
import TestSupport

/// Two checks writing to the same report folder at once: each stages its own report beside
/// it and swaps it in under a lock, so the folder always holds one whole report, never a mix.
@Suite("Concurrent checks and left-over staging folders")
struct ConcurrentReportTests {
    let catalog = CaseCatalog(skins: [FlatSkin()])

    /// What the published report says, read back from its three files.
    struct Published {
        var summaryIDs: [String]
        var artifacts: [String]
        var junitIDs: [String]
        var html: String
        var caseFiles: [String]
    }

    func readReport(_ reports: String) throws -> Published {
        let data = try Data(contentsOf: URL(fileURLWithPath: reports + "/summary.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(summary["cases"] as? [[String: Any]])
        let counts = try #require(summary["counts"] as? [String: Int])
        #expect(counts["total"] == cases.count)
        let ids = cases.compactMap { $0["id"] as? String }
        let artifacts = cases.flatMap { c -> [String] in
            let images = c["images"] as? [String: [String: Any]] ?? [:]
            return images.values.compactMap { $0["path"] as? String }.sorted()
        }
        let junit = try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)
        let junitIDs = junit.components(separatedBy: "<testcase ").dropFirst().compactMap { element -> String? in
            guard let start = element.range(of: " name=\"")?.upperBound,
                  let end = element[start...].firstIndex(of: "\"") else { return nil }
            return String(element[start..<end])
        }
        #expect(junit.hasSuffix("</testsuites>\n"), "junit.xml is incomplete")
        #expect(junit.contains("tests=\"\(cases.count)\""))
        let html = try String(contentsOfFile: reports + "/index.html", encoding: .utf8)
        #expect(html.contains("</html>"), "index.html is incomplete")
        let files = (FileManager.default.enumerator(atPath: reports + "/cases")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".png") }.map { "cases/" + $0 }
        return Published(summaryIDs: ids, artifacts: artifacts, junitIDs: junitIDs, html: html, caseFiles: files)
    }

    /// The report in `reports` is exactly one of the runs' (`ids` per run), whole.
    func expectOneWholeReport(_ reports: String, runs: [[String]], _ label: String) throws {
        let report = try readReport(reports)
        let owner = runs.firstIndex { Set($0) == Set(report.summaryIDs) }
        #expect(owner != nil, "\(label): summary.json lists the cases of neither run")
        #expect(report.junitIDs.sorted() == report.summaryIDs.sorted(), "\(label): junit.xml and summary.json disagree")
        for id in report.summaryIDs {
            #expect(report.html.contains(id), "\(label): index.html lacks \(id)")
        }
        if let owner {
            for (i, other) in runs.enumerated() where i != owner {
                for id in Set(other).subtracting(runs[owner]) {
                    #expect(!report.html.contains(id), "\(label): index.html shows \(id) of the other run")
                }
            }
        }
        // Every image the summary names is there, and every case image belongs to a listed case.
        for path in report.artifacts {
            #expect(FileManager.default.fileExists(atPath: reports + "/" + path), "\(label): \(path) is missing")
        }
        let listed = Set(report.summaryIDs)
        for file in report.caseFiles {
            // cases/<id>.<kind>.png (an ID may hold dots, its file name adds exactly two)
            let id = ((String(file.dropFirst("cases/".count)) as NSString).deletingPathExtension as NSString)
                .deletingPathExtension
            #expect(listed.contains(id), "\(label): \(file) belongs to no listed case")
        }
    }

    @Test("two in-process checks at once, many times: the report is always one run's, whole")
    func twoRunsInProcess() throws {
        let goldens = temporaryFolder("concurrent-goldens"), reports = temporaryFolder("concurrent") + "/Reports"
        defer { removeFolders(goldens, reports) }
        let filters = ["flat/up/sweep-120x104*", "flat/down/sweep-120x104*@1x"]
        var runners: [CheckRunner] = []
        for filter in filters {
            _ = try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: filter)).run()
            var o = checkOptions(goldens: goldens, mode: .never, filter: filter)
            o.keepsImagesOfPassingCases = true
            o.jobs = 1
            runners.append(CheckRunner(catalog: catalog, options: o))
        }
        let ids = try runners.map { try $0.selectedCases().map(\.id) }
        let pair = runners
        #expect(Set(ids[0]).isDisjoint(with: ids[1]))

        for round in 0..<4 {
            let outcomes = RunOutcomes()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                do {
                    outcomes.set(i, try publishing(pair[i], to: reports))
                } catch {
                    Issue.record("run \(i): \(error)")
                }
            }
            for run in outcomes.all {
                #expect(run.exitCode == 0 && run.errors.isEmpty, "round \(round): \(run.errors)")
            }
            try expectOneWholeReport(reports, runs: ids, "round \(round)")
            // Nothing staged is left behind by runs that finished.
            let parent = (reports as NSString).deletingLastPathComponent
            let name = (reports as NSString).lastPathComponent
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix(".\(name).staging-") }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
        }
    }

    @Test("two check processes at once: the report is one run's, whole",
          .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
    func twoProcesses() async throws {
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests (swift build --build-tests)")
        let work = temporaryFolder("concurrent-cli")
        try linkCommittedSkins(into: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let filters = ["path-slate/up/sweep*@1x", "path-slate/down/sweep*@1x"]
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let ids = filters.map { catalog.cases(matching: $0).map(\.id) }
        try copyCommittedGoldens(ids.flatMap { $0 }, to: work + "/Goldens")
        for round in 0..<3 {
            let processes = filters.map { filter in
                let p = toolProcess(executable, ["check", "--filter", filter, "--record", "never",
                                                 "--report-all-images"], in: work)
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                return p
            }
            try await runToExit(processes)
            for p in processes { #expect(p.terminationStatus == 0, "round \(round)") }
            try expectOneWholeReport(work + "/Reports", runs: ids, "process round \(round)")
        }
    }

    @Test("staging folders left by killed runs are removed once an hour old; recent ones are kept")
    func staleStaging() throws {
        let goldens = temporaryFolder("stale-goldens"), base = temporaryFolder("stale")
        defer { removeFolders(goldens, base) }
        let reports = base + "/Reports"
        let stale = base + "/.Reports.staging-4242-1", recent = base + "/.Reports.staging-4243-2"
        for folder in [stale, recent] {
            try FileIO.createDirectories(folder + "/cases/flat/up/x")
            try PNGFile.write(RGBAImage(width: 1, height: 1), to: folder + "/cases/flat/up/x/actual.png")
        }
        let twoHoursAgo = Date().addingTimeInterval(-7200)
        for path in [stale, stale + "/cases"] {
            try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: path)
        }
        // A folder that only looks old at the top but has a fresh cases/ is in use.
        let busy = base + "/.Reports.staging-4244-3"
        try FileIO.createDirectories(busy + "/cases")
        try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: busy)
        // Another report folder's staging is not this one's to remove.
        let other = base + "/.Elsewhere.staging-4245-4"
        try FileIO.createDirectories(other)
        try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: other)

        let runner = CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: "flat/up"))
        let run = try publishing(runner, to: reports)
        #expect(run.exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: recent + "/cases/flat/up/x/actual.png"))
        #expect(FileManager.default.fileExists(atPath: busy))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(FileManager.default.fileExists(atPath: reports + "/summary.json"))
    }

    @Test("a replaced report is retired beside the folder, and the next run deletes it; other folders' are not touched")
    func retiredReports() throws {
        let goldens = temporaryFolder("retired-goldens"), base = temporaryFolder("retired")
        defer { removeFolders(goldens, base) }
        let reports = base + "/Reports"
        func retired() throws -> [String] {
            // As the README names them: .Reports.retired-<pid>-<hex>, nothing after.
            try FileManager.default.contentsOfDirectory(atPath: base)
                .filter { $0.wholeMatch(of: /\.Reports\.retired-[0-9]+-[0-9a-f]+/) != nil }.sorted()
        }
        // Another report folder's retired report is not this one's to delete; nor are the
        // lock and staging folder of a sibling whose name starts like a retired one.
        let other = base + "/.Elsewhere.retired-1-1"
        let siblingStaging = base + "/.Reports.retired-x.staging-1-1", siblingLock = base + "/.Reports.retired-x.lock"
        for folder in [other, siblingStaging] { try FileIO.createDirectories(folder) }
        try FileIO.writeAtomically([], to: siblingLock)
        let runner = CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: "flat/up"))
        _ = try publishing(runner, to: reports)
        #expect(try retired().isEmpty, "the first run has nothing to retire")
        let ids = try readReport(reports).summaryIDs
        #expect(!ids.isEmpty)
        _ = try publishing(runner, to: reports)
        let first = try retired()
        #expect(first.count == 1, "the second run retires the first run's report: \(first)")
        if let name = first.first {
            #expect(FileManager.default.fileExists(atPath: base + "/" + name + "/summary.json"))
        }
        _ = try publishing(runner, to: reports)
        let second = try retired()
        #expect(second.count == 1 && second != first, "the third run deletes the first retired report: \(first) then \(second)")
        for path in [other, siblingStaging, siblingLock] {
            #expect(FileManager.default.fileExists(atPath: path), "\(path) was deleted")
        }
        #expect(try readReport(reports).summaryIDs == ids)
    }

    @Test("a report set aside by a publish killed half-way goes back when there is no report, and is retired when there is")
    func asideReports() throws {
        let goldens = temporaryFolder("aside-goldens"), base = temporaryFolder("aside")
        defer { removeFolders(goldens, base) }
        let reports = base + "/Reports"
        let runner = CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: "flat/up"))
        _ = try publishing(runner, to: reports)
        let ids = try readReport(reports).summaryIDs
        // Killed between moving the old report aside and moving the new one in.
        let aside = base + "/.Reports.aside-4242-ab"
        try FileIO.move(reports, to: aside)
        _ = try publishing(runner, to: reports)
        #expect(!FileManager.default.fileExists(atPath: aside))
        #expect(try readReport(reports).summaryIDs == ids)
        let names = try FileManager.default.contentsOfDirectory(atPath: base)
        // The restored report was then replaced as any report is: retired, not lost.
        #expect(names.filter { $0.hasPrefix(".Reports.retired-") }.count == 1, "\(names)")
        // An aside folder beside a report in place is retired and deleted by the next run.
        try FileIO.createDirectories(aside + "/cases")
        _ = try publishing(runner, to: reports)
        _ = try publishing(runner, to: reports)
        #expect(!FileManager.default.fileExists(atPath: aside))
        #expect(try readReport(reports).summaryIDs == ids)
    }

    @Test("a folder holding anything a report does not is refused, and left as it was")
    func foreignFolderRefused() throws {
        let goldens = temporaryFolder("foreign-goldens"), reports = temporaryFolder("foreign-reports")
        defer { removeFolders(goldens, reports) }
        try FileIO.writeAtomically(Array("keep me\n".utf8), to: reports + "/notes.txt")
        let runner = CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: "flat/up"))
        #expect {
            _ = try publishing(runner, to: reports)
        } throws: { error in
            "\(error)".contains("\(reports): holds 'notes.txt', which no report writes")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports) == ["notes.txt"])
        #expect(try FileIO.readBytes(path: reports + "/notes.txt") == Array("keep me\n".utf8))
    }

    @Test("a folder holding only the repository's .gitignore takes a report, and keeps that file byte for byte")
    func gitignoreKept() throws {
        let goldens = temporaryFolder("kept-goldens"), reports = temporaryFolder("kept-reports")
        defer { removeFolders(goldens, reports) }
        let ignore = Array("*\n!.gitignore\n".utf8)
        try FileIO.writeAtomically(ignore, to: reports + "/.gitignore")
        let runner = CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: "flat/up"))
        // Twice: the second publish replaces a report that itself kept the file.
        for _ in 0..<2 {
            _ = try publishing(runner, to: reports)
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: reports))
            #expect(names == [".gitignore", "index.html", "summary.json", "junit.xml", "summary.md", "cases"], "\(names)")
            #expect(try FileIO.readBytes(path: reports + "/.gitignore") == ignore)
        }
    }
}

/// Results written by two threads at distinct indices.
final class RunOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [Int: RunRecord] = [:]
    func set(_ i: Int, _ run: RunRecord) { lock.withLock { runs[i] = run } }
    var all: [RunRecord] { lock.withLock { runs.keys.sorted().map { runs[$0]! } } }
}
