import Foundation
import PopoverHarness
import PopoverImage
import Testing

/// Regeneration killed at any moment (SIGKILL: no handler runs, nothing is cleaned up)
/// never leaves a truncated or mixed golden: every golden is the complete old file or
/// the complete new one, digests.json is the old or the new one and valid JSON, and the
/// temporary files a kill may leave behind are never taken for goldens.
@Suite("Regeneration killed at random moments", .enabled(if: popoverGoldensExecutable != nil,
                                                          "popover-goldens was not built beside the tests"))
struct KillDuringRecordTests {
    /// Thirty cheap cases: a record run rewriting all of them takes under a second in release.
    static let filter = "path-slate/left/sweep*@1x"

    @Test("SIGKILL during `record`: each golden is old or new, never torn; digests.json always valid")
    func killAtRandomMoments() throws {
        let executable = try #require(popoverGoldensExecutable)
        let ids = try CaseCatalog.standard().cases(matching: Self.filter).map(\.id)
        try #require(ids.count >= 20)
        let work = temporaryFolder("kill")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let goldens = work + "/Goldens", reports = work + "/Reports"

        // New: the committed goldens (what record writes). Old: each with one pixel
        // changed, so record must rewrite every one; every fifth old golden is absent.
        var newPixels: [String: RGBAImage] = [:], oldPixels: [String: RGBAImage] = [:]
        var oldBytes: [String: [UInt8]] = [:]
        for (i, id) in ids.enumerated() {
            let image = try PNGFile.read(path: GoldenStoreFolder.committed + "/" + id + ".png")
            newPixels[id] = image
            guard i % 5 != 0 else { continue }
            var old = image
            let p = ((image.height / 2) * image.width + image.width / 2) * 4
            old.pixels[p] ^= 0x55
            old.pixels[p + 3] = 255
            oldPixels[id] = old
            oldBytes[id] = PNGFile.encode(old)
        }
        let oldManifest = Array("{\n  \"format\" : 1,\n  \"goldens\" : {\n\n  }\n}\n".utf8)

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
            try Data(oldManifest).write(to: URL(fileURLWithPath: goldens + "/digests.json"))
        }

        func startRecord() throws -> Process {
            let process = try toolProcess(executable, ["record", Self.filter, "--goldens", goldens,
                                                       "--reports", reports, "--jobs", "2"], in: work)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// Checks every invariant; returns how many goldens are new and how many old.
        func verify(_ label: String, newManifest: [UInt8]?) throws -> (new: Int, old: Int) {
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
            let manifest = try FileIO.readBytes(path: goldens + "/digests.json")
            #expect(manifest == oldManifest || manifest == newManifest, "\(label): digests.json is neither old nor new")
            #expect((try? JSONSerialization.jsonObject(with: Data(manifest))) != nil, "\(label): digests.json is not JSON")
            // Leftover temporaries are hidden and do not end in .png: never listed as goldens.
            #expect(GoldenStore(folder: goldens).allIDs() == ids.filter {
                FileManager.default.fileExists(atPath: goldens + "/" + $0 + ".png")
            }.sorted(), "\(label): the goldens listed are not exactly the case files")
            return counts
        }

        // A complete run first: how long one takes, and the new digests.json.
        try restoreOldState()
        let clock = ContinuousClock()
        let started = clock.now
        let reference = try startRecord()
        reference.waitUntilExit()
        let fullRun = (clock.now - started).inSeconds
        #expect(reference.terminationStatus == 0)
        let newManifest = try FileIO.readBytes(path: goldens + "/digests.json")
        #expect(newManifest != oldManifest)
        let complete = try verify("complete run", newManifest: newManifest)
        #expect(complete.new == ids.count && complete.old == 0)

        // Kills at random moments (seeded), about 20 s of work whatever the build's speed,
        // at least ten. Even kills: a random delay across a whole run, so some land before
        // any write and some at the end, around digests.json. Odd kills: once the first
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
            let counts = try verify("kill \(k), \(String(format: "%.3f", delay)) s \(waited)", newManifest: newManifest)
            if counts.new > 0 && counts.old > 0 { midRun += 1 }
        }
        // The kills did land in the middle of the rewriting, not only before or after it.
        #expect(midRun >= 3, "only \(midRun) of \(kills) kills left a mix of old and new goldens")

        // After the kills: a complete record finishes the job, and a check passes with
        // whatever temporaries the kills left, listing none of them as orphans.
        let finish = try startRecord()
        finish.waitUntilExit()
        #expect(finish.terminationStatus == 0)
        let finished = try verify("finishing run", newManifest: newManifest)
        #expect(finished.new == ids.count)
        let check = try runTool(["check", "--filter", Self.filter, "--goldens", goldens, "--reports", reports,
                                 "--record", "never"], in: work)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("orphan"), "\(check.stdout)")
    }
}
