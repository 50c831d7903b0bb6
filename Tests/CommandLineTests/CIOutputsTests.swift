import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// What the tool hands a CI service after a run: annotations, the job summary appended to
/// GITHUB_STEP_SUMMARY, and a triptych beside each failing case's pictures.
@Suite("CI outputs, through the tool")
struct CIOutputsTests {
    static let filter = "path-slate/up/popover8-portrait"
    static let oneX = "path-slate/up/popover8-portrait@1x"
    static let threeX = "path-slate/up/popover8-portrait@3x"

    /// The committed goldens of `filter`, with one pixel of the 1x and 3x ones changed.
    func project() throws -> (TemporaryFolder, [String]) {
        let folder = TemporaryFolder("ci-outputs")
        try linkCommittedSkins(into: folder.path)
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        for id in [Self.oneX, Self.threeX] {
            let file = folder.file("Goldens/\(id).png")
            var image = try PNGFile.read(path: file)
            let o = (image.height / 2 * image.width + image.width / 2) * 4
            image.pixels.replaceSubrange(o..<(o + 4), with: [255, 0, 255, 255])
            try FileIO.writeAtomically(PNGFile.encode(image), to: file)
        }
        return (folder, ids)
    }

    @Test("check under GitHub Actions: one ::error line per failing case, summary.md appended after the file's content, triptychs")
    func check() async throws {
        let (folder, ids) = try project()
        defer { folder.remove() }
        let summary = folder.file("step-summary.md")
        try FileIO.writeAtomically(Array("# an earlier step\n".utf8), to: summary)
        let run = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path,
                              environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let errors = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(errors.count == 2)
        for id in [Self.oneX, Self.threeX] {
            #expect(errors.contains { $0.hasPrefix("::error file=Goldens/\(id).png,title=\(id)::") }, "\(errors)")
        }
        let markdown = try String(contentsOfFile: folder.file("Reports/summary.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("## popover-goldens: failed (\(ids.count) cases)\n"))
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "# an earlier step\n\n" + markdown)

        // The triptychs, by the documented rule: 220 x 235 goes up 2 (1352 x 506), its
        // expected pane the golden's pixels doubled from (8, 28); 660 x 705 goes down 2
        // (3 * 330 + 32 = 1022 x 28 + 353 + 8 = 389).
        let record = try RunRecord.read(folder.file("Reports/summary.json"))
        let byID = Dictionary(uniqueKeysWithValues: record.results.map { ($0.id, $0) })
        let golden = try PNGFile.read(path: folder.file("Goldens/\(Self.oneX).png"))
        for (id, size) in [(Self.oneX, (1352, 506)), (Self.threeX, (1022, 389))] {
            let saved = try #require(byID[id]?.artifacts.triptych)
            #expect(saved.path == "cases/\(id).triptych.png")
            let image = try PNGFile.read(path: folder.file("Reports/" + saved.path))
            #expect(image.width == size.0 && image.height == size.1 && saved.width == size.0 && saved.height == size.1)
            if id == Self.oneX {
                var mismatches = 0
                for y in stride(from: 0, to: 235, by: 7) {
                    for x in stride(from: 0, to: 220, by: 5) where image[8 + 2 * x + 1, 28 + 2 * y + 1] != golden[x, y] {
                        mismatches += 1
                    }
                }
                #expect(mismatches == 0)
            }
            #expect(markdown.contains("[\(FilePaths.lastComponent(of: saved.path))](\(saved.path))"))
        }
        #expect(ids.filter { byID[$0]?.status == .passed }.allSatisfy { byID[$0]?.artifacts.triptych == nil })

        // Asked for none: none, even under GitHub Actions. A job summary file that cannot be
        // written (a folder) is said, naming it; the verdict stands.
        let quiet = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--annotations", "none", "--reports", "Q"],
                                in: folder.path, environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": folder.file("Goldens")])
        #expect(quiet.status == 1 && !quiet.stdout.contains("::error"))
        #expect(quiet.stderr.contains("cannot read the job summary file \(folder.file("Goldens")) (GITHUB_STEP_SUMMARY)"), "\(quiet.stderr)")
    }

    @Test("merge-reports: the merged report's summary.md appended and annotated, triptychs drawn for its worst cases")
    func merge() async throws {
        let (folder, _) = try project()
        defer { folder.remove() }
        for index in 1...2 {
            let shard = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--shard", "\(index)/2",
                                     "--reports", "S\(index)", "--annotations", "none"], in: folder.path)
            #expect(shard.status <= 1, "\(shard.stdout)\(shard.stderr)")
        }
        let summary = folder.file("step-summary.md")
        let merged = try await runTool(["merge-reports", "S1", "S2", "--out", "M", "--annotations", "github"], in: folder.path,
                                 environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.split(separator: "\n").filter { $0.hasPrefix("::error file=") }.count == 2)
        let markdown = try String(contentsOfFile: folder.file("M/summary.md"), encoding: .utf8)
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == markdown)
        for id in [Self.oneX, Self.threeX] {
            #expect(FileManager.default.fileExists(atPath: folder.file("M/cases/\(id).triptych.png")))
        }
    }
}
