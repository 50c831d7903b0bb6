import Foundation
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// A file the tool may not read, and a folder it may not write into: the error names the
/// file and says why, and nothing is left behind.
///
/// Root may read and write anything, and CI runs as root: there the tool runs as the
/// `nobody` user (through util-linux's setpriv), so permission is really denied on every
/// machine these tests run on.
@Suite("Files the tool may not touch")
struct PermissionTests {
    /// Runs the tool in `folder` as a user without root's rights.
    static func runUnprivileged(_ arguments: [String], in folder: String) async throws -> ToolRun {
        guard getuid() == 0 else { return try await runTool(arguments, in: folder) }
        let executable = try #require(popoverGoldensExecutable, "popover-goldens was not built beside the tests")
        return try await runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments,
                              in: folder)
    }

    /// A folder `nobody` may enter, holding two 3 x 2 images one pixel apart.
    static func folder() throws -> TemporaryFolder {
        let folder = TemporaryFolder("permissions")
        try #require(chmod(folder.path, 0o755) == 0)
        let a = RGBAImage(width: 3, height: 2, pixels: [UInt8](repeating: 200, count: 24))
        var b = a
        b.pixels[0] = 10
        try PNGFile.write(a, to: folder.file("a.png"))
        try PNGFile.write(b, to: folder.file("b.png"))
        for name in ["a.png", "b.png"] { try #require(chmod(folder.file(name), 0o644) == 0) }
        return folder
    }

    @Test("a file without read permission: exit 2, the file named with the reason")
    func unreadable() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        try #require(chmod(folder.file("a.png"), 0o000) == 0)
        let run = try await Self.runUnprivileged(["diff", "a.png", "b.png"], in: folder.path)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "popover-goldens: a.png: cannot read: Permission denied\n")
    }

    @Test("a folder without write permission: exit 2, the file named with the reason, nothing left in it")
    func readOnlyFolder() async throws {
        let folder = try Self.folder()
        defer { chmod(folder.file("locked"), 0o755); folder.remove() }
        try FileIO.createDirectories(folder.file("locked"))
        try #require(chmod(folder.file("locked"), 0o555) == 0)
        let run = try await Self.runUnprivileged(["diff", "a.png", "b.png", "--heatmap", "locked/heat.png"], in: folder.path)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("locked/heat.png: cannot write: Permission denied"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("locked")).isEmpty)
    }
}
