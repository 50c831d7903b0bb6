import Foundation
import PopoverHarness
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// The command-line tool, run as a process, given bad values and damaged folders: it
/// exits 2 (1 for a golden that merely differs) with a message naming the value or file.
@Suite("The command line given bad input", .enabled(if: popoverGoldensExecutable != nil || runningOnCI,
                                                     "popover-goldens was not built beside the tests"))
struct CLIHostileInputTests {
    /// Arguments, and what standard error must contain.
    static let badValues: [([String], [String])] = [
        (["layout", "--direction", "up", "--size", "200x100", "--offset", "nan"],
         ["arrow offset must be a finite number, got nan"]),
        (["layout", "--direction", "up", "--size", "200x100", "--offset", "-inf"],
         ["arrow offset must be a finite number, got -inf"]),
        (["layout", "--direction", "up", "--size", "infx100"], ["bounds must be finite and non-negative, got inf x 100"]),
        (["layout", "--direction", "left", "--size", "100xnan"], ["bounds must be finite and non-negative, got 100 x nan"]),
        (["layout", "--direction", "up", "--size", "-200x100"], ["bounds must be finite and non-negative, got -200 x 100"]),
        (["layout", "--direction", "up", "--size", "200x-100"], ["bounds must be finite and non-negative, got 200 x -100"]),
        (["layout", "--direction", "up", "--size", "1e308x1e308"], ["--size", "too large"]),
        (["layout", "--direction", "up", "--size", "200by100"], ["200by100", "--size"]),
        (["render", "--skins", PackageFolders.skins, "--offset", "inf", "--out", "x.png"], ["arrow offset must be a finite number, got inf"]),
        (["render", "--skins", PackageFolders.skins, "--offset", "-inf", "--out", "x.png"], ["arrow offset must be a finite number, got -inf"]),
        (["render", "--skins", PackageFolders.skins, "--size", "nanx100", "--out", "x.png"], ["bounds must be finite and non-negative, got nan x 100"]),
        (["render", "--skins", PackageFolders.skins, "--size", "-5x100", "--out", "x.png"], ["bounds must be finite and non-negative, got -5 x 100"]),
        (["render", "--skins", PackageFolders.skins, "--size", "100x-inf", "--out", "x.png"], ["bounds must be finite and non-negative, got 100 x -inf"]),
        (["render", "--skins", PackageFolders.skins, "--size", "1e9x1e9", "--out", "x.png"], ["--size", "too large", "16384 on a side / 64 Mpx"]),
        (["render", "--skins", PackageFolders.skins, "--size", "20000x100", "--scale", "1", "--out", "x.png"], ["--size: 20000 x 100 points at scale 1 is too large"]),
        // Found by fuzzing: the two-asset skin trapped on an offset this far off the edge.
        (["render", "--skins", PackageFolders.skins, "--skin", "two-asset", "--direction", "left", "--size", "128x116", "--offset", "1e299",
          "--out", "x.png"], ["--offset: 1e+299 moves the arrow off the popover", "116 points long"]),
        (["check", "--max-channel-delta", "300"], ["--max-channel-delta: 300 is outside 0-255"]),
        (["check", "--different-pixels", "-1"], ["--different-pixels", "-1"]),
        (["check", "--perceptual", "2"], ["--perceptual", "outside 0-1"]),
        (["check", "--perceptual", "nan"], ["--perceptual: nan is not a finite number"]),
        (["check", "--perceptual", "-0.5"], ["--perceptual", "-0.5"]),
        (["check", "--jobs", "0"], ["--jobs: 0 is not a positive number of threads"]),
        (["check", "--shard-timings", "earlier.json"], ["--shard-timings: only with --shard"]),
        (["list", "--shard", "1/2", "--shard-timings", "no-such-summary.json"], ["no-such-summary.json", "cannot read"]),
        (["check", "--jobs", "-2"], ["--jobs: -2 is not a positive number of threads"]),
        (["check", "--filter", "nothing/like/this"], ["the filter 'nothing/like/this' matches no case"]),
        (["check", "--record", "sometimes"], ["sometimes", "--record"]),
        (["check", "--goldens", ""], ["--goldens: the folder name is empty"]),
        (["record", "nothing/like/this"], ["the filter 'nothing/like/this' matches no case"]),
        (["diff", "--different-pixels", "-1", "a.png", "b.png"], ["--different-pixels", "-1"]),
        (["diff", "--max-channel-delta", "300", "a.png", "b.png"], ["--max-channel-delta: 300 is outside 0-255"]),
    ]

    @Test("a bad value exits 2 naming it; nothing is written", arguments: badValues)
    func badValue(_ arguments: [String], mentions: [String]) async throws {
        let directory = temporaryFolder("cli-values")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try linkCommittedSkins(into: directory)
        let run = try await runTool(arguments, in: directory)
        #expect(run.status == 2, "\(arguments): status \(run.status), stderr \(run.stderr)")
        for text in mentions {
            #expect(run.stderr.contains(text), "\(arguments): stderr \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["Skins"],
                "\(arguments) wrote files")
    }

    @Test("a non-PNG or unreadable file given to diff exits 2 naming it, even when both files hold the same bytes")
    func diffUnreadable() async throws {
        let directory = temporaryFolder("cli-diff")
        defer { removeFolders(directory) }
        try FileIO.writeAtomically(Array("text\n".utf8), to: directory + "/text.png")
        try PNGFile.write(RGBAImage(width: 2, height: 2), to: directory + "/ok.png")
        let notPNG = try await runTool(["diff", "ok.png", "text.png"], in: directory)
        #expect(notPNG.status == 2)
        #expect(notPNG.stderr.contains("text.png: not a PNG file"))
        let missing = try await runTool(["diff", "ok.png", "absent.png"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("absent.png: cannot read: No such file or directory"))
        // The same damaged bytes on both sides are still unreadable, not "identical".
        let okBytes = try FileIO.readBytes(path: directory + "/ok.png")
        for name in ["cut-a.png", "cut-b.png"] {
            try FileIO.writeAtomically(Array(okBytes[..<(okBytes.count - 16)]), to: directory + "/" + name)
        }
        let twins = try await runTool(["diff", "cut-a.png", "cut-b.png"], in: directory)
        #expect(twins.status == 2, "\(twins.stdout)")
        #expect(twins.stderr.contains("cut-a.png: truncated PNG"), "\(twins.stderr)")
        try FileIO.writeAtomically(Array("text\n".utf8), to: directory + "/text-too.png")
        let textTwins = try await runTool(["diff", "text.png", "text-too.png"], in: directory)
        #expect(textTwins.status == 2)
        #expect(textTwins.stderr.contains("text.png: not a PNG file"))
        try PNGFile.write(RGBAImage(width: 3, height: 2), to: directory + "/wide.png")
        let sizes = try await runTool(["diff", "ok.png", "wide.png"], in: directory)
        #expect(sizes.status == 1)
        #expect(sizes.stdout.contains("expected 2 x 2, actual 3 x 2"), "\(sizes.stdout)")
        // As JSON: the same boolean `pass` the metrics carry, not a string.
        let json = try await runTool(["diff", "--json", "ok.png", "wide.png"], in: directory)
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["pass"] as? Bool == false && (object?["error"] as? String)?.contains("3 x 2") == true, "\(json.stdout)")
    }

    // MARK: Goldens through the tool

    static let filter = "path-slate/up/popover8*"

    /// A folder holding Goldens/ with the committed goldens the filter selects.
    func workspace() throws -> (folder: String, ids: [String]) {
        let folder = temporaryFolder("cli-goldens")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try #require(ids.count >= 3)
        try copyCommittedGoldens(ids, to: folder + "/Goldens")
        try linkCommittedSkins(into: folder)
        return (folder, ids)
    }

    @Test("damaged goldens through check: ERROR lines name each file, the rest pass, report written, exit 2")
    func damagedGoldens() async throws {
        let (folder, ids) = try workspace()
        defer { removeFolders(folder) }
        let truncated = "Goldens/\(ids[0]).png", notPNG = "Goldens/\(ids[1]).png"
        let bytes = try FileIO.readBytes(path: folder + "/" + truncated)
        try FileIO.writeAtomically(Array(bytes[..<(bytes.count - 20)]), to: folder + "/" + truncated)
        try FileIO.writeAtomically(Array("<html>oops</html>\n".utf8), to: folder + "/" + notPNG)
        let run = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder)
        #expect(run.status == 2)
        #expect(run.stdout.contains("ERROR \(ids[0]): \(truncated): truncated PNG"), "\(run.stdout)")
        #expect(run.stdout.contains("ERROR \(ids[1]): \(notPNG): not a PNG file"), "\(run.stdout)")
        #expect(run.stdout.contains("\(ids.count - 2) passed, 0 failed, 2 errors"), "\(run.stdout)")
        #expect(run.stdout.contains("report: Reports/index.html"))
        for name in ["index.html", "summary.json", "junit.xml"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/Reports/" + name))
        }
    }

    @Test("a golden of the wrong size through check: FAILED naming both sizes, exit 1")
    func wrongSize() async throws {
        let (folder, ids) = try workspace()
        defer { removeFolders(folder) }
        let path = folder + "/Goldens/" + ids[2] + ".png"
        let original = try PNGFile.read(path: path)
        try PNGFile.write(RGBAImage(width: original.width / 2, height: original.height), to: path)
        let run = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAILED \(ids[2]): fail: size differs: expected \(original.width / 2) x "
            + "\(original.height), actual \(original.width) x \(original.height)"), "\(run.stdout)")
    }

    @Test("a missing goldens folder: exit 2 naming it", arguments: ["never", "missing"])
    func missingFolder(_ mode: String) async throws {
        let folder = temporaryFolder("cli-missing")
        defer { removeFolders(folder) }
        try linkCommittedSkins(into: folder)
        let run = try await runTool(["check", "--filter", Self.filter, "--record", mode, "--goldens", "Nowhere/Goldens"],
                              in: folder)
        if mode == "never" {
            #expect(run.status == 2)
            #expect(run.stdout.contains("ERROR Nowhere/Goldens: the goldens folder does not exist"), "\(run.stdout)")
        } else {
            // Recording creates it.
            #expect(run.status == 0, "\(run.stdout)")
            #expect(!files(under: folder + "/Nowhere/Goldens", endingWith: ".png").isEmpty)
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/Reports/summary.json"))
    }

    @Test("a goldens folder that is a file, or a path through a file: exit 2 naming it")
    func folderIsAFile() async throws {
        let folder = temporaryFolder("cli-file")
        defer { removeFolders(folder) }
        try linkCommittedSkins(into: folder)
        try FileIO.writeAtomically(Array("x\n".utf8), to: folder + "/Goldens")
        let run = try await runTool(["check", "--filter", Self.filter, "--record", "missing"], in: folder)
        #expect(run.status == 2)
        #expect(run.stdout.contains("ERROR Goldens: cannot read the goldens folder: not a folder"), "\(run.stdout)")
        let through = try await runTool(["record", Self.filter, "--goldens", "Goldens/sub"], in: folder)
        #expect(through.status == 2)
        #expect(through.stdout.contains("ERROR Goldens/sub: cannot read the goldens folder: Not a directory"),
                "\(through.stdout)")
        #expect(try FileIO.readBytes(path: folder + "/Goldens") == Array("x\n".utf8))
    }

    /// Whether this process may mount in a private namespace (util-linux's unshare present, and
    /// user namespaces allowed or root with CAP_SYS_ADMIN): the only honest read-only folder for
    /// root, whom permissions do not stop, and the namespace's root is who the tool runs as.
    static let canMountReadOnly: Bool = {
        let probe = temporaryFolder("cli-mount-probe")
        defer { try? FileManager.default.removeItem(atPath: probe) }
        return shell("unshare -r -m sh -c 'mount -t tmpfs -o ro tmpfs \"\(probe)\" && ! touch \"\(probe)/x\"'") == 0
    }()

    @Test("recording into a read-only goldens folder: each write is an error naming the file; nothing changes; exit 2",
          .enabled(if: canMountReadOnly || runningOnCI, "cannot mount a read-only file system here (needs unshare and user namespaces)"))
    func readOnlyGoldens() throws {
        try #require(Self.canMountReadOnly, "cannot mount a read-only file system here: CI must allow unshare -r -m and mount")
        let (folder, ids) = try workspace()
        defer { removeFolders(folder) }
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests (swift build --build-tests)")
        // Work to do: one golden deleted, one truncated.
        try FileManager.default.removeItem(atPath: folder + "/Goldens/" + ids[0] + ".png")
        let damagedPath = folder + "/Goldens/" + ids[1] + ".png"
        let damaged = Array(try FileIO.readBytes(path: damagedPath).prefix(60))
        try FileIO.writeAtomically(damaged, to: damagedPath)
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder + "/Goldens").sorted()

        // A private mount namespace: the read-only bind mount vanishes with the process.
        let script = "mount --bind Goldens Goldens && mount -o remount,ro,bind Goldens && "
            + "exec \"\(executable)\" record '\(Self.filter)' > out.txt"
        let status = shell("cd \"\(folder)\" && unshare -r -m sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'")
        let out = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == 2, "\(out)")
        for id in ids.prefix(2) {
            #expect(out.contains("ERROR \(id): cannot record the golden: Goldens/\(id).png: cannot write: "
                + "Read-only file system"), "\(out)")
        }
        #expect(out.contains("\(ids.count - 2) passed, 0 failed, 2 errors"), "\(out)")
        // The folder is exactly as it was: no new file, no temporary, the damaged file unchanged.
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder + "/Goldens").sorted() == before)
        #expect(try FileIO.readBytes(path: damagedPath) == damaged)
        #expect(FileManager.default.fileExists(atPath: folder + "/Reports/summary.json"))
    }
}
