import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverReport
import PopoverReview
import Testing
import TestSupport

/// A report folder is input like any other: it may come from a CI artifact of someone
/// else's branch. Whatever its summary.json and files say, accepting writes only PNGs,
/// only as goldens of the folder the reviewer chose, and only of images inside the report.
@Suite("A report from elsewhere cannot steer where goldens go")
struct HostileReportTests {
    /// Rewrites summary.json with `edit` applied to its text.
    func editSummary(_ f: ReviewFixture, _ edit: (String) -> String) throws {
        let summary = f.reports + "/summary.json"
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        let edited = edit(text)
        #expect(edited != text, "the edit changed nothing")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: summary))
    }

    /// Every file under `folder`, relative to it.
    func filesUnder(_ folder: String) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix("/") && !isFolder(folder + "/" + $0) })
    }

    func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    @Test("a case ID that climbs out ('..'), starts at '/', or holds a NUL makes the summary unreadable, naming it",
          arguments: ["../../escaped", "/tmp/escaped", "flat/up/x\u{0}", "flat/up/./popover1-portrait@1x",
                      "flat//up/popover1-portrait@1x", "flat/left/", "flat/up/popover1-portrait@1x/"])
    func unsafeIDs(_ hostile: String) throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let before = filesUnder(f.folder.path)
        try editSummary(f) { $0.replacingOccurrences(of: "\"\(f.failed[0])\"", with: String(decoding: try! JSONEncoder().encode(hostile), as: UTF8.self)) }
        #expect {
            _ = try f.desk.accept(.matching(["flat"]))
        } throws: { error in
            "\(error)".contains("summary.json") && "\(error)".contains("is not a case ID this tool makes")
        }
        #expect(filesUnder(f.folder.path) == before)
    }

    @Test("a case listed twice makes the summary unreadable instead of stopping the tool")
    func duplicateIDs() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        try editSummary(f) { $0.replacingOccurrences(of: "\"\(f.failed[1])\"", with: "\"\(f.failed[0])\"") }
        #expect {
            _ = try f.desk.accept(.matching([f.failed[0]]))
        } throws: { "\($0)".contains("the case \(f.failed[0]) is listed twice") }
    }

    @Test("a goldens folder the summary names other than Goldens is not used; named with --goldens it is",
          arguments: ["/tmp/elsewhere", "../elsewhere", "a/../../elsewhere", "Skins"])
    func goldensFolderFromSummary(_ hostile: String) throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        try editSummary(f) { text in
            text.replacingOccurrences(of: "\"goldens\" : \"\(f.goldens)\"", with: "\"goldens\" : \"\(hostile)\"")
        }
        let unnamed = ReviewDesk(reportsFolder: f.reports, goldensFolder: nil, catalog: f.catalog)
        #expect(throws: ReviewError.goldensFolderNotNamed(hostile)) { try unnamed.accept(.matching([f.failed[0]])) }
        // The reviewer names the folder: accepted there.
        let outcome = try f.desk.accept(.matching([f.failed[0]]))
        #expect(outcome.accepted == [f.failed[0]])
        #expect(try PNGFile.read(path: f.goldens + "/" + f.failed[0] + ".png") == f.drawn(f.failed[0]))
    }

    @Test("an actual image that is a symbolic link out of the report folder is refused; nothing is written")
    func symlinkedActual() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let path = try #require(try f.result(f.failed[0]).artifacts.actual?.path)
        // A private picture outside the report, with the digest the summary records.
        let secret = f.folder.file("secret.png")
        let bytes = try FileIO.readBytes(path: f.reports + "/" + path)
        try FileIO.writeAtomically(bytes, to: secret)
        try FileManager.default.removeItem(atPath: f.reports + "/" + path)
        try FileManager.default.createSymbolicLink(atPath: f.reports + "/" + path, withDestinationPath: secret)
        let golden = try FileIO.readBytes(path: f.goldens + "/" + f.failed[0] + ".png")
        let outcome = try f.desk.accept(.matching([f.failed[0]]))
        #expect(outcome.accepted.isEmpty)
        #expect(outcome.refused.first?.reason.contains("leads out of the report folder") == true, "\(outcome.refused)")
        #expect(try FileIO.readBytes(path: f.goldens + "/" + f.failed[0] + ".png") == golden)
    }

    @Test("undo reads the kept golden only inside the report: a link to a picture elsewhere is refused, the golden stays")
    func undoThroughLink() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        _ = try f.desk.accept(.matching([f.failed[0]]))
        let accepted = try FileIO.readBytes(path: f.goldens + "/" + f.failed[0] + ".png")
        let kept = f.reports + "/accepted/" + f.failed[0] + ".png"
        // A private PNG outside the report, linked in its place, its digest in the summary.
        let outside = f.folder.file("private.png")
        try PNGFile.write(RGBAImage(width: 2, height: 2), to: outside)
        let keptDigest = SHA256.hex(try FileIO.readBytes(path: kept))
        try FileManager.default.removeItem(atPath: kept)
        try FileManager.default.createSymbolicLink(atPath: kept, withDestinationPath: outside)
        try editSummary(f) { $0.replacingOccurrences(of: keptDigest, with: SHA256.hex(try! FileIO.readBytes(path: outside))) }
        let outcome = try f.desk.undo(.matching([f.failed[0]]))
        #expect(outcome.undone.isEmpty && outcome.refused.first?.id == f.failed[0], "\(outcome)")
        #expect(try FileIO.readBytes(path: f.goldens + "/" + f.failed[0] + ".png") == accepted)
    }

    @Test("undo puts back only a PNG: a kept file that is not one is refused, the golden stays")
    func undoOnlyPNG() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        _ = try f.desk.accept(.matching([f.failed[0]]))
        let accepted = try FileIO.readBytes(path: f.goldens + "/" + f.failed[0] + ".png")
        // The kept previous golden replaced by a script, and the summary's digest with it.
        let script = Array("#!/bin/sh\necho hello\n".utf8)
        let kept = f.reports + "/accepted/" + f.failed[0] + ".png"
        let keptDigest = SHA256.hex(try FileIO.readBytes(path: kept))
        try FileIO.writeAtomically(script, to: kept)
        try editSummary(f) { $0.replacingOccurrences(of: keptDigest, with: SHA256.hex(script)) }
        let outcome = try f.desk.undo(.matching([f.failed[0]]))
        #expect(outcome.undone.isEmpty)
        #expect(outcome.refused.first?.id == f.failed[0])
        #expect(try FileIO.readBytes(path: f.goldens + "/" + f.failed[0] + ".png") == accepted)
    }

    @Test("an actual image replaced with other pixels, its digest updated in summary.json, is refused: accept writes only what this build draws")
    func replacedActual() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let victim = f.failed[0]
        let path = f.reports + "/" + (try #require(try f.result(victim).artifacts.actual?.path))
        var other = try f.drawn(victim)
        other.pixels.replaceSubrange(0..<4, with: [1, 2, 3, 255])
        let oldDigest = SHA256.hex(try FileIO.readBytes(path: path))
        try PNGFile.write(other, to: path)
        try editSummary(f) { $0.replacingOccurrences(of: oldDigest, with: SHA256.hex(try! FileIO.readBytes(path: path))) }
        let before = f.golden(victim)
        let outcome = try f.desk.accept(.matching([victim]))
        #expect(outcome.accepted.isEmpty)
        #expect(outcome.refused.map(\.reason) == ["\(victim): this build does not draw what the report shows (the report's "
                                                + "actual image is not this build's drawing of the case); run the check again"])
        #expect(f.golden(victim) == before)
    }

    @Test("a summary.json claiming a case's facts are missing, when the goldens folder records them, does not skip the cause check")
    func forgedFactsStanding() throws {
        let f = try ReviewFixture(factsRecorded: true)
        defer { f.folder.remove() }
        let victim = f.failed[0]
        #expect(try f.result(victim).cause?.facts == .recorded)
        let summary = f.reports + "/summary.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        var cases = try #require(json["cases"] as? [[String: Any]])
        let i = try #require(cases.firstIndex { $0["id"] as? String == victim })
        var cause = try #require(cases[i]["cause"] as? [String: Any])
        cause["facts"] = "missing"
        cases[i]["cause"] = cause
        json["cases"] = cases
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: summary))
        #expect(try f.result(victim).cause?.facts == .missing, "the forgery missed the victim's cause")
        let before = f.golden(victim)
        let outcome = try f.desk.accept(.matching([victim]))
        #expect(outcome.refused.map(\.id) == [victim] && outcome.refused.first?.reason.contains("cause") == true, "\(outcome)")
        #expect(f.golden(victim) == before)
    }

    @Test("a report whose accepted/ folder is a link out of it, or a goldens folder that is a link, takes no write through the link",
          arguments: ["accepted", "goldens"])
    func linkedFolders(_ which: String) throws {
        let f = try ReviewFixture(which)
        defer { f.folder.remove() }
        let elsewhere = f.folder.file("elsewhere")
        let linked = which == "accepted" ? f.reports + "/accepted" : f.goldens + "/flat/up"
        if which == "goldens" {
            // The goldens' folder moved elsewhere and linked back in, as a branch could commit it.
            try FileManager.default.moveItem(atPath: linked, toPath: elsewhere)
        } else {
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: elsewhere)
        func contents() -> [String: Data] {
            Dictionary(uniqueKeysWithValues: filesUnder(elsewhere).map { ($0, FileManager.default.contents(atPath: elsewhere + "/" + $0) ?? Data()) })
        }
        let before = contents()
        let outcome = try f.desk.accept(.matching([f.failed[0], f.missing]))
        #expect(outcome.accepted.isEmpty)
        #expect(outcome.refused.count == 2 && outcome.refused.allSatisfy { $0.reason.contains("is a symbolic link") }, "\(outcome)")
        #expect(contents() == before, "a write went through the link")
    }
}
