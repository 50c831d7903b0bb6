import Foundation
import PopoverFiles
import Testing
import TestSupport

@Suite("Path arithmetic")
struct FilePathsTests {
    // A hand-written table, as POSIX dirname and basename answer (with "." for a bare name).
    static let table: [(path: String, parent: String, last: String)] = [
        ("R", ".", "R"),
        (".", ".", "."),
        ("R/", ".", "R"),
        ("Reports", ".", "Reports"),
        ("a/b", "a", "b"),
        ("a/b/", "a", "b"),
        ("a//b", "a", "b"),
        ("/R", "/", "R"),
        ("/", "/", "/"),
        ("x/y/z.png", "x/y", "z.png"),
        ("../R", "..", "R"),
        ("", ".", "."),
        ("//", "/", "/"),
        ("a/.", "a", "."),
        ("/a/", "/", "a"),
    ]

    @Test("parent and last component, one-character names included (Foundation crashes on them)",
          arguments: table.indices)
    func paths(_ i: Int) {
        let row = Self.table[i]
        #expect(FilePaths.parent(of: row.path) == row.parent, "\(row.path)")
        #expect(FilePaths.lastComponent(of: row.path) == row.last, "\(row.path)")
    }

    @Test("a path a document names is read only when plain and inside the folder, links included")
    func inside() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let root = folder.file("report")
        try FileManager.default.createDirectory(atPath: root + "/cases", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/cases/a.png"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder.file("secret")))
        try FileManager.default.createSymbolicLink(atPath: root + "/cases/out.png", withDestinationPath: folder.file("secret"))
        try FileManager.default.createSymbolicLink(atPath: root + "/in.png", withDestinationPath: root + "/cases/a.png")
        let real = try #require(FilePaths.realPath(root + "/cases/a.png"))
        let expected: [(String, FilePaths.Inside)] = [
            ("cases/a.png", .found(real)),
            ("in.png", .found(real)),
            ("cases/out.png", .missingOrOutside),
            ("cases/none.png", .missingOrOutside),
            ("../secret", .notPlain),
            ("cases/../cases/a.png", .notPlain),
            ("./cases/a.png", .notPlain),
            ("cases//a.png", .notPlain),
            ("cases/a.png/", .notPlain),
            (root + "/cases/a.png", .notPlain),
            ("cases/.hidden", .notPlain),
            ("cases/a.png\0x", .notPlain),
        ]
        for (relative, answer) in expected {
            #expect(FilePaths.file(relative, inside: root) == answer, "\(relative)")
        }
    }
}
