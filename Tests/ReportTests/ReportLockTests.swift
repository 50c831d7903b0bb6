import Foundation
import PopoverReport
import Synchronization
import Testing
import TestSupport

/// Writers of one report take turns by the folder's real path, so two reaching it
/// through different paths (one through a symbolic link) still exclude each other.
@Suite("The report's lock")
struct ReportLockTests {
    @Test("a writer through a symbolic link and one through the real path never hold the report at once")
    func lockByRealPath() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("Reports"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("Linked"), withDestinationPath: folder.file("Reports"))
        let holders = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let turns = Atomic<Int>(0)
        let paths = [folder.file("Reports"), folder.file("Linked")]
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            _ = try? ReportFolder(paths[i % 2]).withLock {
                if holders.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                    overlaps.add(1, ordering: .sequentiallyConsistent)
                }
                turns.add(1, ordering: .sequentiallyConsistent)
                usleep(2_000)
                holders.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
        #expect(turns.load(ordering: .sequentiallyConsistent) == 40)
        #expect(overlaps.load(ordering: .sequentiallyConsistent) == 0)
    }
}
