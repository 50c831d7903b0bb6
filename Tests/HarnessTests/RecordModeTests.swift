import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

@Suite("Record modes and the goldens folder")
struct RecordModeTests {
    let catalog = CaseCatalog(skins: [FlatSkin()])
    let filter = "flat/up"

    func runner(_ goldens: String, _ mode: RecordMode, cache: String? = nil, filter: String? = "flat/up") -> CheckRunner {
        CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: mode, filter: filter, cache: cache))
    }

    @Test("the record mode comes from GOLDEN_RECORD, else never on CI, else missing")
    func environment() throws {
        #expect(try RecordMode.fromEnvironment([:]) == .missing)
        #expect(try RecordMode.fromEnvironment(["CI": "1"]) == .never)
        #expect(try RecordMode.fromEnvironment(["CI": "true", "GOLDEN_RECORD": "all"]) == .all)
        #expect(try RecordMode.fromEnvironment(["GOLDEN_RECORD": "FAILED"]) == .failed)
        #expect(try RecordMode.fromEnvironment(["CI": "false"]) == .missing)
        #expect(throws: HarnessError.invalidRecordMode("sometimes", source: "GOLDEN_RECORD")) {
            try RecordMode.fromEnvironment(["GOLDEN_RECORD": "sometimes"])
        }
    }

    @Test("never: a missing golden fails and says how to record it; the goldens folder stays empty")
    func neverRecords() throws {
        let goldens = temporaryFolder()
        let run = try runner(goldens, .never).run()
        #expect(run.results.count > 10)
        #expect(run.results.allSatisfy { $0.status == .missing })
        #expect(run.results[0].message.contains("`popover-goldens accept \(run.results[0].id) --goldens \(RunRecord.shellWord(goldens))`"))
        #expect(run.exitCode == 1)
        #expect(GoldenStore(folder: goldens).allIDs().isEmpty)
    }

    @Test("missing: records absent goldens; with the cache kept, the next run confirms every case without decoding")
    func missingThenCache() throws {
        let goldens = temporaryFolder(), cache = temporaryFolder()
        let first = try runner(goldens, .missing, cache: cache).run()
        #expect(first.results.allSatisfy { $0.status == .new })
        #expect(first.exitCode == 0)
        // Each recorded golden decodes to exactly what was drawn.
        let sample = first.results[3]
        let decoded = try PNGFile.read(path: sample.goldenPath)
        let drawn = try catalog.draw(try #require(catalog.cases.first { $0.id == sample.id }))
        #expect(decoded == drawn)
        #expect(sample.goldenDigest == SHA256.hex(try FileIO.readBytes(path: sample.goldenPath)))

        let second = try runner(goldens, .never, cache: cache).run()
        #expect(second.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
        // Without the cache every golden file is decoded and compared, with the same verdicts
        // (cases whose goldens hold the very same bytes share what the first one's decode
        // established).
        let fresh = try runner(goldens, .never, cache: temporaryFolder()).run()
        #expect(fresh.results.allSatisfy { $0.status == .passed })
        let decodedFiles = Set(fresh.results.filter { !$0.confirmedFromCache }.map(\.goldenDigest))
        #expect(decodedFiles == Set(fresh.results.map(\.goldenDigest)))
    }

    @Test("a changed golden fails with metrics and hands its images over; failed mode re-records only it")
    func failedMode() throws {
        let goldens = temporaryFolder()
        let recorded = try runner(goldens, .missing).run()
        // Paint one pixel of one golden red: exactly one pixel differs.
        let victim = recorded.results[5]
        var image = try PNGFile.read(path: victim.goldenPath)
        image.pixels[0] = 255; image.pixels[1] = 0; image.pixels[2] = 0; image.pixels[3] = 255
        try PNGFile.write(image, to: victim.goldenPath)

        let sink = CapturingSink()
        var checker = runner(goldens, .never)
        checker.sink = sink
        let check = try checker.run()
        #expect(check.exitCode == 1)
        let failed = check.results.filter { $0.status == .failed }
        #expect(failed.map(\.id) == [victim.id])
        let metrics = try #require(failed.first?.metrics)
        #expect(metrics.differentPixels == 1)
        #expect(!metrics.pass)
        #expect(failed.first?.changedRegion == PixelRegion(x: 0, y: 0, width: 1, height: 1))
        // Only the failing case's pictures are kept: the golden as decoded and as its file,
        // what was drawn, and the diff.
        #expect(Array(sink.images.keys) == [victim.id])
        let kept = try #require(sink.images[victim.id])
        #expect(kept.expected == image)
        #expect(kept.expectedFile == (try FileIO.readBytes(path: victim.goldenPath)))
        #expect(kept.actual != nil && kept.actual != image)
        #expect(kept.diff?.changedRegion == PixelRegion(x: 0, y: 0, width: 1, height: 1))
        #expect(check.results.filter { $0.status == .passed }.count == check.results.count - 1)

        let others = check.results.filter { $0.id != victim.id }.map { fileIdentity($0.goldenPath) }
        let rerecord = try runner(goldens, .failed).run()
        #expect(rerecord.results.filter { $0.status == .recorded }.map(\.id) == [victim.id])
        #expect(try PNGFile.read(path: victim.goldenPath) != image)
        let othersAfter = check.results.filter { $0.id != victim.id }.map { fileIdentity($0.goldenPath) }
        #expect(zip(others, othersAfter).allSatisfy { $0.0?.inode == $0.1?.inode && $0.0?.modified == $0.1?.modified })
    }

    @Test("all: rewrites what changed, leaves unchanged files untouched, lists and prunes orphans")
    func allModeAndPrune() throws {
        let goldens = temporaryFolder()
        _ = try runner(goldens, .missing).run()
        let store = GoldenStore(folder: goldens)
        let ids = store.allIDs()
        let before = Dictionary(uniqueKeysWithValues: ids.map { ($0, fileIdentity(store.path(for: $0))) })
        // An orphan: a golden no case owns.
        try FileIO.createDirectories(goldens + "/flat/up")
        try FileIO.writeAtomically(try FileIO.readBytes(path: store.path(for: ids[0])), to: goldens + "/flat/up/retired@1x.png")

        var all = checkOptions(goldens: goldens, mode: .all, filter: filter)
        let rerun = try CheckRunner(catalog: catalog, options: all).run()
        #expect(rerun.results.allSatisfy { $0.status == .passed })
        #expect(rerun.orphans == ["flat/up/retired@1x"])
        for id in ids {
            let after = fileIdentity(store.path(for: id))
            #expect(after?.inode == before[id]??.inode && after?.modified == before[id]??.modified, "\(id) was rewritten")
        }

        all.prune = true
        let pruned = try CheckRunner(catalog: catalog, options: all).run()
        #expect(pruned.pruned == ["flat/up/retired@1x"])
        #expect(pruned.orphans.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: goldens + "/flat/up/retired@1x.png"))
    }

    @Test("pruning more than a quarter of the goldens at once is refused, naming the share, unless forced")
    func pruneShare() throws {
        let goldens = temporaryFolder()
        _ = try runner(goldens, .missing).run()
        let store = GoldenStore(folder: goldens)
        let owned = store.allIDs()
        // Orphans: one more than a third of the owned count, so more than a quarter of all.
        let orphans = (0...(owned.count / 3)).map { "flat/up/retired\($0)@1x" }
        let bytes = try FileIO.readBytes(path: store.path(for: owned[0]))
        for id in orphans { try FileIO.writeAtomically(bytes, to: store.path(for: id)) }

        var options = checkOptions(goldens: goldens, mode: .all, filter: filter)
        options.prune = true
        let refused = try CheckRunner(catalog: catalog, options: options).run()
        #expect(refused.pruned.isEmpty)
        #expect(refused.exitCode == 2)
        #expect(refused.errors.contains { $0.contains("\(orphans.count) of \(owned.count + orphans.count)") && $0.contains("--force") },
                "\(refused.errors)")
        #expect(store.allIDs().count == owned.count + orphans.count)

        options.forcePrune = true
        let forced = try CheckRunner(catalog: catalog, options: options).run()
        #expect(Set(forced.pruned) == Set(orphans))
        #expect(store.allIDs() == owned)
    }

    @Test("a golden that cannot be decoded is an error for that case; the others are still judged")
    func unreadableGolden() throws {
        let goldens = temporaryFolder()
        let recorded = try runner(goldens, .missing).run()
        let victim = recorded.results[2]
        try FileIO.writeAtomically(Array("not a png".utf8), to: victim.goldenPath)
        let check = try runner(goldens, .never).run()
        let errors = check.results.filter { $0.status == .error }
        #expect(errors.map(\.id) == [victim.id])
        #expect(errors[0].message.contains(victim.goldenPath) && errors[0].message.contains("not a PNG"))
        #expect(check.results.filter { $0.status == .passed }.count == check.results.count - 1)
        #expect(check.exitCode == 2)
    }

    @Test("a missing goldens folder is an error naming it")
    func missingFolder() throws {
        let goldens = temporaryFolder() + "/nowhere"
        let check = try runner(goldens, .never).run()
        #expect(check.exitCode == 2)
        #expect(check.errors.contains { $0.contains(goldens) })
    }

    @Test("a filter that matches no case is an error naming it and the closest IDs")
    func emptyFilter() {
        let runner = self.runner(temporaryFolder(), .never, filter: "flat/up/popover8-portait")
        #expect {
            try runner.run()
        } throws: { error in
            guard case HarnessError.noCaseMatches(let filter, let closest) = error else { return false }
            // The closest are popover8's portrait cases, written without the typo.
            return filter == "flat/up/popover8-portait" && closest.first == "flat/up/popover8-portrait@1x"
        }
    }

    @Test("tolerances.json applies per case: a one-pixel change passes where it is allowed")
    func toleranceFile() throws {
        let goldens = temporaryFolder()
        let recorded = try runner(goldens, .missing).run()
        let victims = [recorded.results[1], recorded.results[2]]
        for victim in victims {
            var image = try PNGFile.read(path: victim.goldenPath)
            image.pixels[0] = image.pixels[0] &+ 3
            try PNGFile.write(image, to: victim.goldenPath)
        }
        let config = #"{"cases": {"\#(victims[0].id)": {"maxChannelDelta": "0-3", "differentPixels": "0-1"}}}"#
        try FileIO.writeAtomically(Array(config.utf8), to: goldens + "/tolerances.json")
        let check = try runner(goldens, .never).run()
        let byID = Dictionary(uniqueKeysWithValues: check.results.map { ($0.id, $0) })
        #expect(byID[victims[0].id]?.status == .passed)
        #expect(byID[victims[0].id]?.metrics?.maxChannelDelta == 3)
        #expect(byID[victims[1].id]?.status == .failed)
    }
}
