import Foundation
import PopoverReport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Writers of one report take turns by the folder's real path, so two reaching it
/// through different paths (one through a symbolic link) still exclude each other.
@Suite("The report's lock")
struct ReportLockTests {
    /// The lock files beside the report that some holder has locked now: a non-blocking
    /// `flock` on each is refused while another descriptor holds it.
    static func heldLocks(in folder: String) throws -> Set<String> {
        var held = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".lock") {
            let fd = open(folder + "/" + name, O_RDONLY | O_CLOEXEC)
            #expect(fd >= 0, "cannot open \(name)")
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                #expect(errno == EWOULDBLOCK, "flock on \(name) failed otherwise: errno \(errno)")
                held.insert(name)
            } else {
                flock(fd, LOCK_UN)
            }
        }
        return held
    }

    @Test("a writer through a symbolic link holds the very lock a writer through the real path takes")
    func lockByRealPath() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("Reports"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("Linked"), withDestinationPath: folder.file("Reports"))
        let throughLink = try ReportFolder(folder.file("Linked")).withLock { try Self.heldLocks(in: folder.path) }
        let throughRealPath = try ReportFolder(folder.file("Reports")).withLock { try Self.heldLocks(in: folder.path) }
        #expect(throughLink.count == 1)
        #expect(throughLink == throughRealPath)
        // Released after each: nothing is held any more.
        #expect(try Self.heldLocks(in: folder.path).isEmpty)
    }
}
