import Foundation
import PopoverHarness
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// Regeneration killed at any moment (SIGKILL: no handler runs, nothing is cleaned up)
/// never leaves a truncated or mixed golden: every golden is the complete old file or
/// the complete new one, the report folder holds one whole report (the old run's or the
/// new), and the temporary files a kill may leave behind are never taken for goldens.
@Suite("Regeneration killed at random moments", .enabled(if: popoverGoldensExecutable != nil || runningOnCI,
                                                          "popover-goldens was not built beside the tests"))
struct KillDuringRecordTests {
    /// Thirty cheap cases: a record run rewriting all of them takes under a second in release.
    static let filter = "path-slate/left/sweep*@1x"

    @Test("SIGKILL during `record`: each golden is old or new, never torn; the report is always one whole report")
    func killAtRandomMoments() throws {
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests (swift build --build-tests)")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try #require(ids.count >= 20)
        let work = temporaryFolder("kill")
        try linkCommittedSkins(into: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let goldens = work + "/Goldens", reports = work + "/Reports"

        // New: the committed goldens (what record writes). Old: each with one pixel
        // changed, so record must rewrite every one; every fifth old golden is absent.
        var newPixels: [String: RGBAImage] = [:], oldPixels: [String: RGBAImage] = [:]
        var oldBytes: [String: [UInt8]] = [:]
        for (i, id) in ids.enumerated() {
            let image = try PNGFile.read(path: PackageFolders.goldens + "/" + id + ".png")
            newPixels[id] = image
            guard i % 5 != 0 else { continue }
            var old = image
            let p = ((image.height / 2) * image.width + image.width / 2) * 4
            old.pixels[p] ^= 0x55
            old.pixels[p + 3] = 255
            oldPixels[id] = old
            oldBytes[id] = PNGFile.encode(old)
        }

        func restoreOldState() throws {
            for id in ids {
                let path = goldens + "/" + id + ".png"
                try FileIO.createDirectories((path as NSString).deletingLastPathComponent)
                if let bytes = oldBytes[id] {
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                } else if FileManager.default.fileExists(atPath: path) {
                    try FileManager.default.removeItem(atPath: path)
                }
            }
        }

        func startRecord() throws -> Process {
            let process = toolProcess(executable, ["record", Self.filter, "--goldens", goldens,
                                                       "--reports", reports, "--jobs", "2"], in: work)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// Checks every invariant; returns how many goldens are new and how many old.
        func verify(_ label: String) throws -> (new: Int, old: Int) {
            var counts = (new: 0, old: 0)
            for id in ids {
                let path = goldens + "/" + id + ".png"
                guard FileManager.default.fileExists(atPath: path) else {
                    #expect(oldBytes[id] == nil, "\(label): \(id) vanished")
                    continue
                }
                let image: RGBAImage
                do {
                    image = try PNGFile.read(path: path)
                } catch {
                    Issue.record("\(label): torn golden: \(error)")
                    continue
                }
                if image == newPixels[id] {
                    counts.new += 1
                } else if let old = oldPixels[id], image == old {
                    counts.old += 1
                } else {
                    Issue.record("\(label): \(id) holds pixels that are neither old nor new")
                }
            }
            try expectWholeReport(reports, label)
            // Leftover temporaries are hidden and do not end in .png: never listed as goldens.
            #expect(GoldenStore(folder: goldens).allIDs() == ids.filter {
                FileManager.default.fileExists(atPath: goldens + "/" + $0 + ".png")
            }.sorted(), "\(label): the goldens listed are not exactly the case files")
            return counts
        }

        // A complete run first: how long one takes.
        try restoreOldState()
        let clock = ContinuousClock()
        let started = clock.now
        let reference = try startRecord()
        reference.waitUntilExit()
        let fullRun = (clock.now - started).inSeconds
        #expect(reference.terminationStatus == 0)
        let complete = try verify("complete run")
        #expect(complete.new == ids.count && complete.old == 0)

        // Kills at random moments (seeded), about 20 s of work whatever the build's speed,
        // at least ten. Even kills: a random delay across a whole run, so some land before
        // any write and some at the end, while the report is published. Odd kills: once the first
        // golden has been replaced, a random delay more, so they land among the writes
        // however loaded the machine is.
        var random = SplitMix64(seed: 0x6B69_6C6C)
        let kills = max(10, min(30, Int(20 / max(fullRun, 0.05))))
        var midRun = 0
        for k in 0..<kills {
            try restoreOldState()
            let restored = ids.map { fileIdentity(goldens + "/" + $0 + ".png")?.inode }
            let process = try startRecord()
            let started = clock.now
            var waited = "at once"
            if k % 2 == 1 {
                // Poll for the first replaced golden (a new inode: writes rename a new file in).
                while process.isRunning, (clock.now - started).inSeconds < fullRun * 5,
                      zip(ids, restored).allSatisfy({ fileIdentity(goldens + "/" + $0 + ".png")?.inode == $1 }) {
                    Thread.sleep(forTimeInterval: 0.002)
                }
                waited = "after the first write"
            }
            let delay = Double.random(in: 0...(fullRun * (k % 2 == 1 ? 0.5 : 1.1)), using: &random)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let counts = try verify("kill \(k), \(String(format: "%.3f", delay)) s \(waited)")
            if counts.new > 0 && counts.old > 0 { midRun += 1 }
        }
        // The kills did land in the middle of the rewriting, not only before or after it.
        #expect(midRun >= 3, "only \(midRun) of \(kills) kills left a mix of old and new goldens")

        // After the kills: a complete record finishes the job, and a check passes with
        // whatever temporaries the kills left, listing none of them as orphans.
        let finish = try startRecord()
        finish.waitUntilExit()
        #expect(finish.terminationStatus == 0)
        let finished = try verify("finishing run")
        #expect(finished.new == ids.count)
        let check = try runTool(["check", "--filter", Self.filter, "--goldens", goldens, "--reports", reports,
                                 "--record", "never"], in: work)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("orphan"), "\(check.stdout)")
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
