import Foundation
import PopoverGeometry
import PopoverHarness

/// One skin's cases laid out as a matrix, so the shape of a regression shows at a glance:
/// a whole row red is one direction at one scale, a whole column one anchor or offset.
///
/// Rows are arrow directions (up, down, left, right) at each scale. Columns come in
/// groups: the scenes (anchor x orientation), one group per sweep size (its offsets,
/// in order along the edge), the keyboard keyframes (time x orientation) and the
/// boundaries (one column per boundary, in the catalog's order).
public struct OverviewMatrix: Sendable {
    public struct Row: Sendable, Hashable, Comparable {
        public var direction: ArrowDirection
        public var scale: Int

        public init(direction: ArrowDirection, scale: Int) {
            self.direction = direction
            self.scale = scale
        }

        public static func < (a: Row, b: Row) -> Bool {
            let order = ArrowDirection.allCases
            let ia = order.firstIndex(of: a.direction) ?? 0, ib = order.firstIndex(of: b.direction) ?? 0
            return ia != ib ? ia < ib : a.scale < b.scale
        }
    }

    public struct Column: Sendable, Hashable {
        /// The upper heading (anchor, offset or keyframe time); neighbouring columns with
        /// the same one share a heading cell.
        public var heading: String
        /// The lower heading (the orientation), empty for sweeps.
        public var subheading: String
    }

    public struct Group: Sendable {
        public var title: String
        /// What the title does not say, for its tooltip.
        public var note: String
        public var columns: [Column]
    }

    public var skin: String
    public var rows: [Row]
    public var groups: [Group]
    /// Indices into the run's results, by row and by column (group index, column index).
    public var cells: [Row: [ColumnIndex: Int]]

    public struct ColumnIndex: Sendable, Hashable {
        public var group: Int
        public var column: Int
    }

    public var caseCount: Int { cells.values.reduce(0) { $0 + $1.count } }

    /// The matrices of a run's results, one per skin, skins in the run's order.
    public static func build(_ results: [CaseResult]) -> [OverviewMatrix] {
        var skins: [String] = []
        var bySkin: [String: [Int]] = [:]
        for (i, r) in results.enumerated() {
            if bySkin[r.info.skin] == nil { skins.append(r.info.skin) }
            bySkin[r.info.skin, default: []].append(i)
        }
        return skins.map { build(skin: $0, indices: bySkin[$0] ?? [], results: results) }
    }

    /// Where a case goes: its group (by key, titled) and its column's sort key.
    private struct Placement {
        var groupKey: String
        var groupTitle: String
        var groupNote: String
        var groupRank: Int
        var sortKey: [Double]
        var sortText: String
        var column: Column
    }

    private static func placement(of c: CaseInfo, anchorRank: [String: Int], boundaryRank: [String: Int]) -> Placement {
        let orientation = c.orientation?.rawValue ?? ""
        let orientationRank = Double(c.orientation.flatMap { Orientation.allCases.firstIndex(of: $0) } ?? 0)
        switch c.family {
        case .scene where c.anchor != nil:
            let anchor = c.anchor!
            return Placement(groupKey: "scene", groupTitle: "scenes", groupNote: "anchors of the sample app, portrait and landscape",
                             groupRank: 0, sortKey: [Double(anchorRank[anchor] ?? 0), orientationRank], sortText: "",
                             column: Column(heading: anchor, subheading: orientation))
        case .sweep where c.sweepSize != nil:
            let size = normalizedSweepSize(c.sweepSize!, direction: c.direction)
            return Placement(groupKey: "sweep " + size.name, groupTitle: "sweep " + size.name, groupNote: size.note,
                             groupRank: 1, sortKey: [c.offset], sortText: "",
                             column: Column(heading: IDNumber.signed(c.offset), subheading: ""))
        case .keyboard where c.keyboardTime != nil:
            let time = c.keyboardTime!
            let anchor = c.anchor.map { " " + $0 } ?? ""
            return Placement(groupKey: "keyboard" + anchor, groupTitle: "keyboard" + anchor,
                             groupNote: "keyframes of the popover shrinking above the keyboard, ms into the animation",
                             groupRank: 2, sortKey: [time, orientationRank], sortText: "",
                             column: Column(heading: IDNumber.plain(time * 1000) + "ms", subheading: orientation))
        case .boundary where c.boundary != nil:
            let boundary = c.boundary!
            return Placement(groupKey: "boundary", groupTitle: "boundaries",
                             groupNote: "popovers exactly where a decision of the model turns: minimum bounds, image-choice "
                                 + "thresholds, the stage length's rounding, caps and placements that exactly fit",
                             groupRank: 3, sortKey: [Double(boundaryRank[boundary] ?? 0)], sortText: "",
                             column: Column(heading: boundary, subheading: ""))
        default:
            return Placement(groupKey: "other " + c.family.rawValue, groupTitle: c.family.rawValue, groupNote: "",
                             groupRank: 4, sortKey: [], sortText: c.label,
                             column: Column(heading: c.label, subheading: ""))
        }
    }

    /// Sweep sizes name the popover as drawn: "120x104" pointing up or down is "104x120"
    /// pointing left or right. One group covers both, named for up and down.
    static func normalizedSweepSize(_ size: String, direction: ArrowDirection) -> (name: String, note: String) {
        let parts = size.split(separator: "x")
        guard !direction.isVertical, parts.count == 2 else {
            return (size, "the arrow offset walked along the edge, in points from its middle")
        }
        let upright = "\(parts[1])x\(parts[0])"
        return (upright, "the arrow offset walked along the edge, in points from its middle; "
                + "\(upright) for up and down, \(size) for left and right")
    }

    private static func build(skin: String, indices: [Int], results: [CaseResult]) -> OverviewMatrix {
        // Anchors by name, numbers compared as numbers (popover2 before popover10): a
        // person looks for "popover8", not for its place in the sample app's list.
        let anchors = Set(indices.compactMap { results[$0].info.anchor })
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
        let anchorRank = Dictionary(uniqueKeysWithValues: anchors.enumerated().map { ($1, $0) })
        // Boundaries in the order the run lists them, which is the catalog's.
        var boundaryRank: [String: Int] = [:]
        for i in indices {
            if let boundary = results[i].info.boundary, boundaryRank[boundary] == nil { boundaryRank[boundary] = boundaryRank.count }
        }
        struct GroupDraft {
            var title: String, note: String, rank: Int, order: Int
            var columns: [Column: (sortKey: [Double], sortText: String)] = [:]
        }
        var drafts: [String: GroupDraft] = [:]
        var placed: [(index: Int, row: Row, group: String, column: Column)] = []
        for i in indices {
            let c = results[i].info
            let p = placement(of: c, anchorRank: anchorRank, boundaryRank: boundaryRank)
            if drafts[p.groupKey] == nil {
                drafts[p.groupKey] = GroupDraft(title: p.groupTitle, note: p.groupNote, rank: p.groupRank, order: drafts.count)
            }
            drafts[p.groupKey]!.columns[p.column] = (p.sortKey, p.sortText)
            placed.append((i, Row(direction: c.direction, scale: c.scale), p.groupKey, p.column))
        }
        let groupKeys = drafts.keys.sorted {
            let a = drafts[$0]!, b = drafts[$1]!
            return a.rank != b.rank ? a.rank < b.rank : a.order < b.order
        }
        var groups: [Group] = []
        var columnIndex: [String: [Column: Int]] = [:]
        for key in groupKeys {
            let draft = drafts[key]!
            let columns = draft.columns.keys.sorted {
                let a = draft.columns[$0]!, b = draft.columns[$1]!
                if a.sortKey != b.sortKey { return a.sortKey.lexicographicallyPrecedes(b.sortKey) }
                return a.sortText != b.sortText ? a.sortText < b.sortText : $0.heading < $1.heading
            }
            columnIndex[key] = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
            groups.append(Group(title: draft.title, note: draft.note, columns: columns))
        }
        let groupIndex = Dictionary(uniqueKeysWithValues: groupKeys.enumerated().map { ($1, $0) })
        var cells: [Row: [ColumnIndex: Int]] = [:]
        for p in placed {
            let at = ColumnIndex(group: groupIndex[p.group]!, column: columnIndex[p.group]![p.column]!)
            cells[p.row, default: [:]][at] = p.index
        }
        return OverviewMatrix(skin: skin, rows: cells.keys.sorted(), groups: groups, cells: cells)
    }
}

// MARK: - HTML

extension OverviewMatrix {
    /// The skin's block: a one-line summary and the matrix.
    func html(results: [CaseResult], runNeedsAttention: Bool) -> HTMLNode {
        let statuses = cells.values.flatMap { $0.values }.map { results[$0].status }
        let attention = statuses.filter { $0 != .passed }.count
        var tally: [HTMLNode] = []
        for status in ReportPage.statusOrder {
            let n = statuses.filter { $0 == status }.count
            if n > 0 { tally.append(.textElement("span", "badge s-\(status.rawValue)", "\(n) \(ReportPage.word(status))")) }
        }
        return .tag("details", [
            .cls("skin"), .attr("data-skin", skin), .attr("data-skin-block", skin),
            // Open where something needs attention; in a clean run, all of them.
            .flag("open", attention > 0 || !runNeedsAttention),
            .tag("summary",
                 .textElement("span", "skin-name", skin),
                 .textElement("span", "muted", "\(statuses.count) cases"),
                 .group(tally)),
            .tag("div", .cls("matrix-scroll"), table(results: results)),
        ])
    }

    private func table(results: [CaseResult]) -> HTMLNode {
        // Header row 1: groups; row 2: anchors / offsets / times, merged across their
        // orientations; row 3: orientations.
        // The corner heads nothing: a plain cell, not an empty heading.
        var groupCells: [HTMLNode] = [.tag("td", .attr("colspan", "2"), .attr("rowspan", "3"), .cls("corner"))]
        var headingCells: [HTMLNode] = []
        var subCells: [HTMLNode] = []
        for group in groups {
            groupCells.append(.tag("th", .cls("g gs"), .attr("colspan", "\(group.columns.count)"),
                                   .attr("title", group.note.isEmpty ? group.title : "\(group.title): \(group.note)"),
                                   .text(group.title)))
            var i = 0
            while i < group.columns.count {
                var span = 1
                while i + span < group.columns.count, group.columns[i + span].heading == group.columns[i].heading { span += 1 }
                let first = i == 0 ? "v gs" : "v"
                headingCells.append(.tag("th", .cls(first), span > 1 ? .attr("colspan", "\(span)") : .empty,
                                         .attr("title", group.columns[i].heading),
                                         .tag("span", .text(group.columns[i].heading))))
                i += span
            }
            for (j, column) in group.columns.enumerated() {
                let short = column.subheading.first.map { String($0) } ?? ""
                // A column without orientation has no subheading: a plain cell there too.
                subCells.append(.tag(column.subheading.isEmpty ? "td" : "th", .cls(j == 0 ? "o gs" : "o"),
                                     column.subheading.isEmpty ? .empty : .attr("title", column.subheading),
                                     .text(short)))
            }
        }
        var bodyRows: [HTMLNode] = []
        var placedFirst = false
        for (r, row) in rows.enumerated() {
            var cellsHTML: [HTMLNode] = []
            let firstOfDirection = r == 0 || rows[r - 1].direction != row.direction
            if firstOfDirection {
                let span = rows.filter { $0.direction == row.direction }.count
                cellsHTML.append(.tag("th", .cls("dir"), .attr("rowspan", "\(span)"), .text(row.direction.rawValue)))
            }
            cellsHTML.append(.tag("th", .cls("sc"), .text("@\(row.scale)x")))
            let rowCells = cells[row] ?? [:]
            for (g, group) in groups.enumerated() {
                for c in group.columns.indices {
                    let edge = c == 0 ? "gs" : ""
                    guard let index = rowCells[ColumnIndex(group: g, column: c)] else {
                        cellsHTML.append(edge.isEmpty ? .tag("td") : .tag("td", .cls(edge)))
                        continue
                    }
                    var cell = Self.cell(results[index], first: !placedFirst)
                    placedFirst = true
                    if !edge.isEmpty { cell[0] = .cls("c s-\(results[index].status.rawValue) \(edge)"
                                                      + (results[index].accepted == nil ? "" : " accepted")) }
                    cellsHTML.append(.tag("td", cell))
                }
            }
            bodyRows.append(.tag("tr", [
                firstOfDirection && r > 0 ? .cls("first") : .empty,
                .attr("data-dir", row.direction.rawValue), .attr("data-scale", "\(row.scale)"),
            ] + cellsHTML))
        }
        return .tag("table", .cls("matrix"), .attr("role", "grid"), .attr("aria-label", "cases of \(skin) by direction, scale and column"),
                    .tag("thead", .tag("tr", groupCells), .tag("tr", headingCells), .tag("tr", subCells)),
                    .tag("tbody", bodyRows))
    }

    /// A coloured cell with a mark for its status; its title is the case's ID and
    /// status. The matrix is one stop for the Tab key: the arrow keys move between
    /// cells, Enter opens the case, and the card (thumbnail and headline) shows on hover
    /// and on focus, drawn by the script.
    static func cell(_ r: CaseResult, first: Bool) -> [HTMLNode] {
        [.cls("c s-\(r.status.rawValue)" + (r.accepted == nil ? "" : " accepted")),
         .attr("data-case", r.id), .attr("title", r.id + " — " + ReportPage.word(r.status)),
         first ? .attr("tabindex", "0") : .empty,
         r.status == .passed ? .empty : .text(ReportPage.glyph(r.status))]
    }

    /// The overview section: a key to the colours and one matrix per skin.
    static func section(_ run: RunRecord) -> HTMLNode {
        let matrices = build(run.results)
        let key: [HTMLNode] = ReportPage.statusOrder.map { status in
            .tag("span", .cls("key-item"), .tag("span", .cls("c s-\(status.rawValue)")), .text(ReportPage.word(status)))
        }
        let needsAttention = run.results.contains { $0.status != .passed }
        return .tag("section", .attr("id", "overview"),
                    .textElement("h2", "", "Overview"),
                    .tag("p", .cls("hint"),
                         .text("One cell per case, coloured by status. Rows: arrow direction at each scale. "
                              + "Columns: anchor × orientation (p, l) for scenes, arrow offset for sweeps, keyframe for the keyboard, "
                              + "the boundary for boundaries. "
                              + "Hover or focus a cell for its ID; click it, or press Enter, for the case. Arrow keys move between cells."),
                         .tag("span", [.cls("status-key")] + key)),
                    matrices.isEmpty ? .textElement("p", "muted", "No cases ran.")
                        : .group(matrices.map { $0.html(results: run.results, runNeedsAttention: needsAttention) }))
    }
}
