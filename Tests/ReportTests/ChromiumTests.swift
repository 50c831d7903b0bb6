import Foundation
import PopoverHarness
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
func screenshotShowsTheFailingReport() throws {
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
    try process.run()
    process.waitUntilExit()
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
