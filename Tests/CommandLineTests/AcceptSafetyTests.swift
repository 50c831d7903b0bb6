import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// Accepting and undoing are multi-file writes (goldens, their facts, the kept previous
/// goldens, the report): these tests stop them at every step a process can die at, fill
/// the report's disk at every size, and race them with `record`, and check each time that
/// no golden is lost or half-written and that what is left can be finished or undone.
@Suite("Accept and undo: killed, out of space, racing record", .serialized)
struct AcceptSafetyTests {
    static let filter = "path-slate/up/popover8"
    static let steps = ["review.staged", "review.golden-written", "review.published"]

    struct Workspace {
        let folder: TemporaryFolder
        let changed: [String]
        /// The committed goldens' bytes, before anything was accepted.
        let before: [String: [UInt8]]
        /// The pixels this build draws for the changed cases: what accepting writes.
        let drawn: [String: RGBAImage]

        func golden(_ id: String) throws -> [UInt8] { try FileIO.readBytes(path: folder.file("Goldens/\(id).png")) }

        func acceptedIDs() throws -> Set<String> {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/summary.json")))
            let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let cases = try #require(summary["cases"] as? [[String: Any]])
            return Set(cases.filter { $0["accepted"] != nil }.compactMap { $0["id"] as? String })
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
    /// (the "committed" state of this test), and the failing check's report.
    func workspace() throws -> Workspace {
        let folder = TemporaryFolder("accept-safety")
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let ids = catalog.cases(matching: Self.filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        let changed = Array(ids.prefix(2))
        var before: [String: [UInt8]] = [:], drawn: [String: RGBAImage] = [:]
        for id in changed {
            var image = try PNGFile.read(path: folder.file("Goldens/\(id).png"))
            drawn[id] = image
            image.pixels.replaceSubrange(0..<8, with: [200, 10, 10, 255, 200, 10, 10, 255])
            try PNGFile.write(image, to: folder.file("Goldens/\(id).png"))
            before[id] = try FileIO.readBytes(path: folder.file("Goldens/\(id).png"))
        }
        let check = try runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        try #require(check.status == 1, "the perturbed check should fail: \(check.stdout)")
        return Workspace(folder: folder, changed: changed, before: before, drawn: drawn)
    }

    @Test("accept killed at each step: the next accept finishes it, the check passes, and undo restores every golden")
    func killedAccept() throws {
        for step in Self.steps {
            let w = try workspace()
            defer { w.folder.remove() }
            let killed = try runTool(["accept"] + w.changed, in: w.folder.path, environment: [CrashPoint.variable: step])
            #expect(killed.status == SIGKILL, "\(step): the accept should have been killed there: \(killed.stdout)")
            try w.goldensAreWholeAndKnown(step)

            let again = try runTool(["accept"] + w.changed, in: w.folder.path)
            #expect(again.status == 0, "\(step): \(again.stdout)\(again.stderr)")
            #expect(try w.acceptedIDs() == Set(w.changed), "\(step)")
            for id in w.changed { #expect(try PNGFile.decode(try w.golden(id), name: id) == w.drawn[id], "\(step): \(id)") }
            let check = try runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", "Recheck"],
                                    in: w.folder.path)
            #expect(check.status == 0, "\(step): \(check.stdout)")

            let undo = try runTool(["accept", "--undo"] + w.changed, in: w.folder.path)
            #expect(undo.status == 0, "\(step): \(undo.stdout)\(undo.stderr)")
            for id in w.changed { #expect(try w.golden(id) == w.before[id], "\(step): \(id) not restored byte for byte") }
            #expect(try w.acceptedIDs().isEmpty, "\(step)")
        }
    }

    @Test("undo killed at each step: the next undo completes it, every golden back byte for byte")
    func killedUndo() throws {
        for step in Self.steps {
            let w = try workspace()
            defer { w.folder.remove() }
            let accept = try runTool(["accept"] + w.changed, in: w.folder.path)
            try #require(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
            let killed = try runTool(["accept", "--undo"] + w.changed, in: w.folder.path,
                                     environment: [CrashPoint.variable: step])
            #expect(killed.status == SIGKILL, "\(step): the undo should have been killed there")
            try w.goldensAreWholeAndKnown(step)

            let again = try runTool(["accept", "--undo"] + w.changed, in: w.folder.path)
            #expect(again.status == 0, "\(step): \(again.stdout)\(again.stderr)")
            #expect(again.stdout.contains("2 restored, 0 refused"), "\(step): \(again.stdout)")
            for id in w.changed { #expect(try w.golden(id) == w.before[id], "\(step): \(id) not restored byte for byte") }
            #expect(try w.acceptedIDs().isEmpty, "\(step)")
        }
    }

    @Test("the report's disk full at any size: either the whole accept is recorded, or no golden is replaced")
    func diskFull() throws {
        let executable = try #require(popoverGoldensExecutable)
        var outcomes: [Bool] = []
        for free in [0, 4096, 16384, 65536, 4 << 20] {
            let w = try workspace()
            defer { w.folder.remove() }
            // A private mount namespace: a small file system for the report, filled up to
            // `free` bytes; the accept's output and the record it leaves are copied out.
            let script = """
                mv Reports Full && mkdir Reports && mount -t tmpfs -o size=16m tmpfs Reports && cp -a Full/. Reports/ && \
                { dd if=/dev/zero of=Reports/.filler bs=4096 2>/dev/null; truncate -s -\(free) Reports/.filler; } && \
                "\(executable)" accept \(w.changed.joined(separator: " ")) > out.txt 2> err.txt; echo $? > status.txt; \
                rm -f Reports/.filler; cp Reports/summary.json after.json
                """
            let status = shell("cd \"\(w.folder.path)\" && POPOVER_GOLDENS_CACHE=\"\(w.folder.path)/.popover-goldens-cache\" "
                + "unshare -m sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'")
            try #require(status == 0, "the test's own mount script failed")
            let out = (try? String(contentsOfFile: w.folder.file("out.txt"), encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: w.folder.file("err.txt"), encoding: .utf8)) ?? ""
            let exit = (try? String(contentsOfFile: w.folder.file("status.txt"), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let data = try Data(contentsOf: URL(fileURLWithPath: w.folder.file("after.json")))
            let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(free): the record is whole")
            let accepted = Set((summary["cases"] as? [[String: Any]] ?? []).filter { $0["accepted"] != nil }.compactMap { $0["id"] as? String })
            if exit == "0" {
                #expect(accepted == Set(w.changed), "\(free) bytes free: \(out)")
                for id in w.changed { #expect(try PNGFile.decode(try w.golden(id), name: id) == w.drawn[id]) }
                outcomes.append(true)
            } else {
                #expect(exit == "2", "\(free) bytes free: \(out)\(err)")
                #expect(err.contains("No space left on device"), "\(free) bytes free: the error should say why: \(err)")
                #expect(accepted.isEmpty, "\(free) bytes free: the record claims acceptances")
                for id in w.changed { #expect(try w.golden(id) == w.before[id], "\(free) bytes free: \(id) was replaced") }
                outcomes.append(false)
            }
        }
        // Both sides were reached: a full disk refuses, enough space accepts.
        #expect(outcomes.first == false && outcomes.last == true, "\(outcomes)")
    }

    @Test("accept racing record over the same goldens: every golden whole and drawn, its facts its own; accept refuses what record replaced first")
    func racingRecord() throws {
        let executable = try #require(popoverGoldensExecutable)
        for round in 0..<3 {
            let w = try workspace()
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
            // Every facts file is tied to its golden: a check finds nothing stale or missing.
            let check = try runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", "Recheck"],
                                    in: w.folder.path)
            #expect(check.status == 0 && !check.stdout.contains("stale") && !check.stdout.contains("facts"),
                    "round \(round): \(check.stdout)")
        }
    }
}
