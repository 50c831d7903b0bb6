import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// The facts table (`facts.tsv`) on bytes: tables written out by hand, read into facts
/// built by hand and written back to the same bytes; every kind of bad input named with
/// the file, the line and the column; and the committed tables, which hold exactly the
/// facts this build draws.
@Suite("Facts tables")
struct FactsTableTests {
    static let file = "G/s/up/facts.tsv"
    static let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64), c = String(repeating: "c", count: 64)

    static func table(_ lines: [[String]]) -> [UInt8] {
        Array(lines.map { $0.joined(separator: "\t") + "\n" }.joined().utf8)
    }

    static func stage(_ width: Double) -> FactValue { .group(Facts(["width": .number(width)])) }

    /// Three rows: two stages and one (so a row has empty cells), a text with a tab and
    /// quotes in it, flags, a fraction, an empty list and an empty group.
    static let text = table([
        ["case", "golden", "apex.x", "extra", "image", "mirrored", "notes", "stages[0].width", "stages[1].width"],
        ["Zeta@1x", a, "-3", "", "\"a\\tb \\\"c\\\" é\"", "", "", "", ""],
        ["popover8-portrait@2x", b, "120.5", "{}", "\"up\"", "false", "[]", "196", "336"],
        ["sweep-104x200-offset-75@2x", c, "75", "", "\"side-top\"", "true", "", "104", ""],
    ])

    static let rows: [String: FactsTable.Row] = [
        "Zeta@1x": .init(golden: a, facts: Facts(["apex": .group(Facts(["x": .number(-3)])), "image": .text("a\tb \"c\" é")])),
        "popover8-portrait@2x": .init(golden: b, facts: Facts([
            "apex": .group(Facts(["x": .number(120.5)])), "extra": .group(Facts()), "image": .text("up"), "mirrored": .flag(false),
            "notes": .list([]), "stages": .list([stage(196), stage(336)]),
        ])),
        "sweep-104x200-offset-75@2x": .init(golden: c, facts: Facts([
            "apex": .group(Facts(["x": .number(75)])), "image": .text("side-top"), "mirrored": .flag(true), "stages": .list([stage(104)]),
        ])),
    ]

    @Test("a table written by hand reads as the facts built by hand, and those write back to the same bytes")
    func handWritten() throws {
        let decoded = try FactsTable.decode(Self.text, file: Self.file)
        #expect(decoded.rows == Self.rows)
        #expect(decoded.rows.mapValues(\.facts) == Self.rows.mapValues(\.facts))
        #expect(try FactsTable(rows: Self.rows).encoded(file: Self.file) == Self.text)
        // A missing final newline is forgiven on reading.
        #expect(try FactsTable.decode(Self.text.dropLast(), file: Self.file) == decoded)
    }

    @Test("columns: the union of the rows' paths, component by component, list items by number")
    func columnOrder() throws {
        let long = FactsTable.Row(golden: Self.a, facts: Facts(["offsets": .list((0...10).map { .number(Double($0)) }), "b": .flag(true)]))
        let other = FactsTable.Row(golden: Self.b, facts: Facts(["a": .group(Facts(["z": .number(1), "b": .number(2)]))]))
        let bytes = try FactsTable(rows: ["x": long, "y": other]).encoded(file: Self.file)
        let offsets = (0...10).map { "offsets[\($0)]" }
        #expect(bytes == Self.table([
            ["case", "golden", "a.b", "a.z", "b"] + offsets,
            ["x", Self.a, "", "", "true"] + (0...10).map(String.init),
            ["y", Self.b, "2", "1", ""] + Array(repeating: "", count: 11),
        ]))
        // A header in another order reads the same, and is written in order again.
        let shuffled = Self.table([
            ["case", "golden", "b", "a.z"] + offsets.reversed() + ["a.b"],
            ["x", Self.a, "true", ""] + (0...10).reversed().map(String.init) + [""],
            ["y", Self.b, "", "1"] + Array(repeating: "", count: 11) + ["2"],
        ])
        let read = try FactsTable.decode(shuffled, file: Self.file)
        #expect(read.rows == ["x": long, "y": other])
        #expect(try read.encoded(file: Self.file) == bytes)
    }

    @Test("numbers: whole ones as integers, others in Swift's shortest form; JSON's number syntax read back")
    func numbers() throws {
        let written: [(Double, String)] = [(216, "216"), (-3, "-3"), (0, "0"), (-0.0, "0"), (74.5, "74.5"), (0.1, "0.1"),
                                           (1e-7, "1e-07"), (1e20, "1e+20"), (2.0 / 3.0, "0.6666666666666666")]
        for (value, text) in written {
            let bytes = try FactsTable(rows: ["n": .init(golden: Self.a, facts: Facts(["v": .number(value)]))]).encoded(file: Self.file)
            #expect(bytes == Self.table([["case", "golden", "v"], ["n", Self.a, text]]), "\(value)")
        }
        let read: [(String, Double)] = [("1E3", 1000), ("-0.5", -0.5), ("2.50", 2.5), ("0e0", 0), ("1e-07", 1e-7), ("-0", 0)]
        for (text, value) in read {
            let table = try FactsTable.decode(Self.table([["case", "golden", "v"], ["n", Self.a, text]]), file: Self.file)
            #expect(table.rows["n"]?.facts["v"] == .number(value), "\(text)")
        }
    }

    @Test("texts: JSON string literals both ways, every escape read, tabs and line breaks never raw")
    func texts() throws {
        let value = "tab\tline\ncr\r\"q\" \\ \u{1} é 😀 /"
        let bytes = try FactsTable(rows: ["n": .init(golden: Self.a, facts: Facts(["t": .text(value)]))]).encoded(file: Self.file)
        #expect(bytes == Self.table([["case", "golden", "t"], ["n", Self.a, #""tab\tline\ncr\r\"q\" \\ \u0001 é 😀 /""#]]))
        #expect(try FactsTable.decode(bytes, file: Self.file).rows["n"]?.facts["t"] == .text(value))
        let escapes = #""\u00e9\ud83d\ude00\/\b\f\u0041""#
        let table = try FactsTable.decode(Self.table([["case", "golden", "t"], ["n", Self.a, escapes]]), file: Self.file)
        #expect(table.rows["n"]?.facts["t"] == .text("é😀/\u{8}\u{C}A"))
    }

    /// The error reading `lines` (joined by `\n`, with a final one) gives.
    static func error(_ text: String) -> FactsTableError? {
        do {
            _ = try FactsTable.decode(Array(text.utf8), file: file)
            return nil
        } catch {
            return error
        }
    }

    static let header = "case\tgolden\tapex.x\timage"

    @Test("bad input: each named with the file, the line and the column, and what is wrong",
          arguments: [
              // The header.
              ("name\tgolden\tapex.x\n", 1, nil, "must begin with the columns `case` and `golden`"),
              ("golden\tcase\n", 1, nil, "must begin with the columns `case` and `golden`"),
              ("case\n", 1, nil, "must begin with the columns `case` and `golden`"),
              ("", 1, nil, "empty"),
              ("case\tgolden\ta..b\n", 1, "a..b", "not a fact path"),
              ("case\tgolden\tx\ty\tx\n", 1, "x", "named twice"),
              ("case\tgolden\r\n", 1, nil, "carriage return"),
              // Rows.
              ("\(header)\nn\t\(a)\t1\n", 2, nil, "3 cells, but the header has 4"),
              ("\(header)\nn\t\(a)\t1\t\"up\"\textra\n", 2, nil, "5 cells, but the header has 4"),
              ("\(header)\nn\t\(a)\t1\t\"up\"\n\nm\t\(b)\t1\t\"up\"\n", 3, nil, "an empty line"),
              ("\(header)\nn\t\(a)\t1\t\"up\"\r\n", 2, nil, "carriage return"),
              ("\(header)\nn\t\(a)\t1\t\"up\"\nn\t\(b)\t2\t\"up\"\n", 3, "case", "case `n` again (its row is line 2)"),
              ("\(header)\n\t\(a)\t1\t\"up\"\n", 2, "case", "empty"),
              ("\(header)\na/b\t\(a)\t1\t\"up\"\n", 2, "case", "holds `/`"),
              ("\(header)\nn\txyz\t1\t\"up\"\n", 2, "golden", "not a SHA-256"),
              ("\(header)\nn\t\(a.uppercased())\t1\t\"up\"\n", 2, "golden", "not a SHA-256"),
              // Cells none of the types.
              ("\(header)\nn\t\(a)\tabc\t\"up\"\n", 2, "apex.x", "`abc` is none of a number, true or false"),
              ("\(header)\nn\t\(a)\t01\t\"up\"\n", 2, "apex.x", "none of"),
              ("\(header)\nn\t\(a)\t1.\t\"up\"\n", 2, "apex.x", "none of"),
              ("\(header)\nn\t\(a)\t.5\t\"up\"\n", 2, "apex.x", "none of"),
              ("\(header)\nn\t\(a)\t+1\t\"up\"\n", 2, "apex.x", "none of"),
              ("\(header)\nn\t\(a)\t0x10\t\"up\"\n", 2, "apex.x", "none of"),
              ("\(header)\nn\t\(a)\tTrue\t\"up\"\n", 2, "apex.x", "none of"),
              ("\(header)\nn\t\(a)\t1\tup\n", 2, "image", "`up` is none of"),
              ("\(header)\nn\t\(a)\t1\t'up'\n", 2, "image", "none of"),
              // Texts that are not JSON string literals: named as such, with the JSON
              // parser's own words for what is wrong.
              ("\(header)\nn\t\(a)\t1\t\"up\n", 2, "image", "`\"up` is not a text in double quotes (JSON): "),
              ("\(header)\nn\t\(a)\t1\t\"u\"p\"\n", 2, "image", "`\"u\"p\"` is not a text in double quotes (JSON): "),
              ("\(header)\nn\t\(a)\t1\t\"\\x\"\n", 2, "image", "is not a text in double quotes (JSON): "),
              ("\(header)\nn\t\(a)\t1\t\"\\u12\"\n", 2, "image", "is not a text in double quotes (JSON): "),
              ("\(header)\nn\t\(a)\t1\t\"\\ud800\"\n", 2, "image", "is not a text in double quotes (JSON): "),
              ("\(header)\nn\t\(a)\t1\t\"\\udc00\"\n", 2, "image", "is not a text in double quotes (JSON): "),
              ("\(header)\nn\t\(a)\t1\t\"a\u{1}\"\n", 2, "image", "control character"),
              // Among a table's numbers (read together), the first that is not one is named.
              ("case\tgolden\ta\tb\nn\t\(a)\t1\t2\nm\t\(b)\t3\t1.\nz\t\(c)\t01\t4\n", 3, "b", "`1.` is none of"),
              // Numbers that are not finite.
              ("\(header)\nn\t\(a)\t1e999\t\"up\"\n", 2, "apex.x", "`1e999` is not a finite number"),
              ("\(header)\nn\t\(a)\tnan\t\"up\"\n", 2, "apex.x", "`nan` is not a finite number"),
              ("\(header)\nn\t\(a)\t-inf\t\"up\"\n", 2, "apex.x", "`-inf` is not a finite number"),
              ("\(header)\nn\t\(a)\tInfinity\t\"up\"\n", 2, "apex.x", "not a finite number"),
              // Paths that conflict within a row.
              ("case\tgolden\ta\ta.b\nn\t\(a)\t1\t\nm\t\(b)\t1\t2\n", 3, "a.b", "the fact `a.b` lies below `a`, which holds a value"),
              ("case\tgolden\ta\ta.b\nn\t\(a)\t{}\t2\n", 2, "a.b", "lies below `a`"),
              ("case\tgolden\ta.b\ta[0]\nn\t\(a)\t1\t2\n", 2, "a.b", "makes `a` both a list and a group"),
              ("case\tgolden\ta[1]\nn\t\(a)\t1\n", 2, "a[1]", "is in a list without `a[0]`"),
          ] as [(String, Int, String?, String)])
    func badInput(_ text: String, line: Int, column: String?, problem: String) throws {
        let error = try #require(Self.error(text), "\(text.debugDescription) was read")
        #expect(error.file == Self.file && error.line == line && error.column == column, "\(error)")
        #expect(error.problem.contains(problem), "\(error)")
        #expect(error.description.hasPrefix("\(Self.file):\(line): " + (column.map { "column \($0): " } ?? "")), "\(error)")
    }

    @Test("bad input: a line that is not UTF-8 is named")
    func notUTF8() throws {
        var bytes = Array("\(Self.header)\nn\t\(Self.a)\t1\t\"".utf8)
        bytes += [0xFF, 0xFE] + Array("\"\n".utf8)
        #expect(throws: FactsTableError(file: Self.file, line: 2, problem: "not UTF-8")) {
            try FactsTable.decode(bytes, file: Self.file)
        }
    }

    @Test("what the format cannot hold is refused on writing, naming the case and the fact")
    func unwritable() {
        func refusal(_ name: String, _ facts: Facts, golden: String = Self.a) -> FactsTableError? {
            do {
                _ = try FactsTable(rows: [name: .init(golden: golden, facts: facts)]).encoded(file: Self.file)
                return nil
            } catch {
                return error
            }
        }
        let dotted = refusal("n", Facts(["a.b": .number(1)]))
        #expect(dotted?.column == "a.b" && dotted?.line == nil && dotted?.problem.hasPrefix("case `n`: the fact path cannot be a column") == true)
        #expect(refusal("n", Facts(["a": .group(Facts(["": .number(1)]))]))?.column == "a.")
        let nan = refusal("n", Facts(["v": .number(.nan)]))
        #expect(nan?.column == "v" && nan?.problem == "case `n`: nan is not a finite number")
        #expect(refusal("n", Facts(["v": .number(.infinity)]))?.problem == "case `n`: inf is not a finite number")
        #expect(refusal("a/b", Facts())?.problem.contains("holds `/`") == true)
        #expect(refusal("a\tb", Facts())?.problem.contains("control character") == true)
        #expect(refusal("", Facts())?.problem.contains("empty") == true)
        #expect(refusal("n", Facts(), golden: "xyz")?.problem.contains("not a SHA-256") == true)
        #expect(refusal("n", Facts()) == nil)
    }

    @Test("every committed table holds exactly the facts this build draws for its goldens, and writes back to its bytes")
    func committedTables() throws {
        let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let byID = Dictionary(uniqueKeysWithValues: catalog.cases.map { ($0.id, $0) })
        let store = GoldenStore(folder: PackageFolders.goldens)
        let tables = files(under: PackageFolders.goldens, endingWith: FactsTable.fileName)
        #expect(tables.count == 24)
        var cases = 0
        for relative in tables {
            let path = PackageFolders.goldens + "/" + relative
            let bytes = try FileIO.readBytes(path: path)
            let table = try FactsTable.decode(bytes, file: path)
            #expect(try table.encoded(file: path) == bytes, "\(relative)")
            // Its rows are the folder's goldens, each tied to its file and holding the facts
            // drawn now; a table made of those drawn facts is the committed bytes.
            let folder = FilePaths.parent(of: relative)
            let pngs = files(under: PackageFolders.goldens + "/" + folder, endingWith: ".png").filter { !$0.contains("/") }
            #expect(Set(table.rows.keys) == Set(pngs.map { String($0.dropLast(4)) }), "\(relative)")
            var drawn = FactsTable()
            for png in pngs {
                let name = String(png.dropLast(4)), id = folder + "/" + name
                let c = try #require(byID[id], "\(id)")
                let facts = try catalog.facts(of: c).facts
                #expect(table.rows[name]?.golden == SHA256.hex(try FileIO.readBytes(path: store.path(for: id))), "\(id)")
                #expect(table.rows[name]?.facts == facts, "\(id)")
                drawn.rows[name] = FactsTable.Row(golden: SHA256.hex(try FileIO.readBytes(path: store.path(for: id))), facts: facts)
                cases += 1
            }
            #expect(try drawn.encoded(file: path) == bytes, "\(relative)")
        }
        #expect(cases == 2498)
    }
}
