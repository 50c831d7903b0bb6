import PopoverFiles
import Testing

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
}
