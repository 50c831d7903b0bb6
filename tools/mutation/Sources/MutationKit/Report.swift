import Foundation

/// Counts and the score of a group of mutants (all, a module, a file).
public struct Tally: Sendable, Codable, Hashable {
    public var name: String
    public var mutants = 0
    public var killed = 0
    public var survived = 0
    public var equivalent = 0
    public var crashed = 0
    public var timedOut = 0
    public var notBuilt = 0
    public var notRun = 0
    public var notOnDrawingPath = 0

    public init(name: String) { self.name = name }

    mutating func add(_ status: MutantStatus) {
        mutants += 1
        switch status {
        case .killed: killed += 1
        case .survived: survived += 1
        case .equivalent: equivalent += 1
        case .crashed: crashed += 1
        case .timedOut: timedOut += 1
        case .notBuilt: notBuilt += 1
        case .notRun: notRun += 1
        case .notOnDrawingPath: notOnDrawingPath += 1
        }
    }

    /// Mutants the score is out of: run, built, on the drawing path, and not shown equivalent.
    public var scored: Int { mutants - notBuilt - notRun - equivalent - notOnDrawingPath }
    /// Whether the run judged (or tried to build) any of these mutants: a run of part of the
    /// code leaves every other file's "not run".
    var inRun: Bool { notRun < mutants }
    /// Detected (killed, crashed or timed out) over `scored`; nil when nothing is scored.
    public var score: Double? { scored > 0 ? Double(killed + crashed + timedOut) / Double(scored) : nil }
    /// Killed by a golden alone over `scored`.
    public var goldenScore: Double? { scored > 0 ? Double(killed) / Double(scored) : nil }

    enum CodingKeys: String, CodingKey {
        case name, mutants, killed, survived, equivalent, crashed, timedOut, notBuilt, notRun, notOnDrawingPath, scored, score
        case goldenScore
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        mutants = try c.decode(Int.self, forKey: .mutants)
        killed = try c.decode(Int.self, forKey: .killed)
        survived = try c.decode(Int.self, forKey: .survived)
        equivalent = try c.decode(Int.self, forKey: .equivalent)
        crashed = try c.decode(Int.self, forKey: .crashed)
        timedOut = try c.decode(Int.self, forKey: .timedOut)
        notBuilt = try c.decode(Int.self, forKey: .notBuilt)
        notRun = try c.decode(Int.self, forKey: .notRun)
        notOnDrawingPath = try c.decodeIfPresent(Int.self, forKey: .notOnDrawingPath) ?? 0
    }

    /// The counts, and the score with what it is out of, for a reader of the JSON.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(mutants, forKey: .mutants)
        try c.encode(killed, forKey: .killed)
        try c.encode(survived, forKey: .survived)
        try c.encode(equivalent, forKey: .equivalent)
        try c.encode(crashed, forKey: .crashed)
        try c.encode(timedOut, forKey: .timedOut)
        try c.encode(notBuilt, forKey: .notBuilt)
        try c.encode(notRun, forKey: .notRun)
        try c.encode(notOnDrawingPath, forKey: .notOnDrawingPath)
        try c.encode(scored, forKey: .scored)
        try c.encodeIfPresent(score, forKey: .score)
        try c.encodeIfPresent(goldenScore, forKey: .goldenScore)
    }
}

/// Everything a run found: written as sensitivity.json, shown as sensitivity.html and on
/// the terminal.
public struct SensitivityReport: Sendable, Codable {
    public var date: String
    public var commit: String
    public var machine: String
    /// What was asked (all, a file, a line, a sample) and with which budgets.
    public var scope: String
    public var options: [String: String]
    public var timings: [String: Double]
    public var total: Tally
    public var modules: [Tally]
    public var files: [Tally]
    /// Survivors first, then by file and line.
    public var mutants: [MutantResult]
    public var notMutated: [UnmutatedPlace]
    /// Whether a tolerance pass ran, and on which policy.
    public var tolerancePolicy: String?
    /// Killed mutants the tolerance policy lets through.
    public var letThroughByTolerances: [Int]

    public init(results: [MutantResult], notMutated: [UnmutatedPlace], date: String, commit: String, machine: String,
                scope: String, options: [String: String], timings: [String: Double], tolerancePolicy: String?) {
        self.date = date
        self.commit = commit
        self.machine = machine
        self.scope = scope
        self.options = options
        self.timings = timings
        self.tolerancePolicy = tolerancePolicy
        self.notMutated = notMutated
        var total = Tally(name: "all")
        var modules: [String: Tally] = [:], files: [String: Tally] = [:]
        for r in results {
            total.add(r.status)
            modules[r.mutant.module, default: Tally(name: r.mutant.module)].add(r.status)
            files[r.mutant.file, default: Tally(name: r.mutant.file)].add(r.status)
        }
        self.total = total
        self.modules = modules.values.sorted { $0.name < $1.name }
        self.files = files.values.sorted { $0.name < $1.name }
        self.mutants = results.sorted { a, b in
            (Self.rank(a.status), a.mutant.file, a.mutant.line, a.mutant.id) < (Self.rank(b.status), b.mutant.file, b.mutant.line, b.mutant.id)
        }
        letThroughByTolerances = results.filter { $0.passesUnderTolerances == true }.map(\.mutant.id).sorted()
    }

    /// Survivors lead: what the suite lets through is what a reader came for.
    static func rank(_ s: MutantStatus) -> Int {
        switch s {
        case .survived: 0
        case .equivalent: 1
        case .timedOut: 2
        case .crashed: 3
        case .killed: 4
        case .notOnDrawingPath: 5
        case .notBuilt: 6
        case .notRun: 7
        }
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    static func percent(_ v: Double?) -> String {
        v.map { String(format: "%.1f %%", $0 * 100) } ?? "–"
    }

    /// How a status reads for a mutant, with its cases or its classification.
    static func statusText(_ r: MutantResult) -> String {
        switch r.status {
        case .killed:
            let names = r.killedBy.joined(separator: ", ")
            let counted = r.killsCounted ? "killed by \(r.killedBy.count)" : "killed by ≥\(r.killedBy.count) (counting stopped)"
            return "\(counted) of \(r.selected): \(names)"
        case .survived:
            return "survived the \(r.selected) case\(r.selected == 1 ? "" : "s") it infects (of \(r.reaching) that run its code)"
                + (r.classification.map { ": " + $0.reason } ?? "")
        case .notOnDrawingPath:
            return r.classification?.reason ?? "not on the drawing path"
        case .equivalent:
            return "equivalent for these skins" + (r.classification.map { ": " + $0.reason } ?? "")
        case .crashed:
            return "crashed (\(r.detail ?? "?"))" + (r.lastCase.map { " drawing \($0)" } ?? "")
        case .timedOut:
            return "timed out (\(r.detail ?? "?"))" + (r.lastCase.map { " drawing \($0)" } ?? "")
        case .notBuilt:
            return "not built: \(r.detail ?? "")"
        case .notRun:
            return "not run"
        }
    }

    // MARK: Terminal

    /// What the terminal shows: survivors first, then the score.
    public func terminal(limit: Int = 40) -> String {
        var out = ""
        let survivors = mutants.filter { $0.status == .survived }
        if !survivors.isEmpty {
            out += "Survivors (\(survivors.count)), by file and line:\n"
            for r in survivors.prefix(limit) {
                out += "  \(Escape.terminal(r.mutant.file)):\(r.mutant.line)  [\(r.mutant.mutationOperator.rawValue)] #\(r.mutant.id)\n"
                out += "    - \(Escape.terminal(r.mutant.originalLine.trimmingCharacters(in: .whitespaces)))\n"
                out += "    + \(Escape.terminal(r.mutant.mutatedLine.trimmingCharacters(in: .whitespaces)))\n"
                out += "    \(Escape.terminal(Self.statusText(r)))\n"
            }
            if survivors.count > limit { out += "  … and \(survivors.count - limit) more in sensitivity.html\n" }
        }
        let equivalent = mutants.filter { $0.status == .equivalent }.count
        let t = total
        out += "\nScore: \(Self.percent(t.score)) detected (\(t.killed) killed by goldens, \(t.crashed) crashed, "
            + "\(t.timedOut) timed out, of \(t.scored) scored); killed by goldens alone: \(Self.percent(t.goldenScore))\n"
        out += "\(t.mutants) mutants: \(t.survived) survived, \(equivalent) equivalent for these skins, "
            + "\(t.notOnDrawingPath) not on the drawing path, \(t.notBuilt) not built"
            + (t.notRun > 0 ? ", \(t.notRun) not run" : "") + "\n"
        for m in modules where m.inRun { out += "  \(Escape.terminal(m.name)): \(Self.percent(m.score)) of \(m.scored)\n" }
        if let policy = tolerancePolicy {
            out += "Tolerances (\(Escape.terminal(policy))): "
                + (letThroughByTolerances.isEmpty ? "let no killed mutant through\n"
                    : "let \(letThroughByTolerances.count) killed mutant(s) through: \(letThroughByTolerances.map { "#\($0)" }.joined(separator: ", "))\n")
        }
        return out
    }

    // MARK: Page

    public func html() -> String {
        let h = Escape.html
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sensitivity of the golden suite</title>
            <style>\(Self.css)</style></head><body>
            <header><h1>Sensitivity of the golden suite</h1>
            <p class="meta">\(h(date)) · commit \(h(commit)) · \(h(machine)) · \(h(scope))</p></header>
            <main>
            """
        let t = total
        out += "<section class=\"summary\"><p class=\"score\">\(h(Self.percent(t.score))) <span>of \(t.scored) mutants detected"
            + "</span></p><p>\(t.killed) killed by a golden, \(t.crashed) crashed, \(t.timedOut) timed out, \(t.survived) survived; "
            + "\(t.equivalent) equivalent for these skins, \(t.notOnDrawingPath) not on the drawing path (code no drawing runs; "
            + "held by unit tests) and \(t.notBuilt) not built are outside the score. Killed by goldens "
            + "alone: \(h(Self.percent(t.goldenScore))).</p>"
        if let policy = tolerancePolicy {
            out += "<p>Tolerances (\(h(policy))): " + (letThroughByTolerances.isEmpty ? "let no killed mutant through."
                : "let \(letThroughByTolerances.count) killed mutant(s) through: "
                    + letThroughByTolerances.map { "<a href=\"#m\($0)\">#\($0)</a>" }.joined(separator: ", ") + ".") + "</p>"
        }
        out += "</section>"

        func mutantRows(_ list: [MutantResult]) -> String {
            var rows = ""
            var lastPlace = ""
            for r in list {
                let place = "\(r.mutant.file):\(r.mutant.line)"
                if place != lastPlace {
                    rows += "<tr class=\"place\"><th colspan=\"4\">\(h(place))</th></tr>"
                    lastPlace = place
                }
                rows += "<tr id=\"m\(r.mutant.id)\" class=\"\(h(r.status.rawValue.replacingOccurrences(of: " ", with: "-")))\">"
                    + "<td>#\(r.mutant.id)<br><span class=\"op\">\(h(r.mutant.mutationOperator.rawValue))</span></td>"
                    + "<td><code class=\"old\">\(h(r.mutant.originalLine.trimmingCharacters(in: .whitespaces)))</code></td>"
                    + "<td><code class=\"new\">\(h(r.mutant.mutatedLine.trimmingCharacters(in: .whitespaces)))</code></td>"
                    + "<td>\(h(Self.statusText(r)))"
                    + (r.passesUnderTolerances == true ? " <strong>(the tolerances let it through)</strong>" : "") + "</td></tr>"
            }
            return rows
        }
        let header = "<tr><th>mutant</th><th>original</th><th>mutated</th><th>status</th></tr>"
        let survivors = mutants.filter { $0.status == .survived }
        out += "<section><h2>Survivors (\(survivors.count))</h2>"
        out += survivors.isEmpty ? "<p>None: every mutant run was detected or shown equivalent.</p>"
            : "<table>\(header)\(mutantRows(survivors))</table>"
        out += "</section>"

        func tallyTable(_ title: String, _ rows: [Tally]) -> String {
            var s = "<section><h2>\(h(title))</h2><table class=\"tally\"><tr><th></th><th>score</th><th>mutants</th><th>killed</th>"
                + "<th>survived</th><th>equivalent</th><th>crashed</th><th>timed out</th><th>not drawing</th><th>not built</th></tr>"
            for t in rows {
                s += "<tr><td>\(h(t.name))</td><td>\(h(Self.percent(t.score)))</td><td>\(t.mutants)</td><td>\(t.killed)</td>"
                    + "<td>\(t.survived)</td><td>\(t.equivalent)</td><td>\(t.crashed)</td><td>\(t.timedOut)</td>"
                    + "<td>\(t.notOnDrawingPath)</td><td>\(t.notBuilt)</td></tr>"
            }
            return s + "</table></section>"
        }
        // Files (and modules) nothing of which this run judged are left out of the tables.
        out += tallyTable("By module", modules.filter(\.inRun))
        out += tallyTable("By file", files.filter(\.inRun))
        let outside = files.filter { !$0.inRun }
        if !outside.isEmpty {
            let count = outside.reduce(0) { $0 + $1.mutants }
            out += "<p>\(outside.count) other file\(outside.count == 1 ? " of the mutated modules was" : "s of the mutated modules were") "
                + "not in this run (\(count) mutant\(count == 1 ? "" : "s") not run).</p>"
        }
        for status in [MutantStatus.equivalent, .notOnDrawingPath, .timedOut, .crashed, .killed, .notBuilt] {
            let list = mutants.filter { $0.status == status }
            guard !list.isEmpty else { continue }
            out += "<section><details><summary><h2>\(h(status.rawValue.capitalized)) (\(list.count))</h2></summary>"
                + "<table>\(header)\(mutantRows(list))</table></details></section>"
        }
        if !notMutated.isEmpty {
            out += "<section><details><summary><h2>Not mutated (\(notMutated.reduce(0) { $0 + $1.points }) points)</h2></summary>"
                + "<table><tr><th>place</th><th>code</th><th>why</th></tr>"
            for u in notMutated {
                out += "<tr><td>\(h(u.file)):\(u.line)</td><td><code>\(h(u.text.trimmingCharacters(in: .whitespaces)))</code></td>"
                    + "<td>\(h(u.reason))</td></tr>"
            }
            out += "</table></details></section>"
        }
        let timing = timings.sorted { $0.key < $1.key }.map { "\(h($0.key)) \(String(format: "%.1f", $0.value)) s" }
        out += "<footer><p>Times: \(timing.joined(separator: " · ")). Options: "
            + options.sorted { $0.key < $1.key }.map { "\(h($0.key)) \(h($0.value))" }.joined(separator: " · ")
            + ". How to read this page: docs/sensitivity.md.</p></footer></main></body></html>\n"
        return out
    }

    static let css = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
        header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}h1{font-size:20px;margin:0}
        .meta{color:#555;margin:4px 0 0}main{padding:8px 24px 32px}h2{font-size:16px;margin:20px 0 8px;display:inline-block}
        .score{font-size:28px;font-weight:600;margin:8px 0}.score span{font-size:14px;font-weight:400;color:#555}
        table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #e2e2e2;padding:4px 6px;text-align:left;vertical-align:top}
        tr.place th{background:#f0f0f3;font-family:ui-monospace,monospace;font-weight:600}
        code{font-family:ui-monospace,"SF Mono",Menlo,monospace;white-space:pre-wrap;word-break:break-word}
        code.old{color:#8a1c1c}code.new{color:#1c6b2a}.op{color:#666;font-size:12px}
        tr.survived td:last-child{background:#fff3e0}tr.equivalent td:last-child{color:#555}
        .tally td:nth-child(n+2){text-align:right}summary{cursor:pointer}footer{color:#555;margin-top:24px}
        """
}

/// Escapers: source text and file names reach a page or a terminal only through these.
public enum Escape {
    public static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// Control characters (escape sequences above all) shown as `\u{..}`, never sent.
    public static func terminal(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            if ch.value < 0x20 && ch != "\t" || ch.value == 0x7f || (0x80...0x9f).contains(ch.value)
                || (0x202a...0x202e).contains(ch.value) || (0x2066...0x2069).contains(ch.value) {
                out += "\\u{\(String(ch.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
