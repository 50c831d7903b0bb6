import Foundation
import PopoverDiff
import PopoverHarness
import PopoverReport
import Testing
import TestSupport

/// summary.md read back as Markdown: its headings, its tables cell by cell (cells split
/// where an unescaped `|` stands, escapes undone as CommonMark does), its links and its
/// fenced commands, checked against values written out by hand.
@Suite("Job summary (summary.md)")
struct SummaryMarkdownTests {
    struct Document {
        var headings: [String] = []
        /// Each table: header cells, then rows of cells.
        var tables: [(header: [String], rows: [[String]])] = []
        var listItems: [String] = []
        var fenced: [(info: String, lines: [String])] = []
        var paragraphs: [String] = []
    }

    /// A reader for what the summary uses: ATX headings, pipe tables, `- ` lists,
    /// fenced code blocks, paragraphs. Table cells and list items are kept raw.
    static func parse(_ text: String) -> Document {
        var doc = Document()
        let lines = text.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.hasPrefix("```") {
                let fence = String(line.prefix { $0 == "`" })
                var body: [String] = []
                i += 1
                while i < lines.count && lines[i] != fence { body.append(lines[i]); i += 1 }
                doc.fenced.append((String(line.dropFirst(fence.count)), body))
            } else if line.hasPrefix("### ") || line.hasPrefix("## ") {
                doc.headings.append(String(line.drop { $0 == "#" }.dropFirst()))
            } else if line.hasPrefix("|") {
                var block: [String] = []
                while i < lines.count && lines[i].hasPrefix("|") { block.append(lines[i]); i += 1 }
                i -= 1
                let header = cells(block[0])
                let separator = cells(block[1])
                #expect(separator.count == header.count && separator.allSatisfy { $0.allSatisfy { "-:".contains($0) } })
                doc.tables.append((header, block.dropFirst(2).map(cells)))
            } else if line.hasPrefix("- ") {
                doc.listItems.append(String(line.dropFirst(2)))
            } else if !line.isEmpty {
                doc.paragraphs.append(line)
            }
            i += 1
        }
        return doc
    }

    /// A row's cells, split at each `|` no backslash escapes, trimmed. By scalar, as
    /// GitHub's and GitLab's parsers read it: a `|` followed by a combining mark is still
    /// a `|`.
    static func cells(_ row: String) -> [String] {
        var cells: [String] = [], current = "", escaped = false
        for c in row.unicodeScalars {
            if c == "|" && !escaped {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.unicodeScalars.append(c)
            }
            escaped = c == "\\" && !escaped
        }
        cells.append(current.trimmingCharacters(in: .whitespaces))
        return Array(cells.dropFirst().dropLast())
    }

    /// CommonMark: a backslash before ASCII punctuation stands for that character.
    static func unescape(_ text: String) -> String {
        var out = "", pending = false
        for c in text.unicodeScalars {
            if pending {
                if !##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##.unicodeScalars.contains(c) { out.append("\\") }
                out.unicodeScalars.append(c)
                pending = false
            } else if c == "\\" {
                pending = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// `[text](destination)` -> (text unescaped, destination).
    static func link(_ cell: String) -> (text: String, destination: String)? {
        guard cell.hasPrefix("["), cell.hasSuffix(")"), let middle = cell.range(of: "](", options: .backwards) else { return nil }
        return (unescape(String(cell[cell.index(after: cell.startIndex)..<middle.lowerBound])),
                String(cell[middle.upperBound..<cell.index(before: cell.endIndex)]))
    }

    static func metrics(pixels: Int, delta: Int, psnr: Double?) -> ComparisonMetrics {
        ComparisonMetrics(width: 10, height: 10, differentPixels: pixels, maxChannelDelta: delta, meanAbsoluteError: 1,
                          psnr: psnr, pass: false, tolerance: "exact")
    }

    static let plainID = "gik-default/up/popover1-portrait@1x"
    static let oddID = "odd|skin`x/up/a*b_c@2x"
    static let missingID = "gik-default/down/popover2-portrait@1x"

    static func sampleRun() -> RunRecord {
        var plain = CaseResult.sample(.sample(skin: "gik-default", direction: .up, label: "popover1-portrait"),
                                      status: .failed, message: "fail", metrics: metrics(pixels: 40, delta: 90, psnr: 30))
        plain.artifacts.triptych = SavedImage(path: "cases/\(plainID).triptych.png", width: 1352, height: 508)
        plain.change = "c1a2b3c4d"
        let odd = CaseResult.sample(.sample(skin: "odd|skin`x", direction: .up, scale: 2, label: "a*b_c"),
                                    status: .failed, message: "fail", metrics: metrics(pixels: 500, delta: 12, psnr: 41.3))
        let missing = CaseResult.sample(.sample(skin: "gik-default", direction: .down, label: "popover2-portrait"),
                                        status: .missing, message: "no golden")
        let passed = CaseResult.sample(.sample(skin: "gik-default", direction: .left, label: "popover3-portrait"),
                                       status: .passed, message: "identical")
        var run = RunRecord.sample(results: [plain, odd, missing, passed], orphans: ["gik-default/up/old@1x"])
        run.changes = [
            Change(id: "c1a2b3c4d", explanation: "arrow apex moved +1 pt | along x `fast` *now*", kind: "geometry",
                   cases: [plainID, oddID]),
            Change(id: "c00000001", explanation: "no golden yet", kind: "new", cases: [missingID]),
        ]
        return run
    }

    @Test("a run with failures, changes and orphans: headings, tables, links and commands")
    func structure() throws {
        #expect(Self.sampleRun().results.map(\.id) == [Self.plainID, Self.oddID, Self.missingID,
                                                        "gik-default/left/popover3-portrait@1x"])
        let doc = Self.parse(SummaryMarkdown.render(Self.sampleRun()))
        #expect(doc.headings == ["popover-goldens: failed (4 cases)", "Changes", "Worst failing cases", "Orphaned goldens",
                                 "Reproduce and accept"])
        try #require(doc.tables.count == 3)

        let counts = doc.tables[0]
        #expect(counts.header == ["Passed", "Failed", "Missing", "Orphaned"])
        #expect(counts.rows == [["1", "2", "1", "1"]])

        let changes = doc.tables[1]
        #expect(changes.header == ["Change", "Cases", "What changed", "Accept"])
        #expect(changes.rows.count == 2)
        #expect(changes.rows.map { $0.count } == [4, 4])
        #expect(changes.rows[0][0] == "`c1a2b3c4d`" && changes.rows[0][1] == "2")
        #expect(Self.unescape(changes.rows[0][2]) == "arrow apex moved +1 pt | along x `fast` *now*")
        #expect(changes.rows[0][3] == "`popover-goldens accept --change c1a2b3c4d`")
        #expect(changes.rows[1][0] == "`c00000001`" && changes.rows[1][1] == "1" && changes.rows[1][2] == "no golden yet")

        // Worst first: the missing golden, then 500 different pixels, then 40.
        let worst = doc.tables[2]
        #expect(worst.header == ["Case", "Status", "Different pixels", "Largest channel difference", "PSNR", "Triptych"])
        #expect(worst.rows.map { $0.count } == [6, 6, 6])
        let links = worst.rows.map { Self.link($0[0]) }
        #expect(links.map { $0?.text } == [Self.missingID, Self.oddID, Self.plainID])
        // The page's anchors: "c-" and the ID percent-encoded (| is %7C, ` %60, * %2A).
        #expect(links.map { $0?.destination } == ["index.html#c-gik-default/down/popover2-portrait@1x",
                                                  "index.html#c-odd%7Cskin%60x/up/a%2Ab_c@2x",
                                                  "index.html#c-gik-default/up/popover1-portrait@1x"])
        #expect(worst.rows.map { Array($0[1...4]) } == [["missing", "–", "–", "–"], ["failed", "500", "12", "41.30 dB"],
                                                         ["failed", "40", "90", "30.00 dB"]])
        #expect(worst.rows[0][5] == "none" && worst.rows[1][5] == "none")
        let triptych = try #require(Self.link(worst.rows[2][5]))
        #expect(triptych.text == "popover1-portrait@1x.triptych.png")
        #expect(triptych.destination == "cases/gik-default/up/popover1-portrait@1x.triptych.png")

        #expect(doc.listItems.map(Self.unescape) == ["Goldens/gik-default/up/old@1x.png"])

        try #require(doc.fenced.count == 1)
        #expect(doc.fenced[0].info == "sh")
        let commands = doc.fenced[0].lines.filter { !$0.hasPrefix("#") }
        #expect(commands == [
            "popover-goldens check --record never",
            // Plain words as they are; anything a shell would read otherwise, single-quoted.
            "popover-goldens check --record never --filter gik-default/down/popover2-portrait@1x",
            "popover-goldens accept gik-default/down/popover2-portrait@1x",
            "popover-goldens check --record never --filter 'odd|skin`x/up/a*b_c@2x'",
            "popover-goldens accept 'odd|skin`x/up/a*b_c@2x'",
            "popover-goldens check --record never --filter gik-default/up/popover1-portrait@1x",
            "popover-goldens accept gik-default/up/popover1-portrait@1x",
            "popover-goldens accept --change c1a2b3c4d",
            "popover-goldens accept --change c00000001",
        ])
    }

    @Test("25 failing cases: 20 rows, then a line counting the other 5; so for changes and orphans; a passing run has no case table")
    func longRun() {
        let results = (0..<25).map { i in
            CaseResult.sample(.sample(skin: "gik-default", direction: .up, label: "sweep-\(i)"), status: .failed,
                              message: "fail", metrics: Self.metrics(pixels: 100 + i, delta: 1, psnr: 50))
        }
        let doc = Self.parse(SummaryMarkdown.render(RunRecord.sample(results: results)))
        let table = doc.tables.last!
        #expect(table.rows.count == 20)
        // Most different pixels first: sweep-24 (124) down to sweep-5 (105).
        #expect(table.rows.first.flatMap { Self.link($0[0])?.text } == "gik-default/up/sweep-24@1x")
        #expect(table.rows.last.flatMap { Self.link($0[0])?.text } == "gik-default/up/sweep-5@1x")
        #expect(doc.paragraphs.contains("… and 5 more failing cases on the [report page](index.html)."))

        // 25 orphans: 20 listed, then a line counting the other 5.
        let orphaned = Self.parse(SummaryMarkdown.render(RunRecord.sample(results: results,
                                                                          orphans: (0..<25).map { "s/up/old-\($0)@1x" })))
        #expect(orphaned.listItems.count == 20)
        #expect(orphaned.listItems.first.map(Self.unescape) == "Goldens/s/up/old-0@1x.png")
        #expect(orphaned.paragraphs.contains("… and 5 more on the [report page](index.html)."))

        // 25 changes (one a case): 20 rows and a line for the other 5; 20 accept commands.
        var changed = RunRecord.sample(results: results)
        changed.changes = results.enumerated().map { i, r in
            Change(id: "c" + String(repeating: "\(i % 10)", count: 8), explanation: "change \(i)", kind: "drawing", cases: [r.id])
        }
        let many = Self.parse(SummaryMarkdown.render(changed))
        #expect(many.tables[1].header.first == "Change" && many.tables[1].rows.count == 20)
        #expect(many.paragraphs.contains("… and 5 more changes on the [report page](index.html)."))
        #expect(many.fenced.first?.lines.filter { $0.hasPrefix("popover-goldens accept --change ") }.count == 20)

        let passed = Self.parse(SummaryMarkdown.render(RunRecord.sample(results: [
            CaseResult.sample(.sample(skin: "gik-default", direction: .up, label: "a"), status: .passed, message: "identical"),
        ])))
        #expect(passed.headings == ["popover-goldens: passed (1 case)"])
        #expect(passed.tables.count == 1 && passed.fenced.isEmpty)
    }

    @Test("escaping: whatever the text, one cell, reading back as written (line breaks as spaces)", arguments: [
        "a|b", "a\\|b", "`x`", "*bold* _it_ [link](x) <b>tag</b> ~~s~~ &amp;", "line\nbreak",
        // A combining mark makes `|` and the mark one Character, yet the `|` ends a cell.
        "a|\u{301}b", "|\u{301}|\u{301}",
    ])
    func escaping(_ text: String) {
        let row = "| " + Escape.markdown(text) + " | end |"
        let cells = Self.cells(row)
        #expect(cells.count == 2)
        #expect(Self.unescape(cells[0]) == text.replacingOccurrences(of: "\n", with: " "))
    }

    @Test("a failing case's explanation with combining marks after `|` stays in its cell of the changes table")
    func combiningMarksInATable() {
        var run = RunRecord.sample(results: [
            CaseResult.sample(.sample(skin: "gik-default", direction: .up, label: "a"), status: .failed, message: "x",
                              metrics: Self.metrics(pixels: 1, delta: 1, psnr: 40)),
        ])
        run.changes = [Change(id: "c00000000", explanation: "moved |\u{301} up |\u{301} now", kind: "drawing", cases: [run.results[0].id])]
        let changes = Self.parse(SummaryMarkdown.render(run)).tables[1]
        #expect(changes.header == ["Change", "Cases", "What changed", "Accept"])
        #expect(changes.rows.map(\.count) == [4])
        #expect(Self.unescape(changes.rows[0][2]) == "moved |\u{301} up |\u{301} now")
    }
}
