import Foundation
import PopoverFiles
import Testing
import TestSupport

/// The command line tried as a newcomer would: the README's flags exist, help shows
/// defaults as they are written, filters find what people type, a skin is added by
/// dropping a folder in.
@Suite("The command line, tried as a newcomer", .enabled(if: popoverGoldensExecutable != nil || runningOnCI,
                                                          "popover-goldens was not built beside the tests"))
struct NewcomerTests {
    static let subcommands = ["layout", "placement", "artwork", "render", "contact-sheet", "list", "check", "record",
                              "accept", "review", "merge-reports", "new-skin", "diff", "bench"]

    @Test("every flag the README and the docs name is a flag of the tool")
    func readmeFlags() async throws {
        let pages = try ["README.md"] + DocsTests.docsPages()
        let readme = try pages.map { try String(contentsOfFile: PackageFolders.root + "/" + $0, encoding: .utf8) }
            .joined(separator: "\n")
        // Flags as the README writes them in code: a span that is a flag (`--name VALUE`)
        // or a command line of the tool (`popover-goldens ...`, `scripts/check ...`);
        // spans of other programs (git, the Cairo tool) name their own flags.
        let tool = ["--", "popover-goldens ", "scripts/check ", "scripts/regenerate-goldens "]
        let spans = readme.matches(of: /`[^`\n]*`/).map { String($0.0.dropFirst().dropLast()) }
            .filter { span in tool.contains { span.hasPrefix($0) } }
        let named = Set(spans.flatMap { span in
            span.split(whereSeparator: { " []|=,()".contains($0) })
                .filter { $0.hasPrefix("--") && $0.count > 3 }
                .map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "-" }) }
        })
        #expect(named.count > 20, "the README and the docs name only \(named.count) flags")
        var help = try await runTool(["--help"]).stdout
        for command in Self.subcommands { help += try await runTool([command, "--help"]).stdout }
        // The argument parser's own flags (completion scripts) are not listed in help: they
        // count when the tool accepts them.
        var unknown: [String] = []
        for flag in named.sorted() where !help.contains(flag) {
            if try await runTool([flag, "bash"]).status != 0 { unknown.append(flag) }
        }
        #expect(unknown.isEmpty, "the README or the docs name flags the tool does not have: \(unknown)")
    }

    @Test("render --help shows its defaults as they are written: 216x235 and 2; --tint-at-1x is spelt so")
    func helpDefaults() async throws {
        let help = try await runTool(["render", "--help"]).stdout
        #expect(help.contains("(default: 216x235)"), "\(help)")
        #expect(help.contains("(default: 2)"))
        #expect(!help.contains("SizeArgument") && !help.contains("ScaleArgument"))
        #expect(help.contains("--tint-at-1x"))
    }

    @Test("a filter without wildcards matches IDs that contain it; one matching nothing names the closest")
    func filters() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let list = try await runTool(["list", "--filter", "gik-default/up/popover8", "--skins", PackageFolders.skins])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n") == ["gik-default/up/popover8-portrait@1x", "gik-default/up/popover8-landscape@1x",
                                                       "gik-default/up/popover8-portrait@2x", "gik-default/up/popover8-landscape@2x",
                                                       "gik-default/up/popover8-portrait@3x"])
        let typo = try await runTool(["check", "--filter", "gik-default/up/popover8-portait@2x", "--skins", PackageFolders.skins],
                               in: folder.path)
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("matches no case; the closest IDs: gik-default/up/popover8-portrait@2x"), "\(typo.stderr)")
    }

    @Test("new-skin writes a working folder: its cases appear, record writes its goldens, check passes")
    func newSkin() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileIO.createDirectories(folder.file("Skins"))
        let made = try await runTool(["new-skin", "brand", "--from-colours", "#203040", "#f0f4f8", "#c8d0d8", "--no-shadow"],
                               in: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        let list = try await runTool(["list", "--filter", "brand/"], in: folder.path)
        // A seven-image skin's cases: 170 at each of 1x and 2x, and its boundaries, 49 at 1x
        // (the placement boundaries and the half-point sizes among them) and 32 at 2x.
        #expect(list.stdout.split(separator: "\n").count == 421)
        let record = try await runTool(["record", "brand/"], in: folder.path)
        #expect(record.status == 0 && record.stdout.contains("421 new"), "\(record.stdout)")
        #expect(files(under: folder.file("Goldens/brand"), endingWith: ".png").count == 421)
        let check = try await runTool(["check", "--filter", "brand/", "--record", "never"], in: folder.path)
        #expect(check.status == 0 && check.stdout.contains("421 passed"), "\(check.stdout)")
        let again = try await runTool(["new-skin", "brand", "--from-colours", "#000000", "#ffffff", "#000000"], in: folder.path)
        #expect(again.status == 2 && again.stderr.contains("Skins/brand: already exists; nothing written"))
    }

    @Test("a skin folder with a mistake: check names the file and the field, judges the other skins, exits 2, and keeps its goldens")
    func brokenSkinFolder() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileIO.createDirectories(folder.file("Skins"))
        _ = try await runTool(["new-skin", "brand", "--from-colours", "#203040", "#f0f4f8", "#c8d0d8"], in: folder.path)
        _ = try await runTool(["record", "brand/up/popover8"], in: folder.path)
        let ids = ["path-slate/up/popover8-portrait@1x", "path-slate/up/popover8-portrait@2x"]
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        try FileIO.writeAtomically(Array(#"{"kind": "seven-images", "images": {"colours": {"border": "black"}}}"#.utf8),
                                   to: folder.file("Skins/brand/skin.json"))
        let check = try await runTool(["check", "--filter", "popover8-portrait", "--record", "never"], in: folder.path)
        #expect(check.status == 2)
        #expect(check.stdout.contains(#"ERROR Skins/brand/skin.json: images.colours.border: "black" is not a colour"#), "\(check.stdout)")
        #expect(check.stdout.contains("path-slate") || check.stdout.contains("passed"))
        #expect(!check.stdout.contains("orphan"), "\(check.stdout)")
        #expect(files(under: folder.file("Goldens/brand"), endingWith: ".png").count == 4)
    }

    @Test("one-letter folder names work: record into G with its report in R, then check as one shard and merge into M")
    func oneLetterFolders() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let skins = ["--skins", PackageFolders.skins]
        let record = try await runTool(["record", "path-slate/up/popover8", "--goldens", "G", "--reports", "R"] + skins, in: folder.path)
        #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
        #expect(files(under: folder.file("G"), endingWith: ".png").count == 5)
        let check = try await runTool(["check", "--filter", "path-slate/up/popover8", "--goldens", "G", "--reports", "R",
                                 "--record", "never", "--shard", "1/1"] + skins, in: folder.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("R/index.html")))
        let merged = try await runTool(["merge-reports", "R", "--out", "M", "--goldens", "G"], in: folder.path)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("M/summary.json")))
    }

    @Test("shell completion scripts come from the tool", arguments: ["bash", "zsh", "fish"])
    func completion(_ shell: String) async throws {
        let script = try await runTool(["--generate-completion-script", shell])
        #expect(script.status == 0)
        #expect(script.stdout.contains("merge-reports") && script.stdout.contains("new-skin"))
    }
}
