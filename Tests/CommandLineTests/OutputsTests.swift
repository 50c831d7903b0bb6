import Foundation
import PopoverFiles
import PopoverHarness
import Testing
import TestSupport

/// What the tool writes and prints, against hostile input written here: a path given for
/// a report that is not a report's folder is refused and left as it was; text from the
/// repository, a report or a shard never starts a line of its own on standard output or
/// standard error (a CI runner obeys `::error`, `::add-mask::` and `::stop-commands::` at
/// a line's start), with or without annotations; `--jobs` has one bound that the writer
/// and every reader of summary.json share.
@Suite("Outputs and the paths they go to", .serialized,
       .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct OutputsTests {
    static let filter = "path-slate/up/popover8"

    /// A project with the filter's committed goldens, the 1x one changed by a pixel so it
    /// fails, and as its skins folder the committed one, or an empty one of its own (the
    /// built-in skins, path-slate among them, need none).
    static func project(committedSkins: Bool = true, _ label: String = #function) throws -> (folder: TemporaryFolder, ids: [String]) {
        let folder = TemporaryFolder(label)
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        var image = try PNGFile.read(path: folder.file("Goldens/\(ids[0]).png"))
        image.pixels.replaceSubrange(0..<4, with: [200, 10, 10, 255])
        try PNGFile.write(image, to: folder.file("Goldens/\(ids[0]).png"))
        if committedSkins { try linkCommittedSkins(into: folder.path) } else { try FileIO.createDirectories(folder.file("Skins")) }
        return (folder, ids)
    }

    /// Checks the project as shards 1 and 2 of 2, into `S1` and `S2`.
    static func checkShards(_ folder: TemporaryFolder, _ options: [String] = [],
                            sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for index in 1...2 {
            let shard = try await runTool(["check", "--filter", filter, "--record", "never", "--shard", "\(index)/2",
                                     "--reports", "S\(index)"] + options, in: folder.path)
            #expect(shard.status <= 1, "\(shard.stdout)\(shard.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// Every line a CI runner would see in `output` (it breaks lines at CR as at LF),
    /// checked: none starts a workflow command other than the tool's own annotations of
    /// the run's goldens, and no CR is left.
    static func expectNoForgedCommands(_ output: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!output.contains("\r"), "\(what): a carriage return reached the output", sourceLocation: sourceLocation)
        for line in output.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" })
        where line.hasPrefix("::") {
            #expect(line.hasPrefix("::error file=Goldens/path-slate/up/popover8-") && line.contains(",title=path-slate/up/"),
                    "\(what): a line starts a workflow command: \(line)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Paths

    @Test("check --reports naming a file, a symbolic link or a source folder: refused naming it, nothing moved or deleted, twice")
    func reportsPathRefused() async throws {
        let (folder, _) = try Self.project()
        defer { folder.remove() }
        let notes = Array("my notes\n".utf8)
        try FileIO.writeAtomically(notes, to: folder.file("notes.txt"))
        try FileIO.createDirectories(folder.file("real"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("linked"), withDestinationPath: folder.file("real"))
        let before = try folder.contents()
        for (path, said) in [("notes.txt", "notes.txt: is a file, not a folder"),
                             ("linked", "linked: is a symbolic link"),
                             ("Goldens", "Goldens: holds 'path-slate', which no report writes")] {
            for _ in 0..<2 {
                let run = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--reports", path], in: folder.path)
                #expect(run.status == 2, "\(path): \(run.stdout)\(run.stderr)")
                #expect(run.stderr.contains(said), "\(path): \(run.stderr)")
            }
        }
        #expect(try folder.contents() == before)
        #expect(try FileIO.readBytes(path: folder.file("notes.txt")) == notes)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("linked")) == folder.file("real"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("real")).isEmpty)
    }

    @Test("merge-reports --out naming a file, or one of the shards: refused naming it; the file and the shard as they were")
    func mergeOutRefused() async throws {
        let (folder, _) = try Self.project()
        defer { folder.remove() }
        try await Self.checkShards(folder)
        let notes = Array("my notes\n".utf8)
        try FileIO.writeAtomically(notes, to: folder.file("notes.txt"))
        let shardSummary = try FileIO.readBytes(path: folder.file("S1/summary.json"))
        let shardFiles = try FileManager.default.subpathsOfDirectory(atPath: folder.file("S1")).sorted()
        let before = try folder.contents()
        for (out, said) in [("notes.txt", "notes.txt: is a file, not a folder"),
                            ("S1", "S1: is the shard S1 being merged"),
                            ("./S1/", "is the shard S1 being merged")] {
            let merge = try await runTool(["merge-reports", "S1", "S2", "--out", out], in: folder.path)
            #expect(merge.status == 2, "\(out): \(merge.stdout)\(merge.stderr)")
            #expect(merge.stderr.contains(said), "\(out): \(merge.stderr)")
        }
        #expect(try folder.contents() == before)
        #expect(try FileIO.readBytes(path: folder.file("notes.txt")) == notes)
        #expect(try FileIO.readBytes(path: folder.file("S1/summary.json")) == shardSummary)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.file("S1")).sorted() == shardFiles)
        // A folder of its own takes the merge.
        let merged = try await runTool(["merge-reports", "S1", "S2", "--out", "M"], in: folder.path)
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
    }

    // MARK: Text from the repository, a report or a shard

    @Test("a skin folder's name, a skin.json kind, an orphan golden's name and a facts.tsv cell print no workflow command",
          arguments: [false, true])
    func hostileRepository(annotations: Bool) async throws {
        let (folder, ids) = try Self.project(committedSkins: false)
        defer { folder.remove() }
        let skinName = "bad\n::error file=forged.swift::forged by a skin folder"
        try FileIO.createDirectories(folder.file("Skins/" + skinName))
        try FileIO.writeAtomically(Array("{}".utf8), to: folder.file("Skins/" + skinName + "/skin.json"))
        try FileIO.createDirectories(folder.file("Skins/kinded"))
        try FileIO.writeAtomically(Array(#"{"kind": "x\r::add-mask::forged by a kind"}"#.utf8),
                                   to: folder.file("Skins/kinded/skin.json"))
        let orphan = "Goldens/path-slate/up/popover8-orphan\n::stop-commands::forged-by-a-golden-name.png"
        try FileIO.writeAtomically(try FileIO.readBytes(path: folder.file("Goldens/\(ids[1]).png")), to: folder.file(orphan))
        // A raw CR inside a cell: the table cannot be read, and the note quotes the cell.
        let table = "case\tgolden\timage\nx\t\(String(repeating: "a", count: 64))\t\"up\r::error file=a::forged by a cell\"\n"
        try FileIO.writeAtomically(Array(table.utf8), to: folder.file("Goldens/path-slate/up/facts.tsv"))

        let run = try await runTool(["check", "--filter", Self.filter, "--record", "never",
                               "--annotations", annotations ? "github" : "none"], in: folder.path)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        Self.expectNoForgedCommands(run.stdout, "check's standard output")
        Self.expectNoForgedCommands(run.stderr, "check's standard error")
        // Each hostile text was said, escaped.
        for said in [#"bad\n::error file=forged.swift::forged by a skin folder"#, #"x\r::add-mask::forged by a kind"#,
                     #"popover8-orphan\n::stop-commands::forged-by-a-golden-name.png"#, #"up\r::error file=a::forged by a cell"#] {
            #expect(run.stdout.contains(said), "\(said) not in \(run.stdout)")
        }
        #expect(run.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }.count == (annotations ? 1 : 0),
                "\(run.stdout)")
        let list = try await runTool(["list", "--filter", Self.filter], in: folder.path)
        Self.expectNoForgedCommands(list.stdout + list.stderr, "list")
        let markdown = try String(contentsOfFile: folder.file("Reports/summary.md"), encoding: .utf8)
        Self.expectNoForgedCommands(markdown, "summary.md")
    }

    @Test("a shard's errors, notes, messages and explanations print no workflow command when merged", arguments: [false, true])
    func hostileShard(annotations: Bool) async throws {
        let (folder, ids) = try Self.project()
        defer { folder.remove() }
        try await Self.checkShards(folder)
        for index in 1...2 {
            let file = folder.file("S\(index)/summary.json")
            var summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            summary["errors"] = ["e\n::error file=a::forged by a shard's error"]
            summary["notes"] = ["n\r::add-mask::forged by a shard's note"]
            var cases = try #require(summary["cases"] as? [[String: Any]])
            for i in cases.indices {
                cases[i]["message"] = "m\n::stop-commands::forged-by-a-message"
                if cases[i]["explanation"] != nil { cases[i]["explanation"] = "x\r\n::error file=b::forged by an explanation" }
            }
            summary["cases"] = cases
            try JSONSerialization.data(withJSONObject: summary).write(to: URL(fileURLWithPath: file))
        }
        let merge = try await runTool(["merge-reports", "S1", "S2", "--out", "M", "--annotations", annotations ? "github" : "none"],
                                in: folder.path)
        #expect(merge.status == 2, "\(merge.stdout)\(merge.stderr)")
        Self.expectNoForgedCommands(merge.stdout, "merge's standard output")
        Self.expectNoForgedCommands(merge.stderr, "merge's standard error")
        #expect(merge.stdout.contains(#"ERROR e\n::error file=a::forged by a shard's error"#), "\(merge.stdout)")
        #expect(merge.stdout.contains(#"note: n\r::add-mask::forged by a shard's note"#), "\(merge.stdout)")
        #expect(merge.stdout.contains(#"FAILED \#(ids[0]): m\n::stop-commands::forged-by-a-message"#), "\(merge.stdout)")
        #expect(merge.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }.count == (annotations ? 1 : 0),
                "\(merge.stdout)")
        Self.expectNoForgedCommands(try String(contentsOfFile: folder.file("M/summary.md"), encoding: .utf8), "summary.md")
    }

    // MARK: Jobs

    @Test("--jobs above 4096 is refused at the option; a record of 4096 threads, and a merge of two, read back everywhere")
    func jobsBound() async throws {
        let (folder, _) = try Self.project()
        defer { folder.remove() }
        let tooMany = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--jobs", "100000"], in: folder.path)
        #expect(tooMany.status == 2 && tooMany.stderr.contains("--jobs: 100000 is more than 4096"), "\(tooMany.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Reports")))
        try await Self.checkShards(folder, ["--jobs", "4096"])
        let merge = try await runTool(["merge-reports", "S1", "S2", "--out", "M"], in: folder.path)
        #expect(merge.status == 1, "\(merge.stdout)\(merge.stderr)")
        #expect(merge.stdout.contains("on 8192 threads"), "\(merge.stdout)")
        for summary in ["S1/summary.json", "M/summary.json"] {
            let list = try await runTool(["list", "--filter", Self.filter, "--shard", "1/2", "--shard-timings", summary], in: folder.path)
            #expect(list.status == 0, "\(summary): \(list.stderr)")
        }
    }
}
