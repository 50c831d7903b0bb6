import Foundation
import PopoverHarness
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// Regeneration killed (SIGKILL: no handler runs, nothing is cleaned up) at the named
/// point inside replacing a golden and its facts, between the golden's rename and the
/// table's: every golden is the complete old file or the complete new one, the report
/// folder holds one whole report, the temporary files the kill leaves are never taken
/// for goldens, and the next `record` finishes the job with every golden's facts its own.
@Suite("Regeneration killed midway", .enabled(if: popoverGoldensExecutable != nil || runningOnCI,
                                             "popover-goldens was not built beside the tests"))
struct KillDuringRecordTests {
    /// Thirty cheap cases.
    static let filter = "path-slate/left/sweep*@1x"

    @Test("SIGKILL inside `record`'s write of a golden and its facts: each golden old or new, never torn; the next record finishes",
          arguments: [1, 2])
    func killedInsideAWrite(jobs: Int) async throws {
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests (swift build --build-tests)")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try #require(ids.count >= 20)
        let work = temporaryFolder("kill-\(jobs)")
        try linkCommittedSkins(into: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let goldens = work + "/Goldens", reports = work + "/Reports"

        // New: the committed goldens (what record writes). Old: each with one pixel
        // changed, so record must rewrite every one; every fifth old golden is absent.
        var newPixels: [String: RGBAImage] = [:], oldPixels: [String: RGBAImage] = [:]
        for (i, id) in ids.enumerated() {
            let image = try PNGFile.read(path: PackageFolders.goldens + "/" + id + ".png")
            newPixels[id] = image
            guard i % 5 != 0 else { continue }
            var old = image
            let p = ((image.height / 2) * image.width + image.width / 2) * 4
            old.pixels[p] ^= 0x55
            old.pixels[p + 3] = 255
            oldPixels[id] = old
            let path = goldens + "/" + id + ".png"
            try FileIO.createDirectories((path as NSString).deletingLastPathComponent)
            try PNGFile.write(old, to: path)
        }
        // A report of the old state, for a kill to leave whole.
        _ = try await runTool(["check", "--filter", Self.filter, "--goldens", goldens, "--reports", reports, "--record", "never"], in: work)
        try expectWholeReport(reports, "before")

        func record(crashingAt step: String?) async throws -> Int32 {
            let process = toolProcess(executable, ["record", Self.filter, "--goldens", goldens, "--reports", reports,
                                                   "--jobs", "\(jobs)"], in: work,
                                      environment: step.map { [CrashPoint.variable: $0] } ?? [:])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try await runToExit(process)
            return process.terminationStatus
        }

        let status = try await record(crashingAt: "goldens.golden-replaced")
        #expect(status == SIGKILL, "record should have been killed inside its first write")
        var counts = (new: 0, old: 0)
        for id in ids {
            let path = goldens + "/" + id + ".png"
            guard FileManager.default.fileExists(atPath: path) else {
                #expect(oldPixels[id] == nil, "\(id) vanished")
                continue
            }
            let image = try PNGFile.read(path: path)
            if image == newPixels[id] {
                counts.new += 1
            } else {
                #expect(image == oldPixels[id], "\(id) holds pixels that are neither old nor new")
                counts.old += 1
            }
        }
        // Killed inside a write: at least one golden is new, and most are still old.
        #expect(counts.new >= 1 && counts.new <= jobs && counts.old >= ids.count * 3 / 5, "\(counts)")
        try expectWholeReport(reports, "after the kill")
        // Leftover temporaries are hidden and do not end in .png: never listed as goldens.
        #expect(GoldenStore(folder: goldens).allIDs() == ids.filter {
            FileManager.default.fileExists(atPath: goldens + "/" + $0 + ".png")
        }.sorted(), "the goldens listed are not exactly the case files")

        // A complete record finishes the job: every golden new, every golden's facts its own.
        await #expect(try record(crashingAt: nil) == 0)
        for id in ids { #expect(try PNGFile.read(path: goldens + "/" + id + ".png") == newPixels[id], "\(id)") }
        let check = try await runTool(["check", "--filter", Self.filter, "--goldens", goldens, "--reports", reports,
                                 "--record", "never"], in: work)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("orphan") && !check.stdout.contains("stale") && !check.stdout.contains("facts"),
                "\(check.stdout)")
    }
}

/// The report folder, if there is one, holds one whole report: its summary lists every
/// case and parses, its page and junit.xml are complete, and every image it names is there.
func expectWholeReport(_ reports: String, _ label: String) throws {
    guard FileManager.default.fileExists(atPath: reports) else { return }
    let summary = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reports + "/summary.json")))
    guard let summary = summary as? [String: Any], let cases = summary["cases"] as? [[String: Any]] else {
        Issue.record("\(label): the report's summary.json is missing or not whole")
        return
    }
    let html = (try? String(contentsOfFile: reports + "/index.html", encoding: .utf8)) ?? ""
    #expect(html.hasSuffix("</html>\n"), "\(label): index.html is missing or not whole")
    let junit = (try? String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)) ?? ""
    #expect(junit.hasSuffix("</testsuites>\n") && junit.contains("tests=\"\(cases.count)\""), "\(label): junit.xml is not whole")
    for c in cases {
        for image in (c["images"] as? [String: [String: Any]] ?? [:]).values {
            if let path = image["path"] as? String {
                #expect(FileManager.default.fileExists(atPath: reports + "/" + path), "\(label): \(path) is missing")
            }
        }
    }
}
