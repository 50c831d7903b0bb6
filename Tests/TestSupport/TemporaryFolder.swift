import Foundation

/// The folder every test's temporary folders go in: one per test process, under the
/// system's temporary folder, removed with everything in it when the process exits. So a
/// test run leaves nothing behind, not even what a test forgot to remove or what the tool
/// puts beside a folder it was given (a report's lock file and retired copies); a test
/// that wants a folder gone sooner calls `remove()`. A killed test process leaves its
/// folder, named with its process ID.
public let testProcessFolder: String = {
    let path = testProcessFolderPath(getpid())
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: testProcessFolderPath(getpid())) }
    return path
}()

func testProcessFolderPath(_ pid: pid_t) -> String { NSTemporaryDirectory() + "popover-goldens-tests-\(pid)" }

/// A fresh empty folder inside `testProcessFolder` for one test; `remove()` deletes it and
/// everything in it.
public struct TemporaryFolder: Sendable {
    public let path: String

    /// `label` (by default the test's function name) is part of the folder's name, so a
    /// folder left behind says which test made it.
    public init(_ label: String = #function) {
        let safe = String(label.filter { $0.isLetter || $0.isNumber }.prefix(40))
        path = testProcessFolder + "/\(safe)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names directly inside, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Every file under `folder` whose name ends with `suffix`, as paths relative to it.
public func files(under folder: String, endingWith suffix: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }
}

/// The modification time and inode of a file: unchanged means the file was not rewritten.
public func fileIdentity(_ path: String) -> (modified: Date, inode: UInt64)? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          let modified = attributes[.modificationDate] as? Date,
          let inode = attributes[.systemFileNumber] as? UInt64 else { return nil }
    return (modified, inode)
}

/// A fresh empty folder's path (see `TemporaryFolder`).
public func temporaryFolder(_ label: String = #function) -> String { TemporaryFolder(label).path }

/// Removes folders a test made.
public func removeFolders(_ paths: String...) {
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
}
