import Foundation
import PopoverFiles
import PopoverHarness
import Testing
import TestSupport

/// A golden deleted by hand (`git rm`, not `record --prune`) leaves its row in the
/// folder's facts table; the next `record` drops it and says so, and leaves the other
/// rows byte for byte. `check` writes nothing.
@Suite("Facts of goldens deleted by hand")
struct GoneGoldenFactsTests {
    static let filter = "path-slate/up/popover8"

    @Test("record drops a gone golden's row and says so; check leaves it; the rest stay as they were")
    func goneGolden() async throws {
        let folder = TemporaryFolder("gone-golden")
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: PackageFolders.skins, toPath: folder.file("Skins"))
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try #require(ids.count >= 2, "\(ids)")
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        let tablePath = folder.file("Goldens/path-slate/up/facts.tsv")
        let before = try String(contentsOfFile: tablePath, encoding: .utf8)
        let gone = ids[0], name = FilePaths.lastComponent(of: gone)
        try FileManager.default.removeItem(atPath: folder.file("Goldens/\(gone).png"))

        // A check (record mode never) writes nothing: the row stays.
        let check = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(try String(contentsOfFile: tablePath, encoding: .utf8) == before)

        // A record of another case only (so the gone one is not drawn again): the gone
        // golden's row goes all the same.
        let others = ids.dropFirst().map { FilePaths.lastComponent(of: $0) }
        let record = try await runTool(["record", "--filter", "path-slate/up/" + others[0]], in: folder.path)
        #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
        #expect(record.stdout.contains("dropped the facts of 1 golden no longer there (\(gone))"), "\(record.stdout)")
        let after = try String(contentsOfFile: tablePath, encoding: .utf8)
        // The table without the gone row, every other line as it was (the header too: the
        // cases share their columns).
        let expected = before.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(name + "\t") }.joined(separator: "\n")
        #expect(after == expected)
        #expect(after.count < before.count)
    }
}
