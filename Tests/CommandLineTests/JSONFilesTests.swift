import Foundation
import PopoverFiles
import PopoverHarness
import Testing
import TestSupport

/// Every JSON file the tool reads, through the tool, with hostile content written here: a
/// key given twice is an error naming the key and the file (never the first or the last
/// of the two taken silently), nesting 200,000 levels deep is said to be nested too
/// deeply, and a FIFO, a device or a socket where the file should be is named as what it
/// is.
@Suite("JSON files through the tool", .serialized,
       .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct JSONFilesTests {
    static let filter = "path-slate/up/popover8"
    static let colours = ##""images": {"colours": {"border": "#203040", "gradientFrom": "#f0f4f8", "gradientTo": "#c8d0d8"}}"##
    /// A skin.json that reads: seven images from colours.
    static let plainSkin = #"{"kind": "seven-images", "# + colours + "}"

    /// A project with the filter's committed goldens and a skins folder holding one skin,
    /// `brand`, whose skin.json is `skin` (and whose metrics.json is `metrics`, if given).
    static func project(skin: String, metrics: String? = nil, _ label: String = #function) throws -> TemporaryFolder {
        let folder = TemporaryFolder(label)
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try FileIO.createDirectories(folder.file("Skins/brand"))
        try FileIO.writeAtomically(Array(skin.utf8), to: folder.file("Skins/brand/skin.json"))
        if let metrics { try FileIO.writeAtomically(Array(metrics.utf8), to: folder.file("Skins/brand/metrics.json")) }
        return folder
    }

    /// Stands for 200,000 levels of nesting in the tables below (written out only in the
    /// test, so the tables stay readable).
    static let deepMark = "<200,000 levels of nesting>"

    static func written(_ text: String) -> String {
        text == deepMark ? String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) : text
    }

    @Test("tolerances.json: a key twice, or nested 200,000 deep, is the run's error naming the file", arguments: [
        (#"{"default": {"maxChannelDelta": 0},"# + "\n" + #" "default": {"maxChannelDelta": 255}}"#,
         #"Goldens/tolerances.json: the key "default" appears twice in one object (the second at line 2, column 2)"#),
        (#"{"default": {"maxChannelDelta": 0, "maxChannelDelta": 255}}"#,
         #"Goldens/tolerances.json: the key "maxChannelDelta" appears twice in one object (the second at line 1, column 36)"#),
        (deepMark, "Goldens/tolerances.json: nested too deeply: more than 512 levels"),
    ])
    func tolerances(_ json: String, _ said: String) async throws {
        let folder = try Self.project(skin: Self.plainSkin)
        defer { folder.remove() }
        try FileIO.writeAtomically(Array(Self.written(json).utf8), to: folder.file("Goldens/tolerances.json"))
        let run = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        #expect(run.status == 2 && run.stdout.contains("ERROR " + said), "\(run.stdout)\(run.stderr)")
    }

    @Test("skin.json and metrics.json: a key twice, or nested 200,000 deep, is that skin's error naming the file", arguments: [
        (#"{"kind": "seven-images", "shadow": true, "shadow": false, "# + colours + "}", nil,
         #"Skins/brand/skin.json: the key "shadow" appears twice in one object"#),
        (#"{"kind": "seven-images", "metrics": "metrics.json", "# + colours + "}", #"{"arrowBase": 37, "arrowBase": 9}"#,
         #"Skins/brand/metrics.json: the key "arrowBase" appears twice in one object"#),
        (deepMark, nil, "Skins/brand/skin.json: nested too deeply"),
        (#"{"kind": "seven-images", "metrics": "metrics.json", "# + colours + "}", deepMark,
         "Skins/brand/metrics.json: nested too deeply"),
    ] as [(String, String?, String)])
    func skins(_ skin: String, _ metrics: String?, _ said: String) async throws {
        let folder = try Self.project(skin: Self.written(skin), metrics: metrics.map(Self.written))
        defer { folder.remove() }
        let list = try await runTool(["list", "--filter", "brand/"], in: folder.path)
        #expect(list.status == 2 && list.stderr.contains("popover-goldens: " + said), "\(list.stdout)\(list.stderr)")
    }

    @Test("summary.json: a key twice is refused naming it, by --shard-timings and by merge-reports")
    func summary() async throws {
        let folder = try Self.project(skin: Self.plainSkin)
        defer { folder.remove() }
        let shard = try await runTool(["check", "--filter", Self.filter, "--record", "never", "--shard", "1/1", "--reports", "S"],
                                in: folder.path)
        #expect(shard.status == 0, "\(shard.stdout)\(shard.stderr)")
        let file = folder.file("S/summary.json")
        var text = try String(contentsOfFile: file, encoding: .utf8)
        // A second "seconds" before the first: Foundation would keep one of the two.
        text = text.replacingOccurrences(of: "\n  \"seconds\" :", with: "\n  \"seconds\" : 0,\n  \"seconds\" :")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let timings = try await runTool(["list", "--filter", Self.filter, "--shard", "1/2", "--shard-timings", "S/summary.json"],
                                  in: folder.path)
        #expect(timings.status == 2 && timings.stderr.contains(#"S/summary.json: the key "seconds" appears twice"#),
                "\(timings.stderr)")
        let merge = try await runTool(["merge-reports", "S", "--out", "M"], in: folder.path)
        #expect(merge.status == 2 && merge.stderr.contains(#"S/summary.json: the key "seconds" appears twice"#), "\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("M")))
    }

    @Test("a metrics file that is a FIFO, /dev/zero or a socket is named as one, not as a permission or a device address")
    func notRegularFiles() async throws {
        let folder = try Self.project(skin: #"{"kind": "seven-images", "metrics": "metrics.json", "# + Self.colours + "}")
        defer { folder.remove() }
        let metrics = folder.file("Skins/brand/metrics.json")
        try #require(mkfifo(metrics, 0o600) == 0)
        let fifo = try await runTool(["list", "--filter", "brand/"], in: folder.path)
        #expect(fifo.stderr.contains("Skins/brand/metrics.json: cannot read: is a FIFO (named pipe), not a regular file"),
                "\(fifo.stderr)")
        try FileManager.default.removeItem(atPath: metrics)
        try FileManager.default.createSymbolicLink(atPath: metrics, withDestinationPath: "/dev/zero")
        let zero = try await runTool(["list", "--filter", "brand/"], in: folder.path)
        #expect(zero.stderr.contains("Skins/brand/metrics.json: cannot read: is a character device, not a regular file"),
                "\(zero.stderr)")
        try FileManager.default.removeItem(atPath: metrics)
        try Self.bindSocket(at: metrics)
        let socket = try await runTool(["list", "--filter", "brand/"], in: folder.path)
        #expect(socket.stderr.contains("Skins/brand/metrics.json: cannot read: is a socket, not a regular file"),
                "\(socket.stderr)")
        for run in [fifo, zero, socket] {
            #expect(run.status == 2)
            #expect(!run.stderr.contains("permission") && !run.stderr.contains("No such device or address"), "\(run.stderr)")
        }
    }

    /// A Unix-domain socket bound at `path` (it stays after the descriptor is closed).
    static func bindSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "cannot bind a socket at \(path)")
    }
}
