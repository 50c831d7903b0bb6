import Foundation
import PopoverFiles
import PopoverHarness

/// A CI job's summary page (GitHub's `$GITHUB_STEP_SUMMARY`): the report's own
/// `summary.md`, byte for byte, appended to the file after a blank line, keeping what
/// earlier steps wrote. When no report was published there is no such file: the summary
/// is then made from the run, whose errors say why nothing was published. A file that
/// cannot be written is said on standard error; the run's verdict stands.
public struct JobSummary: RunReporter {
    /// The file the summary is appended to.
    public let file: String

    public init(file: String) {
        self.file = file
    }

    /// The job summary `environment` asks for (`GITHUB_STEP_SUMMARY`), if any.
    public static func from(environment: [String: String]) -> JobSummary? {
        guard let file = environment["GITHUB_STEP_SUMMARY"], !file.isEmpty else { return nil }
        return JobSummary(file: file)
    }

    public func finished(_ run: RunRecord, report: PublishedReport?, console: Console) {
        let summary = SummaryMarkdown()
        let markdown = report?.files[summary.fileName ?? ""] ?? summary.file(run)
        var existing: [UInt8] = []
        do {
            existing = try FileIO.readBytes(path: file)
        } catch where error.code == ENOENT {
            existing = []
        } catch {
            console.problem("popover-goldens: cannot read the job summary file \(file) (GITHUB_STEP_SUMMARY): \(error.reason)")
            return
        }
        var bytes: [UInt8] = []
        if !existing.isEmpty { bytes = existing.last == 10 ? [10] : [10, 10] }
        bytes += markdown
        guard let handle = FileHandle(forWritingAtPath: file)
            ?? (FileManager.default.createFile(atPath: file, contents: nil) ? FileHandle(forWritingAtPath: file) : nil) else {
            console.problem("popover-goldens: cannot write the job summary file \(file) (GITHUB_STEP_SUMMARY)")
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
        } catch {
            console.problem("popover-goldens: cannot append to the job summary file \(file) (GITHUB_STEP_SUMMARY): \(error)")
        }
    }
}
