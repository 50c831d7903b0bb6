import Foundation
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

@Suite("Files: reading, atomic writing, directories")
struct FileIOTests {
    @Test("writeAtomically creates, then replaces, and leaves no temporary behind")
    func replaces() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file("b.png")
        try FileIO.writeAtomically(Array("first, longer content".utf8), to: path)
        #expect(try FileIO.readBytes(path: path) == Array("first, longer content".utf8))
        try FileIO.writeAtomically(Array("second".utf8), to: path)
        #expect(try FileIO.readBytes(path: path) == Array("second".utf8))
        try FileIO.writeAtomically([], to: path)
        #expect(try FileIO.readBytes(path: path) == [])
        #expect(try directory.contents() == ["b.png"])
    }

    @Test("a name too long for a temporary suffix still works")
    func longName() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file(String(repeating: "n", count: 240) + ".png")
        try FileIO.writeAtomically([1, 2, 3], to: path)
        #expect(try FileIO.readBytes(path: path) == [1, 2, 3])
        #expect(try directory.contents().count == 1)
    }

    @Test("a missing directory is an error naming the path")
    func missingDirectory() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file("Goldens/a/b.png")
        let error = fileError { try FileIO.writeAtomically([1], to: path) }
        #expect(error == FileError(path: path, operation: .write, code: ENOENT, reason: "No such file or directory"))
        #expect(error?.description == "\(path): cannot write: No such file or directory")
    }

    @Test("a regular file used as a directory is an error naming the path")
    func fileAsDirectory() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        try FileIO.writeAtomically([0], to: directory.file("plain"))
        let path = directory.file("plain/b.png")
        #expect(fileError { try FileIO.writeAtomically([1], to: path) }?.description
            == "\(path): cannot write: Not a directory")
    }

    @Test("replacing a directory fails and removes the temporary file")
    func targetIsDirectory() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file("taken")
        try FileIO.createDirectories(path)
        let error = fileError { try FileIO.writeAtomically([1, 2], to: path) }
        #expect(error?.path == path)
        #expect(error?.code == EISDIR)
        #expect(try directory.contents() == ["taken"])
    }

    /// A reader racing a writer must see one whole version or the other, never a mix or
    /// a partial file.
    @Test("a concurrent reader only ever sees a complete old or new file")
    func concurrentReader() async throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file("race.bin")
        let versionA = [UInt8](repeating: 0xAA, count: 256 << 10)
        let versionB = [UInt8](repeating: 0xBB, count: 128 << 10)
        try FileIO.writeAtomically(versionA, to: path)
        let writer = Task.detached {
            for round in 0..<40 { try FileIO.writeAtomically(round.isMultiple(of: 2) ? versionB : versionA, to: path) }
        }
        var seen = 0
        for _ in 0..<200 {
            let bytes = try FileIO.readBytes(path: path)
            #expect(bytes == versionA || bytes == versionB, "saw \(bytes.count) bytes")
            seen += 1
        }
        try await writer.value
        #expect(seen == 200)
        #expect(try directory.contents() == ["race.bin"])
    }

    @Test("readBytes names the file in its errors")
    func readErrors() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let missing = directory.file("missing.png")
        #expect(fileError { _ = try FileIO.readBytes(path: missing) }?.description
            == "\(missing): cannot read: No such file or directory")
        #expect(fileError { _ = try FileIO.readBytes(path: directory.path) }?.description
            == "\(directory.path): cannot read: Is a directory")
    }

    /// Files in /proc report size 0 yet have content: readBytes must not trust st_size.
    @Test("a file larger than its reported size is read whole",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status") || runningOnCI, "no /proc here"))
    func sizeZeroButFull() throws {
        try #require(FileManager.default.fileExists(atPath: "/proc/self/status"), "no /proc/self/status: CI runs on Linux, which has it")
        let bytes = try FileIO.readBytes(path: "/proc/self/status")
        #expect(String(decoding: bytes, as: UTF8.self).contains("Pid:"))
    }

    @Test("createDirectories makes every missing level and accepts existing ones")
    func createsDirectories() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let nested = directory.file("Goldens/ipad/landscape")
        try FileIO.createDirectories(nested)
        try FileIO.createDirectories(nested)
        try FileIO.createDirectories(nested + "/")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: nested, isDirectory: &isDirectory) && isDirectory.boolValue)
        try FileIO.writeAtomically([7], to: nested + "/x.png")
        #expect(try FileIO.readBytes(path: nested + "/x.png") == [7])
    }

    @Test("createDirectories reports a file in the way")
    func fileInTheWay() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let blocker = directory.file("Goldens")
        try FileIO.writeAtomically([0], to: blocker)
        let path = blocker + "/a/b"
        let error = fileError { try FileIO.createDirectories(path) }
        #expect(error?.description == "\(path): cannot create directory: \(blocker) exists and is not a directory")
        #expect(fileError { try FileIO.createDirectories("") }?.operation == .createDirectory)
    }
}
