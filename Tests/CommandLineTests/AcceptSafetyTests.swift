import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// Accepting and undoing replace goldens, their facts and the report: these tests stop
/// them at every named point a process can die at, fill the goldens' or the report's disk
/// at many sizes, race them with `record`, and check each time that no golden is lost or
/// half-written, that a golden and its facts change together or not at all, that what
/// the tool says is what is on disk, and that nothing outside the goldens and the report
/// is touched.
@Suite("Accept and undo: killed, out of space, racing record", .serialized)
struct AcceptSafetyTests {
    static let filter = "path-slate/up/popover8"
    static let steps = ["review.staged", "goldens.golden-replaced", "review.golden-written", "review.published"]

    struct Workspace {
        let folder: TemporaryFolder
        let changed: [String]
        /// The committed goldens' bytes, before anything was accepted.
        let before: [String: [UInt8]]
        /// Their facts' rows (tied to the committed goldens the changed ones were made from).
        let rowsBefore: [String: GoldenFacts]
        /// The pixels this build draws for the changed cases: what accepting writes.
        let drawn: [String: RGBAImage]

        func golden(_ id: String) throws -> [UInt8] { try FileIO.readBytes(path: folder.file("Goldens/\(id).png")) }

        func row(_ id: String) -> GoldenFacts? { GoldenStore(folder: folder.file("Goldens")).recordedFacts(for: id) }

        func acceptedIDs() throws -> Set<String> {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/summary.json")))
            let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let cases = try #require(summary["cases"] as? [[String: Any]])
            return Set(cases.filter { $0["accepted"] != nil }.compactMap { $0["id"] as? String })
        }

        /// Whether `id`'s golden is the drawn one with its facts' row tied to it (true), or
        /// the committed one with its row as it was (false); an issue when it is neither.
        func isNew(_ id: String, _ context: String) throws -> Bool? {
            let bytes = try golden(id)
            if bytes == before[id] {
                #expect(row(id) == rowsBefore[id], "\(context): \(id) is old, but its facts' row changed")
                return false
            }
            guard try PNGFile.decode(bytes, name: id) == drawn[id] else {
                Issue.record("\(context): \(id) is neither its old nor its new golden")
                return nil
            }
            #expect(row(id)?.golden == SHA256.hex(bytes), "\(context): \(id) is new, but its facts' row is not tied to it")
            return true
        }

        /// Every changed case's golden is whole, and either the committed one or the
        /// drawn one: never half of a write, never a third thing.
        func goldensAreWholeAndKnown(_ context: String) throws {
            for id in changed {
                let bytes = try golden(id)
                if bytes == before[id] { continue }
                #expect(try PNGFile.decode(bytes, name: id) == drawn[id], "\(context): \(id) is neither its old nor its new golden")
            }
        }
    }

    /// A project with the committed goldens of the filter's cases, two of them perturbed
    /// with their facts' rows tied to them (the "committed" state of this test), and the
    /// failing check's report.
    func workspace() async throws -> Workspace {
        let folder = TemporaryFolder("accept-safety")
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let ids = catalog.cases(matching: Self.filter).map(\.id)
        // Every golden of their folder, so its facts table is as large as the committed one
        // (several disk blocks: a full disk can then take a golden and not the table).
        try copyCommittedGoldens(catalog.cases(matching: FilePaths.parent(of: ids[0]) + "/").map(\.id), to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        let changed = Array(ids.prefix(2))
        var before: [String: [UInt8]] = [:], drawn: [String: RGBAImage] = [:], rows: [String: GoldenFacts] = [:]
        for id in changed {
            var image = try PNGFile.read(path: folder.file("Goldens/\(id).png"))
            drawn[id] = image
            image.pixels.replaceSubrange(0..<8, with: [200, 10, 10, 255, 200, 10, 10, 255])
            try PNGFile.write(image, to: folder.file("Goldens/\(id).png"))
            before[id] = try FileIO.readBytes(path: folder.file("Goldens/\(id).png"))
            let table = GoldenStore(folder: folder.file("Goldens")).factsTablePath(for: id)
            let text = try String(contentsOfFile: table, encoding: .utf8)
            try retying(text, row: FilePaths.lastComponent(of: id), to: SHA256.hex(before[id]!))
                .write(toFile: table, atomically: true, encoding: .utf8)
            rows[id] = GoldenStore(folder: folder.file("Goldens")).recordedFacts(for: id)
            try #require(rows[id]?.golden == SHA256.hex(before[id]!))
        }
        let check = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        try #require(check.status == 1, "the perturbed check should fail: \(check.stdout)")
        return Workspace(folder: folder, changed: changed, before: before, rowsBefore: rows, drawn: drawn)
    }

    @Test("accept killed at each named point: every golden whole; the next accept finishes it, the check passes, and undo restores every golden")
    func killedAccept() async throws {
        for step in Self.steps {
            let w = try await workspace()
            defer { w.folder.remove() }
            let killed = try await runTool(["accept"] + w.changed, in: w.folder.path, environment: [CrashPoint.variable: step])
            #expect(killed.status == SIGKILL, "\(step): the accept should have been killed there: \(killed.stdout)")
            try w.goldensAreWholeAndKnown(step)

            let again = try await runTool(["accept"] + w.changed, in: w.folder.path)
            #expect(again.status == 0, "\(step): \(again.stdout)\(again.stderr)")
            #expect(try w.acceptedIDs() == Set(w.changed), "\(step)")
            for id in w.changed { #expect(try w.isNew(id, step) == true) }
            let check = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", "Recheck"],
                                    in: w.folder.path)
            #expect(check.status == 0 && !check.stdout.contains("stale"), "\(step): \(check.stdout)")

            let undo = try await runTool(["accept", "--undo"] + w.changed, in: w.folder.path)
            #expect(undo.status == 0, "\(step): \(undo.stdout)\(undo.stderr)")
            for id in w.changed { #expect(try w.isNew(id, step) == false, "\(step): \(id) not restored byte for byte") }
            #expect(try w.acceptedIDs().isEmpty, "\(step)")
        }
    }

    @Test("undo killed at each named point: every golden whole; the next undo completes it, every golden and row back byte for byte")
    func killedUndo() async throws {
        for step in Self.steps {
            let w = try await workspace()
            defer { w.folder.remove() }
            let accept = try await runTool(["accept"] + w.changed, in: w.folder.path)
            try #require(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
            let killed = try await runTool(["accept", "--undo"] + w.changed, in: w.folder.path,
                                     environment: [CrashPoint.variable: step])
            #expect(killed.status == SIGKILL, "\(step): the undo should have been killed there")
            try w.goldensAreWholeAndKnown(step)

            let again = try await runTool(["accept", "--undo"] + w.changed, in: w.folder.path)
            if step == "review.published" {
                // The record already says so: nothing is left to undo, and the tool says that.
                #expect(again.status == 2 && again.stderr.contains("was not accepted in this run's review"),
                        "\(again.stdout)\(again.stderr)")
            } else {
                #expect(again.status == 0 && again.stdout.contains("2 restored, 0 refused"), "\(step): \(again.stdout)\(again.stderr)")
            }
            for id in w.changed { #expect(try w.isNew(id, step) == false, "\(step): \(id) not restored byte for byte") }
            #expect(try w.acceptedIDs().isEmpty, "\(step)")
        }
    }

    /// Runs the tool in `w` with the folder `full` (Goldens or Reports) on a small file
    /// system of its own that has `free` bytes left (a private mount namespace, in a user
    /// namespace of its own, so the suite needs no root to mount it); the
    /// folder's content is put back in place afterwards.
    func runOnFullDisk(_ w: Workspace, _ arguments: [String], full: String, free: Int) throws -> (status: Int32, stdout: String, stderr: String) {
        let executable = try #require(popoverGoldensExecutable)
        let script = """
            mv \(full) \(full).real && mkdir \(full) && mount -t tmpfs -o size=16m tmpfs \(full) && cp -a \(full).real/. \(full)/ && \
            { dd if=/dev/zero of=\(full)/.filler bs=4096 2>/dev/null; truncate -s -\(free) \(full)/.filler; } && \
            "\(executable)" \(arguments.joined(separator: " ")) > out.txt 2> err.txt; echo $? > status.txt; \
            rm -f \(full)/.filler; mkdir \(full).after && cp -a \(full)/. \(full).after/
            """
        let status = shell("cd \"\(w.folder.path)\" && POPOVER_GOLDENS_CACHE=\"\(w.folder.path)/.popover-goldens-cache\" "
            + "unshare -r -m sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'")
        try #require(status == 0, "the test's own mount script failed")
        for leftover in [full, full + ".real"] { try FileManager.default.removeItem(atPath: w.folder.file(leftover)) }
        try FileManager.default.moveItem(atPath: w.folder.file(full + ".after"), toPath: w.folder.file(full))
        let read = { (name: String) in (try? String(contentsOfFile: w.folder.file(name), encoding: .utf8)) ?? "" }
        return (Int32(read("status.txt").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, read("out.txt"), read("err.txt"))
    }

    static let sizes = [0, 4096, 8192, 16384, 65536, 4 << 20]

    @Test("a full disk at any size: for each case, accept says accepted and wrote the golden with its facts, or says why not and changed neither",
          arguments: ["Goldens", "Reports"])
    func acceptOnFullDisk(_ full: String) async throws {
        var sides: Set<Bool> = []
        for free in Self.sizes {
            let w = try await workspace()
            defer { w.folder.remove() }
            let run = try runOnFullDisk(w, ["accept"] + w.changed, full: full, free: free)
            let context = "\(full) with \(free) bytes free"
            let recorded = try w.acceptedIDs()
            for id in w.changed {
                let said = run.stdout.contains("accepted  \(id) ->")
                #expect(try w.isNew(id, context) == said, "\(context): \(run.stdout)\(run.stderr)")
                #expect(recorded.contains(id) == said, "\(context): the report's record of \(id) is not what the tool said")
                #expect(said || run.stderr.contains("No space left on device"), "\(context): the error should say why: \(run.stderr)")
                sides.insert(said)
            }
            #expect((run.status == 0) == w.changed.allSatisfy { run.stdout.contains("accepted  \($0) ->") }, "\(context)")
        }
        // Both sides were reached: a full disk refuses, enough space accepts.
        #expect(sides == [true, false], "\(sides)")
    }

    @Test("a full goldens disk at any size: for each case, undo says restored and put back the golden with its facts, or says why not and changed neither")
    func undoOnFullDisk() async throws {
        var sides: Set<Bool> = []
        for free in Self.sizes {
            let w = try await workspace()
            defer { w.folder.remove() }
            let accept = try await runTool(["accept"] + w.changed, in: w.folder.path)
            try #require(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
            let run = try runOnFullDisk(w, ["accept", "--undo"] + w.changed, full: "Goldens", free: free)
            let context = "Goldens with \(free) bytes free"
            let recorded = try w.acceptedIDs()
            for id in w.changed {
                let said = run.stdout.contains("restored  Goldens/\(id).png")
                #expect(try w.isNew(id, context) == !said, "\(context): \(run.stdout)\(run.stderr)")
                #expect(recorded.contains(id) == !said, "\(context): the report's record of \(id) is not what the tool said")
                sides.insert(said)
            }
        }
        #expect(sides == [true, false], "\(sides)")
    }

    @Test("a full goldens disk at any size: record writes each golden with its facts, or reports an error for it and changes neither")
    func recordOnFullDisk() async throws {
        var sides: Set<Bool> = []
        for free in Self.sizes {
            let w = try await workspace()
            defer { w.folder.remove() }
            let run = try runOnFullDisk(w, ["record", Self.filter], full: "Goldens", free: free)
            let context = "Goldens with \(free) bytes free"
            for id in w.changed {
                let failed = run.stdout.contains("ERROR \(id):")
                #expect(try w.isNew(id, context) == !failed, "\(context): \(run.stdout)")
                #expect(!failed || run.stdout.contains("No space left on device"), "\(context): \(run.stdout)")
                sides.insert(failed)
            }
        }
        #expect(sides == [true, false], "\(sides)")
    }

    /// Every file and link under `folder`, with its bytes (or where it points), except
    /// what lies under `excluded` (relative paths).
    func snapshot(_ folder: String, excluding excluded: [String]) -> [String: Data] {
        var out: [String: Data] = [:]
        for relative in FileManager.default.subpaths(atPath: folder) ?? [] {
            guard !excluded.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) else { continue }
            let path = folder + "/" + relative
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                out[relative] = Data(("-> " + target).utf8)
            } else {
                out[relative] = FileManager.default.contents(atPath: path) ?? Data("(folder)".utf8)
            }
        }
        return out
    }

    @Test("accept and undo write nothing outside the goldens folder and the report (the cache folder included), and in the goldens only the cases named")
    func nothingElseWritten() async throws {
        let w = try await workspace()
        defer { w.folder.remove() }
        let outside = snapshot(w.folder.path, excluding: ["Goldens", "Reports"])
        let goldens = snapshot(w.folder.file("Goldens"), excluding: [])
        #expect(outside.keys.contains { $0.hasPrefix(".popover-goldens-cache/") }, "the check should have made its cache")
        let accept = try await runTool(["accept", w.changed[0]], in: w.folder.path)
        #expect(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
        #expect(snapshot(w.folder.path, excluding: ["Goldens", "Reports"]) == outside, "accept wrote outside the goldens and the report")
        let named = ["\(w.changed[0]).png", FilePaths.parent(of: w.changed[0]) + "/facts.tsv"]
        let afterAccept = snapshot(w.folder.file("Goldens"), excluding: [])
        #expect(Set(afterAccept.keys) == Set(goldens.keys))
        let written = Set(afterAccept.filter { goldens[$0.key] != $0.value }.keys)
        #expect(written.contains(named[0]) && written.isSubset(of: named), "\(written)")
        let undo = try await runTool(["accept", "--undo", w.changed[0]], in: w.folder.path)
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(snapshot(w.folder.path, excluding: ["Goldens", "Reports"]) == outside, "undo wrote outside the goldens and the report")
        #expect(snapshot(w.folder.file("Goldens"), excluding: []) == goldens, "undo did not put back the goldens folder as it was")
    }

    @Test("accept racing record over the same goldens: every golden whole and drawn, its facts its own; accept refuses what record replaced first")
    func racingRecord() async throws {
        let executable = try #require(popoverGoldensExecutable)
        for round in 0..<3 {
            let w = try await workspace()
            defer { w.folder.remove() }
            let processes = [
                toolProcess(executable, ["accept"] + w.changed, in: w.folder.path),
                toolProcess(executable, ["record", Self.filter, "--reports", "Recorded"], in: w.folder.path),
            ]
            let outputs = processes.map { process in
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                return pipe
            }
            for process in processes { try process.run() }
            let texts = outputs.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            for process in processes { process.waitUntilExit() }
            // Record either wrote a golden, or found accept had replaced it since it looked and
            // said so (exit 2), never overwriting it.
            let recordErrors = texts[1].split(separator: "\n").filter { $0.hasPrefix("ERROR") }
            #expect(processes[1].terminationStatus == (recordErrors.isEmpty ? 0 : 2), "round \(round): record: \(texts[1])")
            for line in recordErrors {
                #expect(w.changed.contains { line.hasPrefix("ERROR \($0): cannot record the golden: Goldens/\($0).png changed while") },
                        "round \(round): \(line)")
            }
            for id in w.changed {
                #expect(try PNGFile.decode(try w.golden(id), name: id) == w.drawn[id], "round \(round): \(id)")
                #expect(texts[0].contains("accepted  \(id)") || texts[0].contains("REFUSED \(id): Goldens/\(id).png is no longer"),
                        "round \(round): \(texts[0])")
            }
            // Every facts row is tied to its golden: a check finds nothing stale or missing.
            let check = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", "Recheck"],
                                    in: w.folder.path)
            #expect(check.status == 0 && !check.stdout.contains("stale") && !check.stdout.contains("facts"),
                    "round \(round): \(check.stdout)")
        }
    }
}
