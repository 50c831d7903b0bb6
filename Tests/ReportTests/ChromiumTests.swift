import Foundation
import PopoverDiff
import PopoverHarness
import PopoverReport
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// The report in a real browser: scripts/screenshot-report opens a failing run's page in
/// headless Chromium and the screenshot shows it.
enum Chromium {
    static var available: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { folder in
            ["chromium", "chromium-browser"].contains { FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }
        }
    }

}

@Test("the screenshot script shows a failing report in headless Chromium",
      .enabled(if: Chromium.available || runningOnCI, "chromium is not installed (apt-get install -y chromium); the screenshot check needs it"))
func screenshotShowsTheFailingReport() async throws {
    try #require(Chromium.available, "chromium is not installed: CI must have it (scripts/install-dependencies --browser)")
    let scratch = TemporaryFolder()
    defer { scratch.remove() }
    let changed = try #require(CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "gik-default/down").first)
    let run = try recordThenCheck(scratch, filter: "gik-default/down", faults: Faults(changed: [changed.id]))
    #expect(run.count(.failed) == 1)

    let output = scratch.path + "/shot.png"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [PackageFolders.root + "/scripts/screenshot-report", scratch.path + "/reports", output]
    process.environment = ProcessInfo.processInfo.environment.merging(["WINDOW_SIZE": "1000,1200"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    try await runToExit(process)
    #expect(process.terminationStatus == 0)

    let shot = try PNGFile.read(path: output)
    #expect(shot.width == 1000 && shot.height == 1200)
    // A page, not a blank: many colours...
    var colours = Set<UInt32>()
    for i in stride(from: 0, to: shot.pixels.count, by: 4 * 97) {
        colours.insert(UInt32(shot.pixels[i]) << 16 | UInt32(shot.pixels[i + 1]) << 8 | UInt32(shot.pixels[i + 2]))
    }
    #expect(colours.count > 50)
    // ...and a red verdict at the top, since a case failed.
    let corner = ThumbnailTests.pixel(shot, 20, 20)
    #expect(Int(corner[0]) > Int(corner[1]) + 60 && Int(corner[0]) > Int(corner[2]) + 60)
}

@Test("the screenshot script fails clearly without a report")
func screenshotScriptFailsClearlyWithoutAReport() throws {
    let scratch = TemporaryFolder()
    defer { scratch.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [PackageFolders.root + "/scripts/screenshot-report", scratch.path + "/nothing", scratch.path + "/x.png"]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 1)
    #expect(message.contains("index.html does not exist"))
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/x.png"))
}

/// The page script (Tests/Browser/report_in_chromium.py): Playwright for Python driving
/// Debian's Chromium, with axe-core from the axe-playwright-python package.
enum PageScript {
    static let path = PackageFolders.root + "/Tests/Browser/report_in_chromium.py"

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && shell("python3 -c 'import playwright.sync_api, axe_playwright_python' 2>/dev/null") == 0
    }
}

@Test("axe-core finds no WCAG 2.1 A/AA violation on a report with two failures nor on one where all 2498 cases fail, at 1400 and at 390 px wide, with a case open and in focus mode; at 390 px nothing scrolls sideways and the sticky bar takes at most a fifth of the height; the skip link reaches the cases, the matrix is one Tab stop with whole cells, and every decision button has its own name",
      .enabled(if: PageScript.available || runningOnCI, "Chromium, Playwright or axe-playwright-python is not installed (scripts/install-dependencies --browser)"))
func reportsAreAccessible() async throws {
    try #require(PageScript.available, "CI must have Chromium, Playwright and axe-playwright-python (scripts/install-dependencies --browser)")
    let few = TemporaryFolder("axe-few"), everything = TemporaryFolder("axe-all")
    defer { few.remove(); everything.remove() }
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
    let down = catalog.cases(matching: "gik-default/down").map(\.id)
    let fewRun = try recordThenCheck(few, filter: "gik-default/down", faults: Faults(changed: Set(down.prefix(2))))
    #expect(fewRun.count(.failed) == 2)
    let allRun = try publishAllFailing(catalog, to: everything.file("reports"))
    #expect(allRun.count(.failed) == 2498)
    let driven = try await runProgram("/usr/bin/env", ["python3", PageScript.path, "axe", few.file("reports"), everything.file("reports")])
    #expect(driven.status == 0, "\(driven.stderr)")
}

@Test("a page that arrives in pieces, paused after each script element as a slow connection delivers it: nothing throws and every listed case gets its line",
      .enabled(if: PageScript.available || runningOnCI, "Chromium or Playwright is not installed (scripts/install-dependencies --browser)"))
func pageArrivingInPieces() async throws {
    try #require(PageScript.available, "CI must have Chromium and Playwright (scripts/install-dependencies --browser)")
    let scratch = TemporaryFolder("pieces")
    defer { scratch.remove() }
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
    let down = catalog.cases(matching: "gik-default/down").map(\.id)
    let run = try recordThenCheck(scratch, filter: "gik-default/down", faults: Faults(changed: Set(down.prefix(3))))
    #expect(run.count(.failed) == 3)
    let driven = try await runProgram("/usr/bin/env", ["python3", PageScript.path, "pieces", scratch.file("reports")])
    #expect(driven.status == 0, "\(driven.stderr)")
}

@Test("a one-pixel border recoloured: the viewer steps through regions that each hold changed pixels and fill a good part of the pane, and together hold every changed pixel",
      .enabled(if: PageScript.available || runningOnCI, "Chromium or Playwright is not installed (scripts/install-dependencies --browser)"))
func regionsFrameAThinChange() async throws {
    try #require(PageScript.available, "CI must have Chromium and Playwright (scripts/install-dependencies --browser)")
    let scratch = TemporaryFolder("regions")
    defer { scratch.remove() }
    // The skins as committed, but gik-sample's border a little redder: a change one pixel
    // wide around the whole popover.
    let skins = scratch.file("skins")
    try FileManager.default.copyItem(atPath: PackageFolders.skins, toPath: skins)
    let skinFile = skins + "/gik-sample/skin.json"
    let text = try String(contentsOfFile: skinFile, encoding: .utf8)
    #expect(text.contains("\"border\": [0.439216,"))
    try text.replacingOccurrences(of: "\"border\": [0.439216,", with: "\"border\": [0.5,").write(toFile: skinFile, atomically: true, encoding: .utf8)
    let filter = "gik-sample/down/popover11-portrait@2x"
    var options = checkOptions(goldens: scratch.file("goldens"), mode: .all, filter: filter, cache: scratch.file("cache"))
    options.jobs = 2
    _ = try CheckRunner(catalog: CaseCatalog.standard(skinsFolder: PackageFolders.skins), options: options).run()
    options.recordMode = .never
    let run = try publishing(CheckRunner(catalog: CaseCatalog.standard(skinsFolder: skins), options: options), to: scratch.file("reports"))
    let failed = try #require(run.results.first { $0.status == .failed })
    // The changed pixels, from the two images the page shows, not from the run's regions.
    let expected = try PNGFile.read(path: scratch.file("reports") + "/" + #require(failed.artifacts.expected).path)
    let actual = try PNGFile.read(path: scratch.file("reports") + "/" + #require(failed.artifacts.actual).path)
    #expect(expected.width == actual.width && expected.height == actual.height)
    var changed: [[Int]] = []
    for y in 0..<expected.height {
        for x in 0..<expected.width {
            let o = (y * expected.width + x) * 4
            if expected.pixels[o..<(o + 4)] != actual.pixels[o..<(o + 4)] { changed.append([x, y]) }
        }
    }
    // Thin: few pixels, yet spread over most of the image, so the box of them all shows flat fill.
    let xs = changed.map { $0[0] }, ys = changed.map { $0[1] }
    #expect(changed.count > 100 && changed.count * 20 < expected.width * expected.height)
    #expect((xs.max()! - xs.min()!) * 2 > expected.width && (ys.max()! - ys.min()!) * 2 > expected.height)
    let changedFile = scratch.file("changed.json")
    try Data(JSONSerialization.data(withJSONObject: changed)).write(to: URL(fileURLWithPath: changedFile))
    let driven = try await runProgram("/usr/bin/env", ["python3", PageScript.path, "regions", scratch.file("reports"), failed.id, changedFile])
    #expect(driven.status == 0, "\(driven.stderr)")
}

/// A report in which every case of the catalog failed, for what the page does with that
/// many: each case one pixel off, all showing the same three small images (the page is
/// under test here, not the drawing).
func publishAllFailing(_ catalog: CaseCatalog, to reports: String) throws -> RunRecord {
    let expected = Swatch.image(for: "all failing")
    let actual = Swatch.marked(expected)
    let comparison = ImageComparison.compare(expected: expected, actual: actual, tolerance: .exact, wantsDiffMap: true)
    let folder = ReportFolder(reports)
    let staging = try folder.stage()
    let artifacts = staging.keep(CaseImages(expected: expected, actual: actual, diff: comparison.diffMap), of: catalog.cases[0].info)
    var run = RunRecord.sample(results: catalog.cases.map { c in
        var result = CaseResult.sample(c.info, status: .failed, message: "1 pixel differs", metrics: comparison.metrics,
                                       width: expected.width, height: expected.height)
        result.artifacts = artifacts
        result.changedRegion = comparison.diffMap?.changedRegion
        result.changedRegions = comparison.diffMap?.changedRegions() ?? []
        return result
    })
    run.groupChanges()
    try folder.publish(&run, from: staging)
    return run
}
