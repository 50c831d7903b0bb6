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
        /// When it was accepted after the run (the served page's truth).
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
        var noImages: String?
    }

    struct ChangeData: Encodable {
        var id: String
        var explanation: String
        var kind: String
        /// Indices into `cases`, in the run's order.
        var members: [Int]
        /// The member shown in full: the one where the change is easiest to see (`visibility`).
        var representative: Int
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
                              representative: representative)
        }
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
            noImages: a.expected == nil && a.actual == nil && a.heatmap == nil ? CaseViewer.noImages(r) : nil)
    }

    /// The block's text: JSON with every `<` escaped.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Escape.scriptJSON(String(decoding: data, as: UTF8.self))
    }
}
