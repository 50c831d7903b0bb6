import Foundation
import PopoverHarness

/// What the page's script draws from: the cases needing attention and the run's changes,
/// as one JSON block in the page (`<script type="application/json" id="report-data">`).
///
/// The page creates elements only for the cases on or near the screen, so a run where
/// everything failed costs its data (a few hundred bytes a case), not tens of thousands
/// of elements parsed before the first paint. The block is read with `JSON.parse`, never
/// evaluated; every `<` in it is written `\u003c`, so no string in it can end the element.
struct ReportData: Encodable {
    /// What names this run for the browser's storage: decisions and filters saved under
    /// it come back on reload and never leak into another run's page.
    var run: RunIdentity
    var cases: [CaseData]
    var changes: [ChangeData]
    /// What the run advises (missing facts, orphans), each safe as printed.
    var commands: [Advice]
    /// Zoom steps, device pixels per image pixel; the viewer also has "fit".
    var zooms: [Double]
    /// The mark of each status, shown beside its colour.
    var glyphs: [String: String]

    struct RunIdentity: Encodable {
        var key: String
    }

    /// An image beside the page. Its `src` is left out when it is the case's `base`
    /// followed by `.<kind>.png` (`.thumbnail.png` for the thumbnail), as a report's own
    /// images are named: a run where everything failed would repeat each case's path four
    /// times.
    struct Image: Encodable {
        var src: String?
        var w: Int
        var h: Int
    }

    struct CaseData: Encodable {
        var id: String
        var status: String
        /// The status as the page says it.
        var word: String
        var skin: String
        var dir: String
        var scale: Int
        /// What the case's image files are named from (see `Image`).
        var base: String?
        var headline: String
        var message: String
        var explanation: String?
        var change: String?
        var golden: String
        /// Whether a reviewer may take the actual image as the golden.
        var acceptable: Bool
        /// What an approval names: the golden compared against ("none" without one) and
        /// the actual image the reviewer saw.
        var expectedDigest: String?
        var actualDigest: String?
        /// When it was accepted after the run, read from summary.json: such a case counts
        /// as decided and accepted on every page, served or opened from disk, and is never
        /// exported again.
        var accepted: String?
        var thumb: Image?
        var expected: Image?
        var actual: Image?
        var heatmap: Image?
        /// The changed pixels: x, y, width, height.
        var region: [Int]?
        /// Where the changed pixels lie, as regions the viewer steps through (x, y, width,
        /// height each; `CaseResult.changedRegions`); absent when there is one region or none.
        var regions: [[Int]]?
        var regionText: String?
        /// The comparison's numbers: name, value, and "bad" or "good" to mark it.
        var stats: [[String]]
        /// What the case draws: name, value.
        var facts: [[String]]
        /// Every fact that differs from the golden's, complete, for the expandable table:
        /// [name, expected, actual, "input" | "derived" | "case"]; expected or actual is
        /// "—" where only one side has it. Inputs are named by their skin field.
        var deltas: [[String]]
        var noImages: String?
    }

    /// One change, for the change index (the page's first screen: every change, in the
    /// order given, which is by `area` then cases) and its section. Everything in it is
    /// data from the run record (docs/run-record.md, "Each change").
    struct ChangeData: Encodable {
        var id: String
        /// The headline, leading with what a person sees.
        var explanation: String
        /// `input`, `geometry`, `drawing`, `unexplained`, `new` or `error`.
        var kind: String
        /// Indices into `cases`, in the run's order (failing and new members).
        var members: [Int]
        /// The member shown in full: the one where the change is easiest to see (`visibility`).
        var representative: Int
        /// The index's "skin" and "scope" cells: the skins, and directions · scales ·
        /// families in words (`left, right · 1x, 2x · sweep, scene`).
        var skin: String
        var scope: String
        /// The index's "how far" cell: the largest geometry move (`1 pt`, `0.383 pt`), or
        /// for a change with no geometry move the share of pixels (`2.1 % of pixels`).
        var moved: String
        /// What the index orders by: differing pixels over the members, in square
        /// points (the order of `changes` already follows it).
        var area: Double
        /// The command that accepts it whole, ready to copy (absent: cannot be accepted).
        var command: String?
        /// Each edited input: [skin, field, expected, actual].
        var edits: [[String]]
        /// The amounts the cause gave: [line, count, example case ID].
        var variants: [[String]]
        /// Every differing fact: [name, "input" or "derived" or "case", cases, least, most].
        var facts: [[String]]
        /// Indices into `cases` of members that had no golden.
        var newMembers: [Int]
        /// Goldens no case owns any more that the new members replace.
        var orphans: [String]
    }

    /// A command the run advises: the exact line, and what it does to disk in words
    /// (`writes the missing facts; no golden changes`). Shown only as text to copy.
    struct Advice: Encodable {
        var command: String
        var does: String
    }

    init(run: RunRecord, attention: [CaseResult]) {
        let started = ReportPage.dateText(run.started)
        self.run = RunIdentity(key: "\(started) \(run.goldensFolder) \(run.results.count) \(run.shard.map { "\($0.index)/\($0.count)" } ?? "")")
        cases = attention.map(Self.caseData)
        var index: [String: Int] = [:]
        for (i, r) in attention.enumerated() where index[r.id] == nil { index[r.id] = i }
        changes = run.changes.compactMap { change in
            let members = change.cases.compactMap { index[$0] }
            guard !members.isEmpty else { return nil }
            let representative = members.reduce(members[0]) { best, i in
                Self.visibility(attention[i]) > Self.visibility(attention[best]) ? i : best
            }
            return ChangeData(id: change.id, explanation: change.explanation, kind: change.kind, members: members,
                              representative: representative, skin: change.skins.joined(separator: ", "),
                              scope: Self.scope(change), moved: Self.moved(change), area: change.magnitude.area,
                              command: run.acceptCommand(change),
                              edits: change.edits.map { [$0.skin, $0.field, $0.expected, $0.actual] },
                              variants: change.variants.map { [$0.explanation, String($0.count), $0.example] },
                              facts: change.facts.map { f in
                                  [f.name, f.input ? "input" : FactNames.isCaseFact(f.fact) ? "case" : "derived", String(f.cases),
                                   f.least.map(Explanation.rounded) ?? "", f.most.map(Explanation.rounded) ?? ""]
                              },
                              newMembers: change.newCases.compactMap { index[$0] }, orphans: change.orphans)
        }
        commands = run.advice.map { Advice(command: $0.command, does: $0.does) }
        zooms = CaseViewer.zoomSteps
        glyphs = Dictionary(uniqueKeysWithValues: CaseStatus.allCases.map { ($0.rawValue, ReportPage.glyph($0)) })
    }

    /// How easy a case's change is to see in its image: the share of its pixels that
    /// differ. The largest image of a change is a poor choice: a thin change is the same
    /// few pixels in every member, and at fit the largest image shrinks them most.
    static func visibility(_ r: CaseResult) -> Double {
        guard let m = r.metrics, m.width * m.height > 0 else { return -1 }
        return Double(m.differentPixels) / Double(m.width * m.height)
    }

    static func caseData(_ r: CaseResult) -> CaseData {
        let a = r.artifacts
        let saved: [(kind: String, image: SavedImage)] = [("expected", a.expected), ("actual", a.actual),
                                                          ("heatmap", a.heatmap), ("thumbnail", a.thumbnail)]
            .compactMap { kind, image in image.map { (kind, $0) } }
        // The one prefix every image's path is named from, if there is one.
        let bases = Set(saved.map { item -> String? in
            let suffix = "." + item.kind + ".png"
            return item.image.path.hasSuffix(suffix) ? String(item.image.path.dropLast(suffix.count)) : nil
        })
        let base = bases.count == 1 ? bases.first! : nil
        func image(_ saved: SavedImage?) -> Image? {
            saved.map { Image(src: base == nil ? Escape.relativeURL($0.path) : nil, w: $0.width, h: $0.height) }
        }
        let acceptable = CaseFacts.isAcceptable(r)
        return CaseData(
            id: r.id, status: r.status.rawValue, word: ReportPage.word(r.status), skin: r.info.skin,
            dir: r.info.direction.rawValue, scale: r.info.scale, base: base.map(Escape.relativeURL),
            headline: CaseFacts.headline(r), message: r.message,
            explanation: r.explanation, change: r.change, golden: r.goldenPath, acceptable: acceptable,
            expectedDigest: acceptable ? (r.goldenDigest ?? "none") : nil,
            actualDigest: acceptable ? a.actual?.digest : nil,
            accepted: r.accepted?.at,
            thumb: image(a.thumbnail), expected: image(a.expected), actual: image(a.actual), heatmap: image(a.heatmap),
            region: r.changedRegion.map { [$0.x, $0.y, $0.width, $0.height] },
            regions: r.changedRegions.count > 1 ? r.changedRegions.map { [$0.x, $0.y, $0.width, $0.height] } : nil,
            regionText: r.changedRegion.map(CaseViewer.regionText),
            stats: r.status == .new || r.status == .missing ? [] : CaseFacts.stats(r),
            facts: CaseFacts.drawn(r),
            deltas: r.cause.map(Explanation.table) ?? [],
            noImages: a.expected == nil && a.actual == nil && a.heatmap == nil ? CaseViewer.noImages(r) : nil)
    }

    /// `left, right · 1x, 2x · sweep, scene`.
    static func scope(_ change: Change) -> String {
        [change.directions.joined(separator: ", "), change.scales.map { "\($0)x" }.joined(separator: ", "),
         change.families.joined(separator: ", ")].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// The largest geometry move, or without one the share of pixels that changed.
    static func moved(_ change: Change) -> String {
        if change.magnitude.points > 0 { return Explanation.rounded(change.magnitude.points) + " pt" }
        if change.magnitude.pixels > 0 { return "\(change.magnitude.pixels) px" }
        return ""
    }

    /// The block's text: JSON with every `<` escaped.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Escape.scriptJSON(String(decoding: data, as: UTF8.self))
    }
}
