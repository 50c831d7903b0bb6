import Foundation
import Plot
import PopoverGeometry

/// `index.html`: the page a person opens after a red run.
///
/// One self-contained file (CSS and JS inline, images as relative links beside it), so
/// it works opened from disk and from a CI artifact holding only the Reports folder.
/// From the top:
///
/// - the verdict and the run: time, tolerance, record mode, goldens folder, filter;
/// - counts by status (each a filter), run-level errors, orphaned goldens;
/// - the overview: per skin, a matrix of cells coloured by status (rows: direction x
///   scale; columns: anchor x orientation, sweep offsets, keyboard keyframes), each
///   linking to its case;
/// - the cases that need attention, failures first: expected, actual and heatmap in
///   four views (side by side, slider, blink, overlay) with a 1x-8x pixel-exact zoom,
///   their metrics and what they draw;
/// - passing cases as a compact list, so 2000 of them cost a few hundred kilobytes of
///   text and no images.
///
/// A sticky bar filters everything by status, skin, direction, scale and ID.
public enum HTMLReport {
    /// Statuses in the order the page lists them: what breaks the check first.
    static let statusOrder: [CaseStatus] = [.failed, .error, .missing, .recorded, .new, .passed]

    /// How many case sections start open; past that they start folded to one line each,
    /// so a run where everything broke still opens quickly.
    static let openSections = 40

    /// The page for `run`. `images` gives thumbnails and image sizes when the report
    /// writer made them; without it the page still links every image the run saved.
    public static func render(_ run: CheckRun, images: ReportImages = ReportImages()) -> String {
        let attention = attentionOrder(run.results)
        let passed = run.results.filter { $0.status == .passed }
        let page = HTML(
            .attribute(named: "lang", value: "en"),
            .head(
                .meta(.charset(.utf8)),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .element(named: "title", nodes: [.raw(HTMLEscape.text(title(run)))]),
                .style(ReportStyle.css)
            ),
            .body(
                .cls("nojs"),
                header(run),
                filterBar(run),
                .tag("main",
                     summary(run),
                     overview(run, images: images),
                     cases(attention, images: images),
                     passedList(passed, run: run)),
                footer(),
                .element(named: "script", nodes: [.raw(ReportScript.js)])
            )
        )
        return page.render() + "\n"
    }

    /// Cases that need attention (everything but passed), failures first, catalog order
    /// within a status.
    static func attentionOrder(_ results: [CaseResult]) -> [CaseResult] {
        let rank = Dictionary(uniqueKeysWithValues: statusOrder.enumerated().map { ($1, $0) })
        return results.enumerated()
            .filter { $0.element.status != .passed }
            .sorted { (rank[$0.element.status]!, $0.offset) < (rank[$1.element.status]!, $1.offset) }
            .map(\.element)
    }

    /// A status as the page says it.
    static func word(_ status: CaseStatus) -> String {
        status == .recorded ? "re-recorded" : status.rawValue
    }

    static func title(_ run: CheckRun) -> String {
        let failing = run.results.filter { $0.status.isFailure }.count
        let verdict = run.exitCode == 0 ? "passed" : failing > 0 ? "\(failing) failing" : "errors"
        return "Goldens \(verdict) · popover-goldens report"
    }

    // MARK: Header

    private static func header(_ run: CheckRun) -> HTMLNode {
        let total = run.results.count
        let verdict: String
        var detail: [String] = []
        for status in statusOrder where status != .passed && run.count(status) > 0 {
            detail.append("\(run.count(status)) \(word(status))")
        }
        if !run.errors.isEmpty { detail.append("\(run.errors.count) run error\(run.errors.count == 1 ? "" : "s")") }
        switch run.exitCode {
        case 0:
            let written = run.count(.new) + run.count(.recorded)
            verdict = total == 0 ? "No cases checked"
                : written > 0 ? "\(written) golden\(written == 1 ? "" : "s") recorded, nothing failed"
                : "All \(total) cases passed"
        case 1: verdict = "Check failed"
        default: verdict = "Check failed with errors"
        }
        let line = detail.isEmpty
            ? "\(run.count(.passed)) of \(total) cases match their goldens"
            : detail.joined(separator: " · ") + " — of \(total) cases"
        let tone = run.exitCode == 0 ? "ok" : "bad"
        func item(_ name: String, _ value: String, mono: Bool = false, hint: String = "") -> HTMLNode {
            .tag("div", .tag("dt", .txt(name)),
                 .tag("dd", mono ? .cls("mono") : .empty, hint.isEmpty ? .empty : .attr("title", hint), .txt(value)))
        }
        return .tag("header", .cls("top \(tone)"),
                    .tag("div", .cls("wrap"),
                         .tag("h1", .textElement("span", "mark", run.exitCode == 0 ? "✓" : "✗"), .txt(verdict),
                              .textElement("span", "product", "popover-goldens")),
                         .textElement("p", "verdict", line),
                         .tag("dl", .cls("run"),
                              item("Started", dateText(run.started)),
                              item("Run time", durationText(run.seconds) + " on \(run.jobs) thread\(run.jobs == 1 ? "" : "s")"),
                              item("Tolerance", run.tolerance, hint: "the suite-wide tolerance; skins and cases may override it (see each case)"),
                              item("Record mode", run.recordMode.rawValue, hint: recordModeMeaning(run.recordMode)),
                              item("Goldens", run.goldensFolder, mono: true),
                              run.filter.map { item("Filter", $0, mono: true) } ?? .empty)))
    }

    static func recordModeMeaning(_ mode: RecordMode) -> String {
        switch mode {
        case .never: "never writes goldens: a missing golden fails"
        case .missing: "records goldens that do not exist yet, compares the rest"
        case .failed: "also re-records goldens whose comparison fails"
        case .all: "re-records every golden whose pixels changed"
        }
    }

    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    static func durationText(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return "\(whole / 60) min \(whole % 60) s"
    }

    // MARK: Filter bar

    /// Filters (status, skin, direction, scale, ID) and view controls for every case at
    /// once. Hidden until the script runs: without it they would do nothing.
    private static func filterBar(_ run: CheckRun) -> HTMLNode {
        // Only statuses the run has: the others could filter nothing.
        let chips: [HTMLNode] = statusOrder.filter { run.count($0) > 0 }.map { status in
            .tag("button", .attr("type", "button"), .cls("chip s-\(status.rawValue)"),
                 .attr("data-status-chip", status.rawValue), .attr("aria-pressed", "true"),
                 .attr("title", "show or hide \(word(status)) cases"),
                 .tag("span", .cls("dot")), .txt(word(status) + " "), .textElement("b", "", "\(run.count(status))"))
        }
        func select(_ id: String, _ label: String, _ values: [(String, String)]) -> HTMLNode {
            .tag("label", .txt(label + " "),
                 .tag("select", [.attr("id", id), .tag("option", .attr("value", ""), .txt("all"))]
                      + values.map { .tag("option", .attr("value", $0.0), .txt($0.1)) }))
        }
        var skins: [String] = []
        for r in run.results where !skins.contains(r.goldenCase.skinID) { skins.append(r.goldenCase.skinID) }
        let directions = ArrowDirection.allCases.map(\.rawValue).filter { d in
            run.results.contains { $0.goldenCase.direction.rawValue == d }
        }
        let scales = Set(run.results.map(\.goldenCase.scale)).sorted()
        func modeButton(_ id: String, _ label: String) -> HTMLNode {
            .tag("button", .attr("type", "button"), .attr("data-all-mode", id), .txt(label))
        }
        return .tag("nav", .cls("bar"), .attr("id", "bar"), .attribute(named: "hidden"),
                    .tag("div", .cls("wrap"),
                         .tag("div", .cls("filters"),
                              .void("input", [("id", "f-q"), ("type", "search"), ("placeholder", "Search IDs ( / )"),
                                              ("title", "part of an ID; * and ? work as in --filter"),
                                              ("autocomplete", "off"), ("spellcheck", "false")]),
                              .tag("span", [.cls("chips")] + chips),
                              select("f-skin", "Skin", skins.map { ($0, $0) }),
                              select("f-dir", "Direction", directions.map { ($0, $0) }),
                              select("f-scale", "Scale", scales.map { ("\($0)", "@\($0)x") })),
                         .tag("div", .cls("views"),
                              .tag("button", .attr("type", "button"), .attr("id", "f-reset"), .txt("Reset filters")),
                              .tag("span", .cls("count"), .attr("id", "f-count")),
                              .tag("span", .cls("spacer")),
                              run.results.allSatisfy({ $0.status == .passed }) ? .empty : caseControls(modeButton))))
    }

    /// Views and zoom for every case at once, for runs with cases to look at.
    private static func caseControls(_ modeButton: (String, String) -> HTMLNode) -> HTMLNode {
        let zoomOptions: [HTMLNode] = [.tag("option", .attr("value", ""), .txt("each its own"))]
            + ReportCaseSection.zoomLevels.map { .tag("option", .attr("value", $0.value), .txt($0.label + "×")) }
        return .group(
            .textElement("span", "muted", "All cases:"),
            .tag("span", .cls("seg"),
                 modeButton("side", "Side by side"), modeButton("slider", "Slider"),
                 modeButton("blink", "Blink"), modeButton("overlay", "Overlay")),
            .tag("label", .txt("Zoom "), .tag("select", [.attr("id", "all-zoom")] + zoomOptions)),
            .tag("button", .attr("type", "button"), .attr("id", "expand-all"), .txt("Expand all")),
            .tag("button", .attr("type", "button"), .attr("id", "collapse-all"), .txt("Collapse all")),
            .textElement("span", "muted keys", "j / k: next / previous case"))
    }

    // MARK: Summary

    private static func summary(_ run: CheckRun) -> HTMLNode {
        func tile(_ status: CaseStatus, _ label: String) -> HTMLNode {
            let n = run.count(status)
            return .tag("button", .attr("type", "button"), .cls("tile s-\(status.rawValue)" + (n == 0 ? " zero" : "")),
                        .attr("data-solo", status.rawValue), .attr("title", "show only \(label) cases"),
                        n == 0 ? .attribute(named: "disabled") : .empty,
                        .textElement("b", "", "\(n)"), .textElement("span", "", label))
        }
        let orphanTile: HTMLNode = .tag("a", .cls("tile t-orphaned" + (run.orphans.isEmpty ? " zero" : "")),
                                        .attr("href", "#orphans"), .attr("title", "goldens no case owns"),
                                        .textElement("b", "", "\(run.orphans.count)"),
                                        .textElement("span", "", "orphaned goldens"))
        var blocks: [HTMLNode] = [
            .tag("div", .cls("tiles"),
                 // In the page's order: what fails the check first.
                 tile(.failed, "failed"), tile(.error, "errors"), tile(.missing, "missing"),
                 tile(.recorded, "re-recorded"), tile(.new, "new"), tile(.passed, "passed"), orphanTile),
        ]
        if !run.errors.isEmpty {
            blocks.append(.tag("div", .cls("alert"), .attr("id", "run-errors"),
                               .textElement("h2", "", "Run errors (\(run.errors.count))"),
                               .textElement("p", "muted", "Problems that are not one case's; the check fails with exit code 2."),
                               .tag("ul", run.errors.map { .tag("li", .cls("mono"), .txt($0)) })))
        }
        if !run.orphans.isEmpty {
            blocks.append(goldenList(id: "orphans", title: "Orphaned goldens", ids: run.orphans, run: run,
                                     note: "No case owns these goldens. `popover-goldens record --prune` deletes them."))
        }
        if !run.pruned.isEmpty {
            blocks.append(goldenList(id: "pruned", title: "Pruned goldens", ids: run.pruned, run: run,
                                     note: "This run deleted these goldens, which no case owned."))
        }
        return .tag("section", [.attr("id", "summary")] + blocks)
    }

    private static func goldenList(id: String, title: String, ids: [String], run: CheckRun, note: String) -> HTMLNode {
        .tag("details", .cls("goldens-list"), .attr("id", id), ids.count <= 12 ? .attribute(named: "open") : .empty,
             .tag("summary", .textElement("h2", "", "\(title) (\(ids.count))")),
             .textElement("p", "muted", note),
             .tag("ul", .cls("mono compact"), .group(ids.map { .tag("li", .txt(run.goldensFolder + "/" + $0 + ".png")) })))
    }

    // MARK: Overview

    private static func overview(_ run: CheckRun, images: ReportImages) -> HTMLNode {
        let matrices = ReportOverview.build(run.results)
        let key: [HTMLNode] = statusOrder.map { status in
            .tag("span", .cls("key-item"), .tag("span", .cls("c s-\(status.rawValue)")), .txt(word(status)))
        }
        return .tag("section", .attr("id", "overview"),
                    .textElement("h2", "", "Overview"),
                    .tag("p", .cls("hint"),
                         .txt("One cell per case, coloured by status. Rows: arrow direction at each scale. "
                              + "Columns: anchor × orientation (p, l) for scenes, arrow offset for sweeps, keyframe for the keyboard. "
                              + "Hover a cell for its ID, click it for the case."),
                         .tag("span", [.cls("status-key")] + key)),
                    matrices.isEmpty ? .textElement("p", "muted", "No cases ran.") : .group(matrices.map {
                        $0.html(results: run.results, images: images,
                                runNeedsAttention: run.results.contains { $0.status != .passed })
                    }))
    }

    // MARK: Cases

    private static func cases(_ attention: [CaseResult], images: ReportImages) -> HTMLNode {
        guard !attention.isEmpty else {
            return .tag("section", .attr("id", "cases"),
                        .textElement("h2", "", "Cases needing attention"),
                        .textElement("p", "all-good", "None: every case matches its golden."))
        }
        let failing = attention.contains { $0.status.isFailure }
        return .tag("section", .attr("id", "cases"),
                    .tag("div", .cls("cases-head"),
                         .tag("h2", .txt(failing ? "Cases needing attention " : "Goldens recorded by this run "),
                              .textElement("span", "muted", "(\(attention.count))")),
                         .tag("span", .cls("muted"), .attr("id", "cases-count"))),
                    attention.contains { $0.artifacts.heatmap != nil } ? ReportCaseSection.legend() : .empty,
                    ReportCaseSection.tools(),
                    .tag("p", .cls("muted none-shown"), .attr("id", "cases-none"), .attribute(named: "hidden"),
                         .txt("No case matches the filters.")),
                    .group(attention.enumerated().map { i, r in
                        ReportCaseSection.html(r, images: images, open: i < openSections)
                    }))
    }

    // MARK: Passed

    /// Passing cases as one line each, grouped by skin: every case keeps an anchor the
    /// overview links to, at a few dozen bytes a case.
    private static func passedList(_ passed: [CaseResult], run: CheckRun) -> HTMLNode {
        guard !passed.isEmpty else { return .empty }
        var skins: [String] = []
        var bySkin: [String: [CaseResult]] = [:]
        for r in passed {
            if bySkin[r.goldenCase.skinID] == nil { skins.append(r.goldenCase.skinID) }
            bySkin[r.goldenCase.skinID, default: []].append(r)
        }
        let withinTolerance = passed.filter { r in
            r.metrics.map { $0.differentPixels > 0 || $0.excusedPixels > 0 || $0.maxChannelDelta > 0 } ?? false
        }.count
        let note = withinTolerance > 0 ? "; \(withinTolerance) differ within tolerance (marked ≈)" : ""
        return .tag("section", .attr("id", "passed"),
                    .tag("details", .cls("passed"),
                         .tag("summary", .tag("h2", .txt("Passed "), .textElement("span", "muted", "(\(passed.count))")),
                              .textElement("span", "muted", "match their goldens\(note)")),
                         .group(skins.map { skin in
                             .tag("div", .cls("passed-skin"), .attr("data-skin", skin), .attr("data-skin-block", skin),
                                  .textElement("h3", "", skin),
                                  .tag("ul", .cls("passed-list"),
                                       .group(bySkin[skin]!.map(passedItem))))
                         })))
    }

    private static func passedItem(_ r: CaseResult) -> HTMLNode {
        let c = r.goldenCase
        let differs = r.metrics.map { $0.differentPixels > 0 || $0.excusedPixels > 0 || $0.maxChannelDelta > 0 } ?? false
        let links: [HTMLNode] = [("expected", r.artifacts.expected), ("actual", r.artifacts.actual),
                                 ("heatmap", r.artifacts.heatmap)].compactMap { name, path in
            path.map { .tag("a", .attr("href", HTMLEscape.relativeURL($0)), .attr("target", "_blank"), .txt(name)) }
        }
        return .tag("li", .attr("id", HTMLEscape.anchor(forCase: r.id)), .attr("data-dir", c.direction.rawValue),
                    .attr("data-scale", "\(c.scale)"), .attr("title", r.message),
                    .textElement("code", "", r.id),
                    differs ? .textElement("span", "approx", "≈ " + r.message) : .empty,
                    links.isEmpty ? .empty : .tag("span", [.cls("links")] + links))
    }

    // MARK: Footer

    private static func footer() -> HTMLNode {
        .tag("footer", .tag("div", .cls("wrap"),
                            .txt("For machines: "),
                            .tag("a", .attr("href", "summary.json"), .txt("summary.json")),
                            .txt(" (every case, its status and metrics) · "),
                            .tag("a", .attr("href", "junit.xml"), .txt("junit.xml")),
                            .txt(" (one testcase per case). Written by popover-goldens.")))
    }
}
