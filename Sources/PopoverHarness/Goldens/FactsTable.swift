import Foundation
import PopoverFiles
import PopoverGeometry
import Synchronization

/// The facts of one folder's goldens as the bytes of its `facts.tsv`, and back: the
/// format docs/goldens.md ("The facts tables") specifies. Pure (bytes in, bytes out) so
/// that every rule of the format is tested on bytes; `GoldenStore` does the reading and
/// writing. A cell's value is JSON, read and written by Foundation's `JSONDecoder` and
/// `JSONEncoder`; this type only says which cells hold what.
public struct FactsTable: Sendable, Hashable {
    public static let fileName = "facts.tsv"

    /// One golden's row.
    public struct Row: Sendable, Hashable {
        /// The SHA-256 (hex) of the golden file the facts drew.
        public let golden: String
        public let facts: Facts
        /// Its cells, worked out once, when the row is first written: `record` writes a
        /// folder's table once per golden, and a table of a hundred rows would otherwise be
        /// formatted afresh each time for one changed row; a row read and never written
        /// costs nothing.
        let written: WrittenCells

        public init(golden: String, facts: Facts) {
            self.golden = golden
            self.facts = facts
            written = WrittenCells(facts)
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

    /// A row's non-empty cells in `FactPath` order, or why its facts cannot be cells (and
    /// in which column), made on first use.
    final class WrittenCells: Sendable {
        typealias Cells = (cells: [Cell], problem: (column: String, problem: String)?)
        private let facts: Facts
        private let made = Mutex<Cells?>(nil)

        init(_ facts: Facts) { self.facts = facts }

        var cells: Cells {
            made.withLock { made in
                if let made { return made }
                let cells = FactsTable.cells(of: facts)
                made = cells
                return cells
            }
        }
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
        var cellsByName: [String: [Cell]] = [:]
        for name in names {
            let row = rows[name]!
            if let problem = Self.nameProblem(name) ?? Self.digestProblem(row.golden) {
                throw FactsTableError(file: file, problem: problem)
            }
            let written = row.written.cells
            if let problem = written.problem {
                throw FactsTableError(file: file, column: problem.column, problem: "case `\(name)`: \(problem.problem)")
            }
            cellsByName[name] = written.cells
            // Rows of one folder mostly have the same columns: a row's are collected only
            // when they differ from the row before's.
            if !written.cells.elementsEqual(previous, by: { $0.column == $1.column }) {
                for cell in written.cells { paths[cell.column] = cell.path }
                previous = written.cells
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
            let cells = cellsByName[name]!
            out += name.utf8
            out.append(Self.tab)
            out += rows[name]!.golden.utf8
            // The row's cells and the header are both in path order, the cells a subset.
            var next = cells.startIndex
            for column in header {
                out.append(Self.tab)
                if next < cells.endIndex, cells[next].column == column {
                    out += cells[next].text.utf8
                    next += 1
                }
            }
            out.append(Self.newline)
        }
        return out
    }

    /// The cells of `facts`: a number as `JSONEncoder` writes it (whole numbers as
    /// integers, others in Swift's shortest form; `-0` as `0`), `true`/`false`, a text as
    /// a JSON string literal (tabs and line breaks escaped, so a cell never holds one
    /// raw), `{}` and `[]` for the empty group and list.
    static func cells(of facts: Facts) -> WrittenCells.Cells {
        var cells: [Cell] = []
        var problem: (column: String, problem: String)?
        for (path, value) in facts.leaves(keepingEmpty: true) {
            let column = path.description
            guard path.isWritable else {
                problem = (column, "the fact path cannot be a column: a key is empty or holds `.`, `[`, `]` or a control character")
                continue
            }
            let text: String
            switch value {
            case .number(let v):
                guard v.isFinite else {
                    problem = (column, "\(v) is not a finite number")
                    continue
                }
                text = json(v + 0)  // + 0 turns -0 into 0
            case .flag(let b): text = b ? "true" : "false"
            case .text(let s): text = json(s)
            // `leaves(keepingEmpty:)` gives a group or list as a value only when it is empty.
            case .group: text = "{}"
            case .list: text = "[]"
            }
            cells.append(Cell(column: column, path: path, text: text))
        }
        return (cells, problem)
    }

    /// `value` as JSON text. Finite numbers and strings always encode.
    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
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
        let decoder = JSONDecoder()
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
            leaves.reserveCapacity(order.count)
            for column in order where !cells[column + 2].isEmpty {
                do {
                    leaves.append((columns[column], try Self.value(of: cells[column + 2], decoder: decoder)))
                } catch {
                    throw failure(line, error.problem, header[column + 2])
                }
            }
            do {
                rows[name] = Row(golden: golden, facts: try Facts(leaves: leaves))
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

    /// What a non-empty cell holds: a text, a flag, an empty group or list, or a number.
    static func value(of cell: ArraySlice<UInt8>, decoder: JSONDecoder) throws(CellProblem) -> FactValue {
        if cell.first == quote {
            do {
                return .text(try decoder.decode(String.self, from: Data(cell)))
            } catch {
                throw CellProblem(problem: "`\(String(decoding: cell, as: UTF8.self))` is not a text in double quotes (JSON): "
                    + parserSays(cell))
            }
        }
        switch String(decoding: cell, as: UTF8.self) {
        case "true": return .flag(true)
        case "false": return .flag(false)
        case "{}": return .group(Facts())
        case "[]": return .list([])
        case let text:
            guard cell.allSatisfy({ numberBytes.contains($0) }) else { throw CellProblem(problem: notANumber(text)) }
            guard let number = try? decoder.decode(Double.self, from: Data(cell)) else {
                throw CellProblem(problem: parserSays(cell).contains("not representable") ? "`\(text)` is not a finite number"
                                                                                         : notANumber(text))
            }
            return .number(number)
        }
    }

    /// What may make up a number: digits, sign, point, exponent. JSON would also read a
    /// number with spaces around it; a cell holds the number alone.
    private static let numberBytes = Set("0123456789+-.eE".utf8)

    private static func notANumber(_ text: String) -> String {
        if ["nan", "-nan", "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity"].contains(text.lowercased()) {
            return "`\(text)` is not a finite number"
        }
        return "`\(text)` is none of a number, true or false, a text in double quotes (JSON), {} or []"
    }

    /// What Foundation's parser says is wrong with `cell` (JSONDecoder says only "not
    /// valid JSON"), at which of its characters.
    private static func parserSays(_ cell: ArraySlice<UInt8>) -> String {
        guard let said = JSONProblem.parserSays(cell) else { return "not valid JSON" }
        return said.said + (said.offset.map { " at its character \($0 + 1)" } ?? "")
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
    private static let quote = UInt8(ascii: "\"")
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
