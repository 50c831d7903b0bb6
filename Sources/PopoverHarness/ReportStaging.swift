import Foundation
import PopoverImage

/// A private folder a run writes its report into before publishing it.
///
/// Two checks may run at once (say, a test run and a check in another terminal). Each
/// stages its report in its own folder (`Reports/.staging-<pid>-<n>`), then publishes it
/// while holding an exclusive lock on `Reports/.lock`: the old report's files are
/// removed and the staged ones moved in. Publishing is serialised, so the folder always
/// ends up holding one complete report, the last one published, never a mix.
///
/// A run killed before publishing leaves its staging folder behind. Publishing, under the
/// lock, removes staging folders untouched for more than `staleAge` (an hour: far longer
/// than any check takes, so a run still in progress keeps its own).
final class ReportStaging: Sendable {
    let reportsFolder: String
    let folder: String
    let enabled: Bool

    init(reportsFolder: String, enabled: Bool) {
        self.reportsFolder = reportsFolder
        self.enabled = enabled
        folder = reportsFolder + "/.staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Writes `image` as `cases/<id>/<kind>.png` and returns that relative path, or nil
    /// when reports are off or the file cannot be written (the report then says the image
    /// is missing; the verdict stands).
    func save(_ image: RGBAImage, for id: String, as kind: String) -> String? {
        guard enabled else { return nil }
        let relative = "cases/\(id)/\(kind).png"
        let path = folder + "/" + relative
        do {
            try FileIO.createDirectories((path as NSString).deletingLastPathComponent)
            try PNGFile.write(image, to: path, compression: .fast)
            return relative
        } catch {
            return nil
        }
    }

    func write(_ bytes: [UInt8], to relative: String) throws(FileError) {
        try FileIO.createDirectories(folder)
        try FileIO.writeAtomically(bytes, to: folder + "/" + relative)
    }

    /// Staging folders older than this are left over from killed runs.
    static let staleAge: Double = 3600

    /// Removes `.staging-*` folders under `reportsFolder` (other than this run's) whose
    /// folder, and `cases` folder if any, were last modified more than `staleAge` ago.
    func removeStaleStagingFolders(now: Date = Date()) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: reportsFolder) else { return }
        let own = (folder as NSString).lastPathComponent
        for name in names where name.hasPrefix(".staging-") && name != own {
            let path = reportsFolder + "/" + name
            let modified = [path, path + "/cases"].compactMap { lastModified($0) }
            guard let newest = modified.max(), now.timeIntervalSince(newest) > Self.staleAge else { continue }
            try? fm.removeItem(atPath: path)
        }
    }

    private func lastModified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// The top-level names a report consists of; publishing replaces exactly these.
    static let publishedNames = ["index.html", "summary.json", "junit.xml", "cases", "assets"]

    /// Moves the staged report into the reports folder under the lock.
    func publish() throws(HarnessError) {
        let fm = FileManager.default
        do {
            try FileIO.createDirectories(reportsFolder)
        } catch {
            throw .io("\(error)")
        }
        let lockPath = reportsFolder + "/.lock"
        let fd = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("\(lockPath): cannot open the report lock: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else {
            throw .io("\(lockPath): cannot lock: \(String(cString: strerror(errno)))")
        }
        defer { flock(fd, LOCK_UN) }
        removeStaleStagingFolders()
        for name in Self.publishedNames {
            let target = reportsFolder + "/" + name
            if fm.fileExists(atPath: target) { try? fm.removeItem(atPath: target) }
            let staged = folder + "/" + name
            guard fm.fileExists(atPath: staged) else { continue }
            guard rename(staged, target) == 0 else {
                throw .io("\(target): cannot publish the report: \(String(cString: strerror(errno)))")
            }
        }
        try? fm.removeItem(atPath: folder)
    }

    func discard() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
