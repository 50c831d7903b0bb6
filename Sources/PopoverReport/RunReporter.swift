import Foundation
import PopoverHarness

/// One output of a finished run, made from its record alone, in the manner of
/// Playwright's reporters: `summary.json`, `junit.xml`, the page and `summary.md` are
/// files of the report folder; what the terminal prints, GitHub's annotations and the job
/// summary are said once the report is published. `check` and `merge-reports` hand their
/// run to the same reporters (a merge replays the shards' merged record), so a merged run
/// says what one machine's run would have said.
public protocol RunReporter: Sendable {
    /// The file this output keeps in the report folder, if it keeps one.
    var fileName: String? { get }
    /// That file's bytes for `run`.
    func file(_ run: RunRecord) -> [UInt8]
    /// What this output does once the run is over: `report` is what was published, nil
    /// when nothing was (the run's errors then say why). Everything said goes through
    /// `console`, which escapes it.
    func finished(_ run: RunRecord, report: PublishedReport?, console: Console)
}

extension RunReporter {
    public var fileName: String? { nil }
    public func file(_ run: RunRecord) -> [UInt8] { [] }
    public func finished(_ run: RunRecord, report: PublishedReport?, console: Console) {}
}

/// A report as it was published: its folder and the bytes of the files the reporters
/// wrote there, by name.
public struct PublishedReport: Sendable {
    public let folder: String
    public let files: [String: [UInt8]]

    public var indexPath: String { folder + "/index.html" }
}

/// A run and its report, when the report could be published.
public struct ReportedRun: Sendable {
    public var run: RunRecord
    public var report: PublishedReport?

    public var reportPath: String? { report?.indexPath }
}

/// The reporters every report folder has, and handing a finished run to reporters.
public enum Reporters {
    /// The report folder's files, the record first: what publishing writes, and what an
    /// acceptance rewrites.
    public static let reportFolder: [any RunReporter] = [RunRecordFile(), JUnitXML(), ReportPage(), SummaryMarkdown()]

    /// Their names, in that order.
    static let reportFolderFileNames = reportFolder.compactMap(\.fileName)

    /// The report folder's files for `run`, by name, the record first.
    static func files(_ run: RunRecord) -> [(name: String, bytes: [UInt8])] {
        reportFolder.compactMap { reporter in reporter.fileName.map { ($0, reporter.file(run)) } }
    }

    /// Hands the finished run to each reporter, in order.
    public static func finish(_ run: RunRecord, report: PublishedReport?, reporters: [any RunReporter],
                              console: Console = .standard) {
        for reporter in reporters { reporter.finished(run, report: report, console: console) }
    }
}

/// `summary.json`: the run's record itself (docs/run-record.md).
public struct RunRecordFile: RunReporter {
    public init() {}
    public var fileName: String? { "summary.json" }
    public func file(_ run: RunRecord) -> [UInt8] { run.encoded() }
}

/// Standard output and standard error, one line at a time, each through the terminal
/// escaper: the only way anything the tool says reaches a terminal or a CI log, so no
/// text from the repository, a report or a shard can start a line of its own.
public struct Console: Sendable {
    public enum Stream: Sendable { case output, error }

    private let write: @Sendable (_ line: String, _ stream: Stream) -> Void

    /// `write` receives each line, escaped, without its line feed.
    public init(write: @escaping @Sendable (_ line: String, _ stream: Stream) -> Void) {
        self.write = write
    }

    /// The process's standard output and standard error, each line written straight to
    /// its file descriptor (unbuffered, so the two keep their order, and a line is out
    /// when it is said, whatever buffering a pipe would add).
    public static let standard = Console { line, stream in
        let bytes = Data((line + "\n").utf8)
        switch stream {
        case .output: FileHandle.standardOutput.write(bytes)
        case .error: FileHandle.standardError.write(bytes)
        }
    }

    /// One line on standard output.
    public func line(_ text: String) { write(Escape.terminalLine(text), .output) }

    /// One line on standard error.
    public func problem(_ text: String) { write(Escape.terminalLine(text), .error) }
}
