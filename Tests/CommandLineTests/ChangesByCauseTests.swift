import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// A reviewer's edits to skin folders, checked through the tool with every folder given
/// (`--skins`, `--goldens`, `--reports` not the defaults): one edit is one change, named
/// by the skin field, with every case it touched; three edits are three; a golden edited
/// by hand is a change of its own; and every command the terminal, summary.md,
/// summary.json and the page print does, run as printed in a copy, what its text says.
///
/// The expectations are worked out from the model, not from the tool's output:
/// `sideArrowCenterOffset` is read only by the side images (specification §4.2), so of a
/// skin's popover8 scenes only those pointing left or right move; a border colour is in
/// every image's outline, so every case of the skin changes; `arrowBase` moves the ends
/// of the offset sweeps (the sweep runs to the base's half past the corners), so sweep
/// cases are renamed: new cases, and the goldens of the old offsets orphaned.
@Suite("Changes by cause, through the tool", .serialized)
struct ChangesByCauseTests {
    /// A project in a temporary folder: the committed skins copied to `my skins` with
    /// `edit` applied, the committed goldens of `filter`'s cases (as the committed skins
    /// name them) in `my-goldens`, and a check of `filter` into `my-reports`.
    struct Project {
        let folder: TemporaryFolder
        let check: ToolRun
        let filter: String

        var summary: [String: Any] {
            get throws {
                let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("my-reports/summary.json")))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }
        var changes: [[String: Any]] { get throws { try #require(try summary["changes"] as? [[String: Any]]) } }
        func cases(_ status: String) throws -> [String] {
            try #require(try summary["cases"] as? [[String: Any]]).filter { $0["status"] as? String == status }
                .compactMap { $0["id"] as? String }
        }
    }

    static let folders = ["--skins", "my skins", "--goldens", "my-goldens", "--reports", "my-reports"]

    static func project(_ filter: String, edit: (String) throws -> Void) async throws -> Project {
        let folder = TemporaryFolder("changes-by-cause")
        try FileManager.default.copyItem(atPath: PackageFolders.skins, toPath: folder.file("my skins"))
        try edit(folder.file("my skins"))
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("my-goldens"))
        let check = try await runTool(["check", "--filter", filter, "--record", "never"] + folders, in: folder.path)
        return Project(folder: folder, check: check, filter: filter)
    }

    /// Sets `key` of a skin's skin.json to `value` (a JSON text).
    static func set(_ skins: String, _ skin: String, _ edit: (inout [String: Any]) -> Void) throws {
        let file = skins + "/" + skin + "/skin.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))
    }

    static func sideOffset(_ skins: String) throws { try set(skins, "gik-default") { $0["metrics"] = ["sideArrowCenterOffset": 8] } }
    static func redBorder(_ skins: String) throws {
        try set(skins, "gik-tinted") { json in
            var images = json["images"] as! [String: Any], colours = images["colours"] as! [String: Any]
            colours["border"] = [0.2, 0, 0, 1]
            images["colours"] = colours
            json["images"] = images
        }
    }
    static func widerBase(_ skins: String) throws { try set(skins, "gik-sample") { $0["metrics"] = ["arrowBase": 39] } }

    static func edits(_ change: [String: Any]) -> [[String]] {
        (change["edits"] as? [[String: Any]] ?? []).map { e in ["skin", "field", "expected", "actual"].map { e[$0] as? String ?? "" } }
    }

    @Test("one metric: sideArrowCenterOffset 7 -> 8 is one change of exactly the side-image cases, its amounts variants")
    func oneMetric() async throws {
        let p = try await Self.project("gik-default/*/popover*") { try Self.sideOffset($0) }
        defer { p.folder.remove() }
        #expect(p.check.status == 1, "\(p.check.stdout)\(p.check.stderr)")
        let changes = try p.changes
        try #require(changes.count == 1, "\(changes.map { $0["explanation"] ?? "" })")
        let change = changes[0]
        #expect(change["kind"] as? String == "input")
        #expect(Self.edits(change) == [["gik-default", "sideArrowCenterOffset", "7", "8"]])
        // Every failing case, and only side-image (left and right) cases.
        let members = try #require(change["cases"] as? [String])
        let failed = try p.cases("failed")
        #expect(!failed.isEmpty && Set(members) == Set(failed))
        #expect(members.allSatisfy { $0.contains("/left/") || $0.contains("/right/") }, "\(members)")
        let sides = members
        #expect((change["explanation"] as? String)?.hasPrefix("gik-default: sideArrowCenterOffset 7 -> 8: the arrow tip moves by up to ") == true,
                "\(change["explanation"] ?? "")")
        let counts = (change["variants"] as? [[String: Any]] ?? []).compactMap { $0["count"] as? Int }
        #expect(counts.reduce(0, +) == sides.count)
        // The terminal's last line is the change with its command, carrying every folder.
        let last = try #require(p.check.stdout.split(separator: "\n").last.map(String.init))
        #expect(last.hasSuffix("(accept: popover-goldens accept --change \(change["id"] as? String ?? "?") --goldens my-goldens "
            + "--reports my-reports --skins 'my skins')"), "\(last)")
    }

    @Test("one colour: the border of gik-tinted is one change of every case, named as skin.json names it")
    func oneColour() async throws {
        let p = try await Self.project("gik-tinted/up/popover8") { try Self.redBorder($0) }
        defer { p.folder.remove() }
        let changes = try p.changes
        try #require(changes.count == 1)
        #expect(Self.edits(changes[0]) == [["gik-tinted", "images.colours.border", "[0, 0, 0, 1]", "[0.2, 0, 0, 1]"]])
        let all = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "gik-tinted/up/popover8").map(\.id)
        #expect(Set(changes[0]["cases"] as? [String] ?? []) == Set(all))
        #expect(changes[0]["explanation"] as? String
                == "gik-tinted: images.colours.border [0, 0, 0, 1] -> [0.2, 0, 0, 1]: the drawing changed in the arrow and border (redder)")
    }

    @Test("arrowBase: one change holding its failing cases, the renamed sweep cases as new, and the orphans they replace")
    func arrowBase() async throws {
        let p = try await Self.project("gik-sample/up/sweep-120x104") { try Self.widerBase($0) }
        defer { p.folder.remove() }
        let changes = try p.changes
        try #require(changes.count == 1, "\(changes.map { $0["explanation"] ?? "" })")
        let change = changes[0]
        #expect(Self.edits(change) == [["gik-sample", "arrowBase", "37", "39"]])
        let missing = try p.cases("missing")
        #expect(!missing.isEmpty)
        #expect(Set(change["newCases"] as? [String] ?? []) == Set(missing))
        let failed = try p.cases("failed")
        #expect(Set(change["cases"] as? [String] ?? []) == Set(missing + failed))
        // Every orphan is one of the old offsets of these sweeps, and it is this change's.
        let orphans = try #require(try p.summary["orphans"] as? [String])
        #expect(!orphans.isEmpty && Set(change["orphans"] as? [String] ?? []) == Set(orphans))
        #expect(orphans.allSatisfy { $0.hasPrefix("gik-sample/up/sweep-120x104-offset") })
    }

    @Test("three edits in three skins: three changes, one per edit")
    func threeEdits() async throws {
        let p = try await Self.project("*/left/*@1x") {
            try Self.sideOffset($0)
            try Self.redBorder($0)
            try Self.widerBase($0)
        }
        defer { p.folder.remove() }
        let changes = try p.changes
        #expect(Set(changes.map(Self.edits)) == [[["gik-default", "sideArrowCenterOffset", "7", "8"]],
                                                 [["gik-tinted", "images.colours.border", "[0, 0, 0, 1]", "[0.2, 0, 0, 1]"]],
                                                 [["gik-sample", "arrowBase", "37", "39"]]])
        for change in changes {
            let skin = Self.edits(change).first?.first ?? "?"
            #expect((change["cases"] as? [String] ?? []).allSatisfy { $0.hasPrefix(skin + "/") })
        }
    }

    @Test("a golden edited by hand: its own change, saying the golden changed since its facts were recorded")
    func handEditedGolden() async throws {
        let id = "gik-sample/up/popover8-portrait@1x"
        let p = try await Self.project("gik-sample/up/popover8") { skins in
            _ = skins
        }
        defer { p.folder.remove() }
        #expect(p.check.status == 0)
        let path = p.folder.file("my-goldens/\(id).png")
        var image = try PNGFile.read(path: path)
        // A few opaque pixels in the middle of the body, made red.
        let middle = (image.height / 2 * image.width + image.width / 2) * 4
        image.pixels.replaceSubrange(middle..<middle + 12, with: [255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255])
        try FileIO.writeAtomically(PNGFile.encode(image), to: path)
        let again = try await runTool(["check", "--filter", p.filter, "--record", "never"] + Self.folders, in: p.folder.path)
        #expect(again.status == 1)
        let changes = try p.changes
        try #require(changes.count == 1)
        #expect(changes[0]["kind"] as? String == "unexplained")
        #expect(changes[0]["cases"] as? [String] == [id])
        #expect((changes[0]["explanation"] as? String)?.hasPrefix("the golden file changed since its facts were recorded") == true,
                "\(changes[0]["explanation"] ?? "")")
    }

    // MARK: Every printed command, run as printed

    /// Every command the run prints: the terminal's, summary.md's, summary.json's and the
    /// page's.
    static func printedCommands(_ p: Project) throws -> Set<String> {
        var commands = Set<String>()
        for line in p.check.stdout.split(separator: "\n") {
            if let r = line.range(of: "(accept: ") { commands.insert(String(line[r.upperBound...].dropLast())) }
            if line.hasPrefix("orphan"), let a = line.firstIndex(of: "`"), let b = line.lastIndex(of: "`"), a < b {
                commands.insert(String(line[line.index(after: a)..<b]))
            }
            if line.hasPrefix("note:"), let a = line.firstIndex(of: "`"), let b = line[line.index(after: a)...].firstIndex(of: "`") {
                commands.insert(String(line[line.index(after: a)..<b]))
            }
        }
        let markdown = try String(contentsOfFile: p.folder.file("my-reports/summary.md"), encoding: .utf8)
        for line in markdown.split(separator: "\n") where line.hasPrefix("popover-goldens ") { commands.insert(String(line)) }
        let summary = try p.summary
        for advice in summary["commands"] as? [[String: Any]] ?? [] { if let c = advice["command"] as? String { commands.insert(c) } }
        for change in try p.changes { if let c = change["command"] as? String { commands.insert(c) } }
        let page = try String(contentsOfFile: p.folder.file("my-reports/index.html"), encoding: .utf8)
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"report-data\">"))
        let end = try #require(page[start.upperBound...].range(of: "</script>"))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        for advice in data["commands"] as? [[String: Any]] ?? [] { if let c = advice["command"] as? String { commands.insert(c) } }
        for change in data["changes"] as? [[String: Any]] ?? [] { if let c = change["command"] as? String { commands.insert(c) } }
        return commands
    }

    /// Every golden PNG under `goldens`, by path, with its bytes.
    static func pngs(_ goldens: String) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let files = FileManager.default.enumerator(atPath: goldens)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".png") { out[String(file.dropLast(4))] = try FileIO.readBytes(path: goldens + "/" + file) }
        return out
    }

    @Test("every command printed anywhere, run as printed in a copy, does what its text says and nothing more")
    func printedCommandsAreSafe() async throws {
        let p = try await Self.project("gik-sample/up/sweep-120x104") { try Self.widerBase($0) }
        defer { p.folder.remove() }
        // Goldens without facts: the advice must write facts, never a golden.
        let table = p.folder.file("my-goldens/gik-sample/up/facts.tsv")
        try FileManager.default.removeItem(atPath: table)
        let check = try await runTool(["check", "--filter", p.filter, "--record", "never"] + Self.folders, in: p.folder.path)
        let project = Project(folder: p.folder, check: check, filter: p.filter)
        let commands = try Self.printedCommands(project)
        let changes = try project.changes
        let orphans = Set(try project.summary["orphans"] as? [String] ?? [])
        #expect(commands.contains { $0.contains("record --facts-only") }, "\(commands)")
        #expect(commands.contains { $0.contains("accept --change") }, "\(commands)")
        for command in commands.sorted() {
            // Every command names the folders this run used.
            #expect(command.contains("--goldens my-goldens") && command.contains("--skins 'my skins'"), "\(command)")
            let copy = TemporaryFolder("printed-command")
            defer { copy.remove() }
            try FileManager.default.removeItem(atPath: copy.path)
            try FileManager.default.copyItem(atPath: p.folder.path, toPath: copy.path)
            let before = try Self.pngs(copy.file("my-goldens"))
            let tool = try #require(popoverGoldensExecutable)
            let run = try await runProgram("/bin/sh", ["-c", "\"$0\" " + command.dropFirst("popover-goldens ".count), tool], in: copy.path)
            let after = try Self.pngs(copy.file("my-goldens"))
            let changed = Set(before.keys.filter { after[$0] != before[$0] }).union(after.keys.filter { before[$0] == nil })
            if command.contains("record --facts-only") {
                // "no golden changes" (with --prune: the orphans, deleted, and nothing else;
                // or, with most of this small folder orphaned, nothing, and says so).
                let refused = run.stdout.contains("not pruning") || run.stderr.contains("not pruning")
                let expected = command.contains("--prune") && !refused ? orphans : []
                #expect(changed == expected, "\(command): \(changed.sorted()) \(run.stdout.suffix(300))")
                #expect(command.contains("--prune") || after.keys.count == before.keys.count)
                #expect(FileManager.default.fileExists(atPath: copy.file("my-goldens/gik-sample/up/facts.tsv")), "\(command)")
            } else if let r = command.range(of: "--change ") {
                let id = String(command[r.upperBound...].prefix(9))
                let members = Set(try #require(changes.first { $0["id"] as? String == id }?["cases"] as? [String]))
                #expect(run.status == 0, "\(command): \(run.stdout)\(run.stderr)")
                #expect(changed == members, "\(command): \(changed.symmetricDifference(members).sorted())")
            } else if command.contains(" accept ") || command.hasPrefix("popover-goldens accept ") {
                #expect(changed.count <= 1, "\(command): \(changed.sorted())")
            } else {
                #expect(changed.isEmpty, "\(command): \(changed.sorted())")
            }
        }
    }

    @Test("a new case the check recorded: accept --change keeps its golden and exits 0; undo removes the golden and its facts")
    func newCaseAcceptAndReject() async throws {
        let folder = TemporaryFolder("new-case")
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: PackageFolders.skins, toPath: folder.file("Skins"))
        let filter = "gik-sample/up/popover8-portrait"
        let check = try await runTool(["check", "--filter", filter, "--record", "missing"], in: folder.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/summary.json")))
        let changes = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["changes"] as? [[String: Any]])
        try #require(changes.count == 1)
        #expect(Set(changes[0]["cases"] as? [String] ?? []) == Set(ids) && Set(changes[0]["newCases"] as? [String] ?? []) == Set(ids))
        let goldens = try ids.map { try FileIO.readBytes(path: folder.file("Goldens/\($0).png")) }
        let accept = try await runTool(["accept", "--change", changes[0]["id"] as? String ?? "?"], in: folder.path)
        #expect(accept.status == 0 && accept.stdout.contains("\(ids.count) accepted, 0 refused"), "\(accept.stdout)\(accept.stderr)")
        #expect(try ids.map { try FileIO.readBytes(path: folder.file("Goldens/\($0).png")) } == goldens)
        let reject = try await runTool(["accept", "--undo", ids[0]], in: folder.path)
        #expect(reject.status == 0 && reject.stdout.contains("removed   Goldens/\(ids[0]).png"), "\(reject.stdout)\(reject.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Goldens/\(ids[0]).png")))
        #expect(GoldenStore(folder: folder.file("Goldens")).recordedFacts(for: ids[0]) == nil)
        #expect(FileManager.default.fileExists(atPath: folder.file("Goldens/\(ids[1]).png")))
    }
}
