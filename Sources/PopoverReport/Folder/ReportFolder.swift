import Foundation
import PopoverFiles
import PopoverHarness

/// A folder holding one report: `index.html`, `summary.json`, `junit.xml`, `summary.md`
/// and the cases' images under `cases/`.
///
/// A run writes its report into a private staging folder beside it
/// (`.<name>.staging-<pid>-<random>`), then publishes it in one step, swapping the two
/// folders (`renameat2(RENAME_EXCHANGE)`) under an exclusive lock on `.<name>.lock`;
/// the old report, now in the staging folder's place, is renamed `.<name>.retired-*` and
/// deleted by the next run while its cases render (deleting a report where everything
/// failed, thousands of files, takes seconds nobody should wait for at the end of a
/// run). So a reader, or a run killed at any moment, finds one whole report: the old or
/// the new, never a mix and never none. Where the file system cannot swap, the old folder is
/// renamed aside (`.<name>.aside-*`) first and the new one moved in; a kill between the
/// two leaves no report, and the next run's publishing puts the old one back first.
///
/// Publishing replaces the folder's whole content, so it refuses any path but a folder
/// holding nothing but a report's files (`checkCanTakeReport`): pointing `--reports` at a
/// file or a source folder must not replace it.
public struct ReportFolder: Sendable {
    public let path: String

    public init(_ path: String) {
        // "Reports/" and "Reports" are one folder; the staging folder goes beside it.
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.path = trimmed
    }

    /// What a report folder may hold. Anything else means the folder is not a report's.
    static let reportEntries: Set<String> = ["index.html", "summary.json", "junit.xml", "summary.md", "cases", "accepted",
                                             keptFile]

    /// The one file a report folder keeps across publishing: the repository tracks
    /// `Reports/.gitignore` so the folder exists in a clone while its content stays out of git.
    static let keptFile = ".gitignore"

    public var indexPath: String { path + "/index.html" }
    public var summaryPath: String { path + "/summary.json" }

    var parent: String {
        FilePaths.parent(of: path)
    }

    var name: String { FilePaths.lastComponent(of: path) }

    /// A run with its report: `runner` hands its pictures to a staging folder beside this
    /// one, and the report is published when the run is over. A path that cannot take a
    /// report (`checkCanTakeReport`) is refused before anything runs; a run that throws
    /// leaves nothing behind. A report that cannot be published does not change the
    /// verdicts: its error joins the run's errors and `report` is nil.
    public func check(_ runner: CheckRunner, cases: [GoldenCase]? = nil) throws -> ReportedRun {
        try checkCanTakeReport()
        let staging = try stage()
        var runner = runner
        runner.sink = staging
        var run: RunRecord
        do {
            run = try runner.run(cases: cases)
        } catch {
            staging.discard()
            throw error
        }
        do {
            let report = try publish(&run, from: staging, jobs: runner.options.jobs)
            return ReportedRun(run: run, report: report)
        } catch {
            run.errors.append("\(error)")
            return ReportedRun(run: run, report: nil)
        }
    }

    /// A new, empty staging folder for a run's report.
    public func stage() throws(ReportError) -> ReportStaging {
        let folder = sibling("staging")
        do {
            try FileIO.createDirectories(folder + "/cases")
        } catch {
            throw .io("cannot stage the report: \(error)")
        }
        return ReportStaging(folder: folder, cleanup: RetiredReports.startDeleting(retiredFolders()))
    }

    /// Draws the worst failing cases' triptychs (`ReportTriptychs`, on `jobs` threads),
    /// writes the report folder's files (`Reporters.reportFolder`) into `staging` and
    /// publishes it. On failure the staging folder is removed and the old report stays.
    @discardableResult
    public func publish(_ run: inout RunRecord, from staging: ReportStaging,
                        jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws(ReportError) -> PublishedReport {
        ReportTriptychs.add(to: &run, in: staging.folder, jobs: jobs)
        let files: [String: [UInt8]]
        do {
            files = try Self.writeFiles(run, into: staging.folder)
            try carryKeptFile(into: staging.folder)
            try withLock { () throws(ReportError) in
                // Under the lock: what is there now is what gets replaced.
                try checkCanTakeReport()
                removeStaleStagingFolders(except: staging.folder)
                FileIO.syncFileSystem(containing: staging.folder)
                try swapIn(staging.folder)
            }
        } catch {
            staging.discard()
            throw error
        }
        // The staging folder now holds the old report: retired at once, for the next run
        // to delete; then this run waits for its own deleting of earlier ones.
        if FileManager.default.fileExists(atPath: staging.folder) {
            if (try? FileIO.move(staging.folder, to: retiredName())) == nil { staging.discard() }
        }
        staging.cleanup.wait()
        return PublishedReport(folder: path, files: files)
    }

    /// Writes the report folder's files for `run` into `folder`; returns them by name.
    private static func writeFiles(_ run: RunRecord, into folder: String) throws(ReportError) -> [String: [UInt8]] {
        var written: [String: [UInt8]] = [:]
        do {
            for (name, bytes) in Reporters.files(run) {
                try FileIO.writeNew(bytes, to: folder + "/" + name)
                written[name] = bytes
            }
        } catch {
            throw .io("cannot write the report: \(error)")
        }
        return written
    }

    /// The run a published report describes (its summary.json).
    public func load() throws(ReportError) -> RunRecord {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: summaryPath)
        } catch {
            throw .unreadableRun(file: summaryPath, reason: error.code == ENOENT
                ? "no report here (run `popover-goldens check` first)" : "cannot read: \(error.reason)")
        }
        do {
            return try RunRecord.decode(bytes, name: summaryPath)
        } catch {
            throw .unreadableRun(file: error.file, reason: error.reason)
        }
    }

    /// Runs `body` holding the report's lock (taken by the folder's real path, so two
    /// writers reaching it through a symbolic link still take turns).
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try takeLock()
        defer { lock.release() }
        return try body()
    }

    // MARK: Staging a change

    /// Where `stageFiles` writes the report's files before `publishStagedFiles` puts them
    /// in place: inside the report's `accepted/` folder, on the same file system, so
    /// publishing is renames that need no space.
    public static let stagedPrefix = "accepted/staged-"

    /// Writes the files of the changed run `run` beside the report, synced, without
    /// publishing them: a caller that must not act unless the report can record it (an
    /// acceptance replacing goldens) stages first, and acts only if staging succeeded.
    /// The caller holds the lock.
    public func stageFiles(of run: RunRecord) throws(ReportError) {
        discardStagedFiles()
        do {
            try FileIO.createDirectories(path + "/accepted")
            for (name, bytes) in Reporters.files(run) {
                try FileIO.writeAtomically(bytes, to: path + "/" + Self.stagedPrefix + name)
            }
        } catch {
            discardStagedFiles()
            throw .io("cannot write the report: \(error)")
        }
    }

    /// Puts the staged files in place, the record (summary.json) first. The caller holds
    /// the lock.
    public func publishStagedFiles() throws(ReportError) {
        do {
            for name in Reporters.reportFolderFileNames {
                try FileIO.move(path + "/" + Self.stagedPrefix + name, to: path + "/" + name)
            }
        } catch {
            throw .io("cannot write the report: \(error)")
        }
    }

    /// Removes staged files a change left unpublished.
    public func discardStagedFiles() {
        for name in Reporters.reportFolderFileNames {
            unlink(path + "/" + Self.stagedPrefix + name)
        }
    }

    // MARK: Publishing

    /// Refuses a path that cannot take a report, because publishing replaces what is there
    /// whole: only nothing at all, or a folder holding nothing but a report's files (an
    /// empty folder, a report, the repository's `.gitignore`) can be replaced. A file, a
    /// symbolic link (publishing would replace the link, not the folder it leads to), a
    /// FIFO or device, or a folder holding anything else (a source folder, the goldens)
    /// is refused, naming the path.
    public func checkCanTakeReport() throws(ReportError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw .notAReportFolder(folder: path, reason: code == ENOTDIR
                ? "a part of the path is a file, not a folder" : "cannot be examined: \(String(cString: strerror(code)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            break
        case S_IFLNK:
            throw .notAReportFolder(folder: path, reason: "is a symbolic link; publishing a report replaces the folder "
                + "itself, so name the folder it leads to" + (FilePaths.realPath(path).map { " (\($0))" } ?? ""))
        case S_IFREG:
            throw .notAReportFolder(folder: path, reason: "is a file, not a folder; a report is a folder of its own, "
                + "replaced whole by each run, so name a folder for reports only")
        default:
            throw .notAReportFolder(folder: path, reason: "is not a folder; a report is a folder of its own, "
                + "replaced whole by each run, so name a folder for reports only")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .notAReportFolder(folder: path, reason: "cannot list the folder: \((error as NSError).localizedFailureReason ?? "\(error)")")
        }
        let foreign = names.filter { !Self.reportEntries.contains($0) }.sorted()
        guard foreign.isEmpty else {
            throw .notAReportFolder(folder: path, reason: "holds \(foreign.prefix(3).map { "'\($0)'" }.joined(separator: ", "))"
                + "\(foreign.count > 3 ? " and \(foreign.count - 3) more" : ""), which no report writes; "
                + "publishing replaces the whole folder, so choose a folder for reports only")
        }
    }

    /// Copies the folder's `.gitignore`, if it has one, into the report about to replace
    /// it, so publishing never deletes a file the repository tracks.
    private func carryKeptFile(into staging: String) throws(ReportError) {
        let kept = path + "/" + Self.keptFile
        guard FileManager.default.fileExists(atPath: kept) else { return }
        do {
            try FileIO.writeAtomically(try FileIO.readBytes(path: kept), to: staging + "/" + Self.keptFile)
        } catch {
            throw .io("cannot keep \(kept): \(error)")
        }
    }

    private func swapIn(_ staging: String) throws(ReportError) {
        do {
            if FileManager.default.fileExists(atPath: path) {
                if try FileIO.exchange(staging, path) { return }
                // No atomic swap here: old aside (under a name no other run deletes), new
                // in, old retired; if the new one cannot go in, the old one goes back.
                let aside = sibling("aside")
                try FileIO.move(path, to: aside)
                do {
                    try FileIO.move(staging, to: path)
                } catch {
                    try? FileIO.move(aside, to: path)
                    throw error
                }
                try? FileIO.move(aside, to: retiredName())
            } else {
                try FileIO.move(staging, to: path)
            }
        } catch {
            throw .io("cannot publish the report: \(error)")
        }
    }

    private func withLock<T>(_ body: () throws(ReportError) -> T) throws(ReportError) -> T {
        let lock = try takeLock()
        defer { lock.release() }
        return try body()
    }

    /// The lock file is named for the folder's real path, so two writers reaching one
    /// report through different paths (a symbolic link) take the same lock.
    private func takeLock() throws(ReportError) -> FileLock {
        let real = FilePaths.realPath(path) ?? FilePaths.realPath(parent).map { $0 + "/" + name } ?? path
        do {
            try FileIO.createDirectories(parent)
            return try FileLock.acquire(FilePaths.parent(of: real) + "/.\(FilePaths.lastComponent(of: real)).lock")
        } catch {
            throw .io("\(error)")
        }
    }

    /// A fresh name for a report being retired.
    func retiredName() -> String { sibling("retired") }

    /// A fresh hidden folder name beside the report, `.<name>.<kind>-<pid>-<hex>`: the
    /// form `isGenerated` recognises.
    private func sibling(_ kind: String) -> String {
        parent + "/.\(name).\(kind)-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// The retired reports beside this folder: `.<name>.retired-<pid>-<hex>` exactly, so
    /// the hidden files of a sibling folder named, say, `<name>.retired-x` never match.
    func retiredFolders() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        return names.filter { Self.isGenerated($0, prefix: ".\(name).retired-") }.sorted().map { parent + "/" + $0 }
    }

    /// Whether `entry` is `prefix` followed by `<pid>-<hex>`, as this type names folders.
    static func isGenerated(_ entry: String, prefix: String) -> Bool {
        guard entry.hasPrefix(prefix) else { return false }
        let parts = entry.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isNumber)
            && !parts[1].isEmpty && parts[1].allSatisfy(\.isHexDigit)
    }

    /// Staging folders older than this are left over from killed runs.
    static let staleAge: Double = 3600

    /// Removes this folder's staging folders (other than `own`) last modified more than
    /// `staleAge` ago. A report set aside by a publish killed half-way goes back in place
    /// if there is no report, and is retired otherwise. Called under the lock.
    func removeStaleStagingFolders(except own: String, now: Date = Date()) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: parent) else { return }
        for entry in names.sorted() where Self.isGenerated(entry, prefix: ".\(name).aside-") {
            let aside = parent + "/" + entry
            if fm.fileExists(atPath: path) {
                try? FileIO.move(aside, to: retiredName())
            } else {
                try? FileIO.move(aside, to: path)
            }
        }
        for entry in names where Self.isGenerated(entry, prefix: ".\(name).staging-") && parent + "/" + entry != own {
            let full = parent + "/" + entry
            let modified = [full, full + "/cases"].compactMap {
                (try? fm.attributesOfItem(atPath: $0))?[.modificationDate] as? Date
            }
            guard let newest = modified.max(), now.timeIntervalSince(newest) > Self.staleAge else { continue }
            try? fm.removeItem(atPath: full)
        }
    }
}
