import Foundation

/// Deletes retired reports on a thread of its own, so a run's cases render while the
/// files of the reports retired before it go (mostly waiting on the file system, little
/// CPU). The run waits for it once it has published (or discarded) its own report, so no
/// deletion outlives the run that started it; a run killed half-way leaves the rest for
/// the next.
final class RetiredReports: @unchecked Sendable {
    // @unchecked: `done` is the only state, and DispatchGroup is thread-safe.
    private let done = DispatchGroup()

    private init() {}

    static func startDeleting(_ folders: [String]) -> RetiredReports {
        let cleanup = RetiredReports()
        guard !folders.isEmpty else { return cleanup }
        cleanup.done.enter()
        let thread = Thread {
            // Another run may be deleting the same folder: whatever it removed first is
            // simply gone, which is all either wants.
            for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
            cleanup.done.leave()
        }
        thread.name = "deleting retired reports"
        thread.start()
        return cleanup
    }

    /// Returns once every folder given is deleted (or could not be).
    func wait() {
        done.wait()
    }
}
