import ArgumentParser
import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport

/// Where a finished run tells a CI service about itself, beside its report folder.
enum AnnotationFormat: String, ExpressibleByArgument, CaseIterable {
    /// GitHub Actions workflow commands (`::error ...`).
    case github
    case none
}

/// What `check` and `merge-reports` hand a CI service: annotations on standard output,
/// and the job summary (`summary.md`) appended to `$GITHUB_STEP_SUMMARY` when it is set.
struct CIOutputOptions: ParsableArguments {
    @Option(help: "Print an annotation per failing case: github (::error lines, at most 50) or none. Default: github when GITHUB_ACTIONS is true, else none.")
    var annotations: AnnotationFormat?

    func report(_ run: RunRecord, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let format = annotations ?? (environment["GITHUB_ACTIONS"] == "true" ? .github : AnnotationFormat.none)
        if format == .github {
            for line in GitHubAnnotations.lines(run) { print(line) }
        }
        if let file = environment["GITHUB_STEP_SUMMARY"], !file.isEmpty {
            appendJobSummary(SummaryMarkdown.render(run), to: file)
        }
    }

    /// Appends to the file, keeping what earlier steps wrote: a blank line between. A file
    /// that cannot be written is said on standard error; the run's verdict stands.
    private func appendJobSummary(_ markdown: String, to file: String) {
        var existing: [UInt8] = []
        do {
            existing = try FileIO.readBytes(path: file)
        } catch where error.code == ENOENT {
            existing = []
        } catch {
            warn("cannot read the job summary file \(file) (GITHUB_STEP_SUMMARY): \(error.reason)")
            return
        }
        var bytes: [UInt8] = []
        if !existing.isEmpty { bytes = existing.last == 10 ? [10] : [10, 10] }
        bytes += Array(markdown.utf8)
        guard let handle = FileHandle(forWritingAtPath: file) ?? create(file) else {
            warn("cannot write the job summary file \(file) (GITHUB_STEP_SUMMARY)")
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
        } catch {
            warn("cannot append to the job summary file \(file) (GITHUB_STEP_SUMMARY): \(error)")
        }
    }

    private func create(_ file: String) -> FileHandle? {
        guard FileManager.default.createFile(atPath: file, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: file)
    }

    private func warn(_ text: String) {
        FileHandle.standardError.write(Data(("popover-goldens: " + text + "\n").utf8))
    }
}
