import PopoverGeometry

/// The facts of one folder's goldens as the bytes of its `facts.tsv`, and back: the
/// format `GoldenFacts` describes. Pure (bytes in, bytes out) so that every rule of the
/// format is tested on bytes; `GoldenStore` does the reading and writing.
public struct FactsTable: Sendable, Hashable {
    public static let fileName = "facts.tsv"

    /// One golden's row. Its cells are worked out once, when it is made: `record`
    /// writes a folder's table once per golden, and a table of a hundred rows would
    /// otherwise be formatted afresh each time for one changed row.
    public struct Row: Sendable, Hashable {
        /// The SHA-256 (hex) of the golden file the facts drew.
        public let golden: String
        public let facts: Facts
        /// The non-empty cells, in `FactPath` order.
        let cells: [Cell]
        /// Why the facts cannot be written as cells, and in which column, if they cannot.
        let problem: (column: String, problem: String)?

        public init(golden: String, facts: Facts) {
            var cells: [Cell] = []
            var problem: (column: String, problem: String)?
            for (path, value) in facts.leaves(keepingEmpty: true) {
                let column = path.description
                if !path.isWritable {
                    problem = (column, "the fact path cannot be a column: a key is empty or holds `.`, `[`, `]` or a control character")
                } else if let text = FactsTable.cell(value) {
                    cells.append(Cell(column: column, path: path, text: text))
                } else {
                    problem = (column, "\(value) is not a finite number")
                }
            }
            self.init(golden: golden, facts: facts, cells: cells, problem: problem)
        }

        init(golden: String, facts: Facts, cells: [Cell], problem: (column: String, problem: String)?) {
            self.golden = golden
            self.facts = facts
            self.cells = cells
            self.problem = problem
        }

        /// The golden and the facts: the cells follow from them.
        public static func == (a: Row, b: Row) -> Bool { a.golden == b.golden && a.facts == b.facts }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(golden)
            hasher.combine(facts)
        }
    }

    /// A cell's column, that column's path, and its text.
    struct Cell: Sendable {
        let column: String
        let path: FactPath
        let text: String
    }

    /// The rows by case name: the last component of the case ID.
    public var rows: [String: Row]

    public init(rows: [String: Row] = [:]) {
        self.rows = rows
    }

    // MARK: Writing

    /// The table's bytes: the header (`case`, `golden`, then every fact path any row has,
    /// in `FactPath` order), then one row per case in byte order of the names, each with
    /// exactly the header's number of cells. The same rows always give the same bytes.
    /// `file` only names the table in an error: a name, digest or fact the format cannot
    /// hold (a name with `/` or a control character, a key with `.`, `[`, `]`, a number
    /// that is not finite).
    public func encoded(file: String) throws(FactsTableError) -> [UInt8] {
        let names = rows.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var paths: [String: FactPath] = [:]
        var previous: [Cell] = []
        for name in names {
            let row = rows[name]!
            if let problem = Self.nameProblem(name) ?? Self.digestProblem(row.golden) {
                throw FactsTableError(file: file, problem: problem)
            }
            if let problem = row.problem {
                throw FactsTableError(file: file, column: problem.column, problem: "case `\(name)`: \(problem.problem)")
            }
            // Rows of one folder mostly have the same columns: a row's are collected only
            // when they differ from the row before's.
            if !row.cells.elementsEqual(previous, by: { $0.column == $1.column }) {
                for cell in row.cells { paths[cell.column] = cell.path }
                previous = row.cells
            }
        }
        let header = paths.sorted { $0.value < $1.value }.map(\.key)
        var out: [UInt8] = []
        out += "case\tgolden".utf8
        for column in header {
            out.append(Self.tab)
            out += column.utf8
        }
        out.append(Self.newline)
        for name in names {
            let row = rows[name]!
            out += name.utf8
            out.append(Self.tab)
            out += row.golden.utf8
            // The row's cells and the header are both in path order, the cells a subset.
            var next = row.cells.startIndex
            for column in header {
                out.append(Self.tab)
                if next < row.cells.endIndex, row.cells[next].column == column {
                    out += row.cells[next].text.utf8
                    next += 1
                }
            }
            out.append(Self.newline)
        }
        return out
    }

    /// A value's cell: the number bare (whole numbers as integers), `true`/`false`, a
    /// text as a JSON string literal, `{}` and `[]` for the empty group and list; nil for
    /// a number that is not finite (and for a group or list with items, which
    /// `leaves(keepingEmpty:)` never gives as one value).
    static func cell(_ value: FactValue) -> String? {
        switch value {
        case .number(let v): v.isFinite ? plainNumber(v) : nil
        case .flag(let b): b ? "true" : "false"
        case .text(let s): jsonString(s)
        case .group(let g): g.isEmpty ? "{}" : nil
        case .list(let items): items.isEmpty ? "[]" : nil
        }
    }

    /// `s` as a JSON string literal, escaped as JSONEncoder escapes (tabs and line breaks
    /// among them, so a cell never holds one raw).
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: Reading

    /// Reads a table's bytes. Any departure from the format is an error naming `file`,
    /// the line (1 is the header) and, for a cell, its column. The header's fact paths may
    /// come in any order (writing puts them in order again); a missing final newline is
    /// forgiven.
    public static func decode(_ bytes: [UInt8], file: String) throws(FactsTableError) -> FactsTable {
        var lines = bytes.split(separator: newline, omittingEmptySubsequences: false)
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        let failure = { (line: Int, problem: String, column: String?) in
            FactsTableError(file: file, line: line, column: column, problem: problem)
        }
        let header = try cells(of: lines[0], line: 1, file: file).map { String(decoding: $0, as: UTF8.self) }
        guard header.count >= 2, header[0] == "case", header[1] == "golden" else {
            throw failure(1, "the header must begin with the columns `case` and `golden`, not "
                          + header.prefix(2).map { "`\($0)`" }.joined(separator: " and "), nil)
        }
        var columns: [FactPath] = []
        var seen = Set<String>()
        for text in header.dropFirst(2) {
            guard let path = FactPath(text) else {
                throw failure(1, "not a fact path (keys joined by `.`, list items as `[0]`)", text)
            }
            guard seen.insert(text).inserted else { throw failure(1, "named twice in the header", text) }
            columns.append(path)
        }
        // Rows keep their cells in path order, whatever order the header has them in.
        let order = columns.indices.sorted { columns[$0] < columns[$1] }

        var rows: [String: Row] = [:]
        var lineOfName: [String: Int] = [:]
        for (index, bytes) in lines.enumerated().dropFirst() {
            let line = index + 1
            let cells = try cells(of: bytes, line: line, file: file)
            guard cells.count == header.count else {
                throw failure(line, bytes.isEmpty ? "an empty line; every line after the header is a golden's row"
                                                  : "\(cells.count) cell\(cells.count == 1 ? "" : "s"), but the header has \(header.count)", nil)
            }
            let name = String(decoding: cells[0], as: UTF8.self)
            if let problem = nameProblem(name) { throw failure(line, problem, "case") }
            if let first = lineOfName[name] { throw failure(line, "case `\(name)` again (its row is line \(first))", "case") }
            let golden = String(decoding: cells[1], as: UTF8.self)
            if let problem = digestProblem(golden) { throw failure(line, problem, "golden") }
            var leaves: [(path: FactPath, value: FactValue)] = []
            var rowCells: [Cell] = []
            leaves.reserveCapacity(order.count)
            rowCells.reserveCapacity(order.count)
            for column in order where !cells[column + 2].isEmpty {
                let path = columns[column]
                let value: FactValue
                do {
                    value = try Self.value(of: cells[column + 2])
                } catch {
                    throw failure(line, error.problem, header[column + 2])
                }
                leaves.append((path, value))
                // Written as it would be written anew, so the same facts give the same bytes
                // (a cell that reads as a value always has a text).
                rowCells.append(Cell(column: header[column + 2], path: path, text: cell(value)!))
            }
            do {
                rows[name] = Row(golden: golden, facts: try Facts(leaves: leaves), cells: rowCells, problem: nil)
            } catch {
                throw failure(line, "the fact \(error)", error.path.description)
            }
            lineOfName[name] = line
        }
        return FactsTable(rows: rows)
    }

    /// A line's cells, split at tabs, once the line is known to be UTF-8 and to end with
    /// `\n` alone.
    private static func cells(of line: ArraySlice<UInt8>, line number: Int,
                              file: String) throws(FactsTableError) -> [ArraySlice<UInt8>] {
        guard String(validating: line, as: UTF8.self) != nil else {
            throw FactsTableError(file: file, line: number, problem: "not UTF-8")
        }
        guard line.last != carriageReturn else {
            throw FactsTableError(file: file, line: number, problem: "ends with a carriage return; the table's lines end with \\n alone")
        }
        if number == 1 && line.isEmpty {
            throw FactsTableError(file: file, line: 1, problem: "empty, where the header belongs (case, golden, then the fact paths)")
        }
        return line.split(separator: tab, omittingEmptySubsequences: false)
    }

    struct CellProblem: Error {
        var problem: String
    }

    /// What a non-empty cell's text holds; see `cell(_:)`.
    static func value(of cell: ArraySlice<UInt8>) throws(CellProblem) -> FactValue {
        if cell.first == quote { return .text(try jsonText(cell)) }
        switch String(decoding: cell, as: UTF8.self) {
        case "true": return .flag(true)
        case "false": return .flag(false)
        case "{}": return .group(Facts())
        case "[]": return .list([])
        case let text:
            if isJSONNumber(cell), let v = Double(text) {
                guard v.isFinite else { throw CellProblem(problem: "`\(text)` is not a finite number") }
                return .number(v)
            }
            if ["nan", "-nan", "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity"].contains(text.lowercased()) {
                throw CellProblem(problem: "`\(text)` is not a finite number")
            }
            throw CellProblem(problem: "`\(text)` is none of a number, true or false, a text in double quotes (JSON), {} or []")
        }
    }

    /// JSON's number syntax: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ cell: ArraySlice<UInt8>) -> Bool {
        var i = cell.startIndex
        if i < cell.endIndex, cell[i] == UInt8(ascii: "-") { i += 1 }
        if i < cell.endIndex, cell[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            guard let next = digits(cell, from: i) else { return false }
            i = next
        }
        if i < cell.endIndex, cell[i] == UInt8(ascii: ".") {
            guard let next = digits(cell, from: i + 1) else { return false }
            i = next
        }
        if i < cell.endIndex, cell[i] == UInt8(ascii: "e") || cell[i] == UInt8(ascii: "E") {
            i += 1
            if i < cell.endIndex, cell[i] == UInt8(ascii: "+") || cell[i] == UInt8(ascii: "-") { i += 1 }
            guard let next = digits(cell, from: i) else { return false }
            i = next
        }
        return i == cell.endIndex
    }

    /// Where the run of decimal digits at `start` ends; nil when there is none.
    private static func digits(_ cell: ArraySlice<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < cell.endIndex, (48...57).contains(cell[i]) { i += 1 }
        return i > start ? i : nil
    }

    /// The text of a JSON string literal that is the whole cell.
    static func jsonText(_ cell: ArraySlice<UInt8>) throws(CellProblem) -> String {
        let bad = { (why: String) in
            CellProblem(problem: "`\(String(decoding: cell, as: UTF8.self))` is not a text in double quotes (JSON): \(why)")
        }
        guard cell.count >= 2, cell.last == quote else { throw bad("it does not end with a quote") }
        var out: [UInt8] = []
        var i = cell.startIndex + 1
        let end = cell.endIndex - 1
        while i < end {
            let b = cell[i]
            i += 1
            if b == quote { throw bad("a quote inside it is not escaped") }
            if b < 0x20 { throw bad("a control character inside it is not escaped") }
            guard b == backslash else {
                out.append(b)
                continue
            }
            guard i < end else { throw bad("it ends in the middle of an escape") }
            let e = cell[i]
            i += 1
            switch e {
            case quote, backslash, UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4(cell[i..<end]) else { throw bad("\\u needs four hex digits") }
                i += 4
                if (0xD800...0xDBFF).contains(code) {
                    // A character beyond the first 65536 comes as two escapes, high then low.
                    guard end - i >= 6, cell[i] == backslash, cell[i + 1] == UInt8(ascii: "u"),
                          let low = hex4(cell[(i + 2)..<end]), (0xDC00...0xDFFF).contains(low) else {
                        throw bad("a lone surrogate \\u escape")
                    }
                    i += 6
                    code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw bad("a lone surrogate \\u escape") }
                out += String(Character(scalar)).utf8
            default:
                throw bad("`\\\(Character(Unicode.Scalar(e)))` is not an escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number the first four bytes spell in hex, or nil.
    private static func hex4(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        guard bytes.count >= 4 else { return nil }
        var v: UInt32 = 0
        for b in bytes.prefix(4) {
            guard let digit = Character(Unicode.Scalar(b)).hexDigitValue else { return nil }
            v = v << 4 | UInt32(digit)
        }
        return v
    }

    /// Why `name` cannot name a row, or nil: a name is a case ID's last component.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a row's case name is empty" }
        if name.contains("/") { return "the case name `\(name)` holds `/`; a row names a golden of this folder" }
        if name.unicodeScalars.contains(where: { $0.isASCII ? $0.value < 0x20 || $0.value == 0x7F : $0.properties.generalCategory == .control }) {
            return "the case name `\(name)` holds a control character"
        }
        return nil
    }

    /// Why `golden` is not a SHA-256 in lowercase hex, or nil.
    static func digestProblem(_ golden: String) -> String? {
        let ok = golden.utf8.count == 64 && golden.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return ok ? nil : "golden `\(golden)` is not a SHA-256 in hex (64 digits 0-9, a-f)"
    }

    private static let tab = UInt8(ascii: "\t"), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
}

/// What is wrong with a facts table: the file, the line (1 is the header; none for a row
/// that cannot be written) and the column where it applies.
public struct FactsTableError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: String?
    public var problem: String

    public init(file: String, line: Int? = nil, column: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `Goldens/s/up/facts.tsv:3: column apex.x: `abc` is none of ...`.
    public var description: String {
        (line.map { "\(file):\($0)" } ?? file) + (column.map { ": column \($0)" } ?? "") + ": " + problem
    }
}
