import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// Deciding once per change, through the tool: an intended edit to a skin (gik-sample's
/// border colour in its skin.json) fails its cases; `check` ends with the change and the
/// command that takes it; `accept --change` takes it whole and writes the tool's own
/// facts; the next check passes. A report whose summary.json was edited cannot make
/// `accept` write other facts or take cases the run did not find.
@Suite("Review by change, through the tool", .serialized)
struct ChangeReviewFlowTests {
    static let filter = "gik-sample/up/popover8"

    /// A project folder: the committed skins with gik-sample's border changed, the
    /// committed goldens and facts of the filter's cases, and the failing check's output.
    func failingProject() async throws -> (folder: TemporaryFolder, ids: [String], output: String) {
        let folder = TemporaryFolder("change-flow")
        try FileManager.default.copyItem(atPath: PackageFolders.skins, toPath: folder.file("Skins"))
        let file = folder.file("Skins/gik-sample/skin.json")
        let edited = try String(contentsOfFile: file, encoding: .utf8)
            .replacingOccurrences(of: "[0.439216, 0.431373, 0.407843]", with: "[0.5, 0.431373, 0.407843]")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        let check = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        try #require(check.status == 1, "the edited skin should fail its cases: \(check.stdout)\(check.stderr)")
        return (folder, ids, check.stdout)
    }

    func summary(_ folder: TemporaryFolder) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/summary.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("check ends with the change; accept --change takes it with the tool's facts; the next check passes")
    func wholeChange() async throws {
        let (folder, ids, output) = try await failingProject()
        defer { folder.remove() }
        let lines = output.split(separator: "\n").map(String.init)
        // The last lines: "1 change: N cases — ..." then the change with its command.
        let changeLine = try #require(lines.last)
        #expect(lines[lines.count - 2] == "1 change: \(ids.count) cases — gik-sample: images.colours.border "
            + "[0.439216, 0.431373, 0.407843, 1] -> [0.5, 0.431373, 0.407843, 1]: the drawing changed in the arrow and "
            + "border (redder) (\(ids.count))", "\(lines.suffix(3))")
        let id = try #require(changeLine.split(separator: " ").first.map(String.init))
        #expect(id.count == 9 && id.hasPrefix("c"), "\(changeLine)")
        #expect(changeLine.hasSuffix("(accept: popover-goldens accept --change \(id))"), "\(changeLine)")
        let changes = try #require(try summary(folder)["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes[0]["id"] as? String == id && (changes[0]["cases"] as? [String])?.sorted() == ids.sorted())

        // The cases share one folder, whose table holds exactly their rows.
        let table = try factsTableBytes(of: ids[0], in: folder.file("Goldens"))
        try #require(try ids.allSatisfy { try factsTableBytes(of: $0, in: folder.file("Goldens")) == table })
        let accept = try await runTool(["accept", "--change", id], in: folder.path)
        #expect(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
        #expect(accept.stdout.contains("\(ids.count) accepted, 0 refused"), "\(accept.stdout)")
        // The geometry did not change, so the rows are the committed ones, each tied to its
        // new golden, with the edited colour: the table's text with each row's SHA-256
        // and the border's value replaced, nothing else.
        var expected = String(decoding: table, as: UTF8.self)
            .replacingOccurrences(of: "[0.439216, 0.431373, 0.407843, 1]", with: "[0.5, 0.431373, 0.407843, 1]")
        for id in ids {
            expected = retying(expected, row: FilePaths.lastComponent(of: id),
                               to: SHA256.hex(try FileIO.readBytes(path: folder.file("Goldens/\(id).png"))))
        }
        #expect(String(decoding: try factsTableBytes(of: ids[0], in: folder.file("Goldens")), as: UTF8.self) == expected)
        let again = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        #expect(again.status == 0, "\(again.stdout)")
        #expect(!again.stdout.contains("change"), "\(again.stdout)")
    }

    /// Edits the report's summary.json in place.
    func editSummary(_ folder: TemporaryFolder, _ edit: (inout [String: Any]) throws -> Void) throws {
        var json = try summary(folder)
        try edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: folder.file("Reports/summary.json")))
    }

    @Test("forged facts or causes in summary.json: accept refuses those cases and writes nothing for them")
    func forged() async throws {
        let (folder, ids, _) = try await failingProject()
        defer { folder.remove() }
        let goldens = try ids.map { try FileIO.readBytes(path: folder.file("Goldens/\($0).png")) }
        let facts = try ids.map { try factsTableBytes(of: $0, in: folder.file("Goldens")) }
        try editSummary(folder) { json in
            var cases = json["cases"] as! [[String: Any]]
            for i in cases.indices {
                guard let id = cases[i]["id"] as? String, ids.contains(id) else { continue }
                if id == ids[0] {
                    // Facts the run did not draw from.
                    cases[i]["factsDigest"] = String(repeating: "0", count: 64)
                } else {
                    // A cause the goldens' facts do not give.
                    var cause = cases[i]["cause"] as! [String: Any]
                    cause["geometry"] = [["fact": "apex.x", "expected": 1, "actual": 2]]
                    cases[i]["cause"] = cause
                }
            }
            json["cases"] = cases
        }
        let id = try #require((try summary(folder)["changes"] as? [[String: Any]])?.first?["id"] as? String)
        let accept = try await runTool(["accept", "--change", id], in: folder.path)
        #expect(accept.status == 2)
        #expect(accept.stderr.contains("REFUSED \(ids[0]): this build draws the case from other geometry than the run did"),
                "\(accept.stderr)")
        for other in ids.dropFirst() {
            #expect(accept.stderr.contains("REFUSED \(other): the report's cause for this case is not what its golden's facts"),
                    "\(accept.stderr)")
        }
        #expect(try ids.map { try FileIO.readBytes(path: folder.file("Goldens/\($0).png")) } == goldens)
        #expect(try ids.map { try factsTableBytes(of: $0, in: folder.file("Goldens")) } == facts)
    }

    @Test("a forged change naming a passing case: that case is refused as passed, nothing written for it; the others are taken")
    func forgedChange() async throws {
        let (folder, ids, _) = try await failingProject()
        defer { folder.remove() }
        // Every skin's cases beside gik-sample's: those pass.
        let all = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "up/popover8").map(\.id)
        try copyCommittedGoldens(all, to: folder.file("Goldens"))
        let check = try await runTool(["check", "--filter", "up/popover8", "--record", "never"], in: folder.path)
        try #require(check.status == 1)
        let passing = "path-slate/up/popover8-portrait@1x"
        let before = try FileIO.readBytes(path: folder.file("Goldens/\(passing).png"))
        var changeID = ""
        try editSummary(folder) { json in
            var changes = json["changes"] as! [[String: Any]]
            let i = changes.firstIndex { ($0["cases"] as! [String]).contains(ids[0]) }!
            changeID = changes[i]["id"] as! String
            changes[i]["cases"] = (changes[i]["cases"] as! [String]) + [passing]
            json["changes"] = changes
        }
        let accept = try await runTool(["accept", "--change", changeID], in: folder.path)
        #expect(accept.status == 2)
        #expect(accept.stderr.contains("REFUSED \(passing): passed cases cannot be accepted"), "\(accept.stderr)")
        #expect(accept.stdout.contains("\(ids.count) accepted, 1 refused"), "\(accept.stdout)")
        #expect(try FileIO.readBytes(path: folder.file("Goldens/\(passing).png")) == before)
    }
}
