import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverReport
import PopoverReview
import Testing
import TestSupport

@Suite("Accepting from the command line and from approvals")
struct DeskTests {
    @Test("accepting failed and missing cases writes what they drew, marks them in the report, and the next check passes")
    func acceptThenCheck() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let outcome = try f.desk.accept(.matching(f.failed + [f.missing]))
        #expect(Set(outcome.accepted) == Set(f.failed + [f.missing]))
        #expect(outcome.refused.isEmpty)
        for id in f.failed + [f.missing] {
            #expect(try PNGFile.read(path: f.goldens + "/" + id + ".png") == f.drawn(id))
            #expect(try f.result(id).accepted != nil)
        }
        #expect(try f.result(f.passed).accepted == nil)
        let page = try String(contentsOfFile: f.reports + "/index.html", encoding: .utf8)
        #expect(page.contains("accepted since"))
        let again = try CheckRunner(catalog: f.catalog, options: checkOptions(goldens: f.goldens, mode: .never,
                                                                             filter: "flat/up/popover")).run()
        #expect(again.exitCode == 0)
    }

    @Test("a saved actual image changed since the run is refused, naming the case; nothing is written for it")
    func actualChanged() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let victim = f.failed[0]
        let actual = f.reports + "/" + (try #require(try f.result(victim).artifacts.actual?.path))
        try PNGFile.write(RGBAImage(width: 2, height: 2), to: actual)
        let before = f.allGoldens()
        let outcome = try f.desk.accept(.matching([victim, f.failed[1]]))
        #expect(outcome.refused.map(\.id) == [victim])
        #expect(outcome.refused.first?.reason.contains("is not the image the run saved") == true)
        #expect(outcome.accepted == [f.failed[1]])
        #expect(f.golden(victim) == before[victim])
        #expect(try f.result(victim).accepted == nil)
    }

    @Test("a golden changed since the run (accepted or edited elsewhere) is refused; nothing is written")
    func goldenChanged() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let victim = f.failed[0]
        try PNGFile.write(RGBAImage(width: 3, height: 3), to: f.goldens + "/" + victim + ".png")
        let edited = f.golden(victim)
        let outcome = try f.desk.accept(.matching([victim]))
        #expect(outcome.refused.map(\.id) == [victim])
        #expect(outcome.refused.first?.reason.contains("is no longer the golden the run compared against") == true)
        #expect(f.golden(victim) == edited)
        // A missing case whose golden appeared since is refused the same way.
        try PNGFile.write(RGBAImage(width: 3, height: 3), to: f.goldens + "/" + f.missing + ".png")
        #expect(try f.desk.accept(.matching([f.missing])).refused.map(\.id) == [f.missing])
    }

    @Test("approvals apply when they name the images the run saved; stale or forged ones are refused")
    func approvals() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let good = try f.approval(f.failed[0])
        var stale = try f.approval(f.failed[1])
        stale.expected = String(repeating: "0", count: 64)   // the reviewer saw another golden
        var forged = try f.approval(f.missing)
        forged.actual = String(repeating: "a", count: 64)    // names an image the run never saved
        let before = f.allGoldens()
        let outcome = try f.desk.accept(.approvals([good, stale, forged]))
        #expect(outcome.accepted == [f.failed[0]])
        #expect(Set(outcome.refused.map(\.id)) == [f.failed[1], f.missing])
        #expect(outcome.refused.allSatisfy { $0.reason.contains("the approval names a different") })
        #expect(f.golden(f.failed[1]) == before[f.failed[1]])
        #expect(f.golden(f.missing) == nil)
        // Through the file the page exports.
        let approval = try f.approval(f.failed[1])
        // As report-review.js writes it.
        let file = """
            {
              "format": "popover-goldens approvals",
              "version": 1,
              "approvals": [
                {"id": "\(approval.id)", "expected": "\(approval.expected)", "actual": "\(approval.actual)"}
              ]
            }

            """
        let decoded = try Approval.decodeFile(Array(file.utf8), name: "approvals.json")
        #expect(try f.desk.accept(.approvals(decoded)).accepted == [f.failed[1]])
    }

    @Test("undo restores the previous golden byte for byte; for a case that had none it removes the golden")
    func undo() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let before = f.allGoldens()
        _ = try f.desk.accept(.matching([f.failed[0], f.missing]))
        let outcome = try f.desk.undo(.matching([f.failed[0], f.missing]))
        #expect(Set(outcome.undone) == [f.failed[0], f.missing])
        #expect(f.golden(f.failed[0]) == before[f.failed[0]])
        #expect(f.golden(f.missing) == nil)
        #expect(try f.result(f.failed[0]).accepted == nil)
        // Accepting again works after an undo.
        #expect(try f.desk.accept(.matching([f.failed[0]])).accepted == [f.failed[0]])
    }

    @Test("undo refuses when the accepted golden was changed since, or when the case was never accepted")
    func undoRefusals() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        _ = try f.desk.accept(.matching([f.failed[0]]))
        try PNGFile.write(RGBAImage(width: 1, height: 1), to: f.goldens + "/" + f.failed[0] + ".png")
        let changed = try f.desk.undo(.matching([f.failed[0]]))
        #expect(changed.refused.first?.reason.contains("no longer the golden") == true)
        #expect(try PNGFile.read(path: f.goldens + "/" + f.failed[0] + ".png") == RGBAImage(width: 1, height: 1))
        let never = try f.desk.undo(.matching([f.failed[1]]))
        #expect(never.refused.first?.reason.contains("was not accepted") == true)
    }

    @Test("bad requests: a pattern matching no case, a passing case, unknown IDs, a summary pointing outside the report")
    func badRequests() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        #expect(throws: ReviewError.noCaseMatches("nothing-like-this")) { try f.desk.accept(.matching(["nothing-like-this"])) }
        let passing = try f.desk.accept(.matching([f.passed]))
        #expect(passing.refused.first?.reason.contains("passed cases cannot be accepted") == true)
        #expect(throws: ReviewError.unknownCases(["no/such/case@1x"])) { try f.desk.accept(.exactly(["no/such/case@1x"])) }
        // An edited summary naming a file outside the report folder is not followed.
        let summary = f.reports + "/summary.json"
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        let path = try #require(try f.result(f.failed[0]).artifacts.actual?.path)
        try Data(text.replacingOccurrences(of: "\"\(path)\"", with: "\"../goldens/\(f.passed).png\"").utf8)
            .write(to: URL(fileURLWithPath: summary))
        let escaped = try f.desk.accept(.matching([f.failed[0]]))
        #expect(escaped.refused.first?.reason.contains("is not a path inside the report folder") == true)
    }

    /// Rewrites one case's `accepted` entry in summary.json.
    func forgeAcceptance(_ f: ReviewFixture, of id: String, _ accepted: [String: Any]) throws {
        let summary = f.reports + "/summary.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        var cases = try #require(json["cases"] as? [[String: Any]])
        let i = try #require(cases.firstIndex { $0["id"] as? String == id })
        cases[i]["accepted"] = accepted
        json["cases"] = cases
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: summary))
    }

    @Test("an acceptance a summary.json claims is checked before undo uses it: not of this case's golden, of a passing case, or not dated, the summary is refused naming it; nothing is written",
          arguments: ["passing case", "another previous golden", "not a date", "not a digest"])
    func forgedAcceptances(_ forgery: String) throws {
        let f = try ReviewFixture(forgery)
        defer { f.folder.remove() }
        let before = f.allGoldens()
        let passedDigest = SHA256.hex(try #require(f.golden(f.passed)))
        let failedDigest = SHA256.hex(try #require(f.golden(f.failed[0])))
        let at = "2026-11-22T12:00:00Z"
        let (id, entry): (String, [String: Any]) = switch forgery {
        // A passing case claimed as accepted new: its undo would delete the golden.
        case "passing case": (f.passed, ["at": at, "goldenDigest": passedDigest])
        // An acceptance that replaced some other golden: its undo would put that one back.
        case "another previous golden":
            (f.failed[0], ["at": at, "previousGoldenDigest": String(repeating: "ab", count: 32), "goldenDigest": failedDigest])
        case "not a date": (f.failed[0], ["at": "yesterday\n::error::", "previousGoldenDigest": failedDigest, "goldenDigest": failedDigest])
        default: (f.failed[0], ["at": at, "previousGoldenDigest": failedDigest, "goldenDigest": "../../etc/passwd"])
        }
        try forgeAcceptance(f, of: id, entry)
        #expect {
            _ = try f.desk.undo(.exactly([id]))
        } throws: { error in
            "\(error)".contains("summary.json") && "\(error)".contains(".accepted")
        }
        #expect(f.allGoldens() == before)
    }

    @Test("a case listed twice in approvals is one acceptance; listed twice with different images, it is refused naming why")
    func approvedTwice() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let twice = try f.approval(f.failed[0])
        let same = try f.desk.accept(.approvals([twice, twice]))
        #expect(same.accepted == [f.failed[0]] && same.refused.isEmpty, "\(same)")
        let before = f.golden(f.failed[1])
        var other = try f.approval(f.failed[1])
        let first = other
        other.actual = String(repeating: "c", count: 64)
        let differing = try f.desk.accept(.approvals([first, other]))
        #expect(differing.accepted.isEmpty)
        #expect(differing.refused.map(\.id) == [f.failed[1]])
        #expect(differing.refused.map(\.reason) == ["\(f.failed[1]): listed twice in the approvals, naming different images; "
                                                   + "export them again"])
        #expect(f.golden(f.failed[1]) == before)
    }

    @Test("accepting through a second copy of a report, after the first accepted the case, names the golden, not the report")
    func secondCopy() throws {
        let f = try ReviewFixture(factsRecorded: true)
        defer { f.folder.remove() }
        let copy = f.folder.file("copy")
        try FileManager.default.copyItem(atPath: f.reports, toPath: copy)
        #expect(try f.desk.accept(.matching([f.failed[0]])).accepted == [f.failed[0]])
        let written = f.golden(f.failed[0])
        let second = ReviewDesk(reportsFolder: copy, goldensFolder: f.goldens, catalog: f.catalog)
        let outcome = try second.accept(.matching([f.failed[0]]))
        #expect(outcome.refused.map(\.reason) == ["\(f.failed[0]): \(f.goldens)/\(f.failed[0]).png is no longer the golden "
                                                + "the run compared against (accepted or edited since); run the check again"])
        #expect(f.golden(f.failed[0]) == written)
    }

    @Test("an accept whose goldens were written but whose report was not (a kill between the two) is finished by the next accept, and undoes")
    func finishing() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let before = f.allGoldens()
        let summary = try FileIO.readBytes(path: f.reports + "/summary.json")
        _ = try f.desk.accept(.matching([f.failed[0], f.missing]))
        // The report as it was before: the goldens are written, the record says nothing.
        try FileIO.writeAtomically(summary, to: f.reports + "/summary.json")
        #expect(try f.result(f.failed[0]).accepted == nil)
        let again = try f.desk.accept(.matching([f.failed[0], f.missing]))
        #expect(Set(again.accepted) == [f.failed[0], f.missing] && Set(again.finished) == [f.failed[0], f.missing], "\(again)")
        #expect(try f.result(f.failed[0]).accepted != nil && f.result(f.missing).accepted != nil)
        let undone = try f.desk.undo(.matching([f.failed[0], f.missing]))
        #expect(Set(undone.undone) == [f.failed[0], f.missing])
        #expect(f.allGoldens() == before)
    }

    @Test("an approvals file that is not one names the file")
    func badApprovalsFile() {
        #expect(throws: HarnessError.io("a.json: approves no case")) {
            try Approval.decodeFile(Array(#"{"format": "popover-goldens approvals", "version": 1, "approvals": []}"#.utf8), name: "a.json")
        }
        #expect {
            try Approval.decodeFile(Array(#"{"format": "popover-goldens approvals", "version": 1, "approvals": [{"id": "x", "expected": "none", "actual": "zz"}]}"#.utf8), name: "a.json")
        } throws: { "\($0)".contains("does not hold two SHA-256 digests") }
        #expect { try Approval.decodeFile(Array("[]".utf8), name: "b.json") } throws: { "\($0)".hasPrefix("b.json: not an approvals file") }
    }
}
