import Foundation
import PopoverGeometry
import PopoverHarness

/// `index.html`: the page a person opens after a red run.
///
/// One self-contained file (CSS and JS inline, images as relative links beside it), so
/// it works opened from disk and from a CI artifact holding only the report folder.
/// From the top:
///
/// - the verdict and the run: time, tolerance, record mode, goldens folder, filter;
/// - counts by status (each a filter), run-level errors and notes, orphaned goldens;
/// - the run's changes (failing cases grouped by cause), each with one case in the full
///   viewer and Accept / Keep for all its cases;
/// - the overview: per skin, a matrix of cells coloured and marked by status (rows:
///   direction x scale; columns: anchor x orientation, sweep offsets, keyboard
///   keyframes), one stop for Tab, each cell opening its case;
/// - the cases that need attention, failures first, one line each, opening to the
///   viewer (expected, actual and heatmap fitted side by side, linked pan and zoom,
///   wipe, onion skin, blink, overlay), their metrics and what they draw;
/// - passing cases as a compact list, so 2000 of them cost a few hundred kilobytes of
///   text and no images.
///
/// A sticky bar filters everything by status, skin, direction, scale and ID; focus mode
/// shows one case or change at a time, decided by key.
///
/// The cases live in the page as JSON (`ReportData`) and the script draws only those on
/// or near the screen, so a run where every case failed opens as fast as one where few
/// did. Decisions and filters are kept in the browser's storage under the run's identity.
public struct ReportPage: RunReporter {
    public init() {}
    public var fileName: String? { "index.html" }
    public func file(_ run: RunRecord) -> [UInt8] { Array(Self.render(run).utf8) }

    /// Statuses in the order the page lists them: what breaks the check first.
    static let statusOrder: [CaseStatus] = [.failed, .error, .missing, .recorded, .new, .passed]

    /// The page for a finished run.
    public static func render(_ run: RunRecord) -> String {
        let attention = attentionOrder(run.results)
        let data = ReportData(run: run, attention: attention)
        let page: HTMLNode = .tag(
            "html", .attr("lang", "en"),
            .tag("head",
                 .void("meta", .attr("charset", "utf-8")),
                 .void("meta", .attr("name", "viewport"), .attr("content", "width=device-width, initial-scale=1")),
                 .tag("title", .text(title(run))),
                 .trustedCode(element: "style", code: ReportAssets.css)),
            .tag("body", .cls("nojs"),
                 attention.isEmpty ? .empty
                    : .tag("a", .cls("skip"), .attr("href", data.changes.isEmpty ? "#cases" : "#changes"),
                           .text(data.changes.isEmpty ? "Skip to the cases" : "Skip to the changes and cases")),
                 header(run),
                 FilterBar.html(run),
                 .tag("main",
                      .tag("noscript", .tag("p", .cls("alert"),
                                            .text("This page draws its cases with JavaScript, which is off: "
                                                  + "summary.json holds every case."))),
                      summary(run),
                      CaseSection.changes(data),
                      OverviewMatrix.section(run),
                      CaseSection.list(attention, run: run),
                      PassedList.html(run)),
                 footer(run),
                 .jsonData(id: "report-data", json: data.json()),
                 .trustedCode(element: "script", code: ReportAssets.script)))
        return "<!DOCTYPE html>\n" + page.render() + "\n"
    }

    /// Cases that are not passing, failures first, catalog order within a status.
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

    /// A status as a mark beside its colour, so it reads without the colour too.
    static func glyph(_ status: CaseStatus) -> String {
        switch status {
        case .passed: return "✓"
        case .failed: return "✕"
        case .error: return "!"
        case .missing: return "?"
        case .new: return "+"
        case .recorded: return "↻"
        }
    }

    static func title(_ run: RunRecord) -> String {
        let failing = run.results.filter { $0.status.isFailure }.count
        let verdict = run.exitCode == 0 ? "passed" : failing > 0 ? "\(failing) failing" : "errors"
        return "Goldens \(verdict) · popover-goldens report"
    }

    // MARK: Header

    private static func header(_ run: RunRecord) -> HTMLNode {
        let total = run.results.count
        var detail: [String] = []
        for status in statusOrder where status != .passed && run.count(status) > 0 {
            detail.append("\(run.count(status)) \(word(status))")
        }
        if !run.errors.isEmpty { detail.append("\(run.errors.count) run error\(run.errors.count == 1 ? "" : "s")") }
        if run.acceptedCount > 0 { detail.append("\(run.acceptedCount) accepted since") }
        let verdict: String
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
        func item(_ name: String, _ value: String, mono: Bool = false, hint: String = "") -> HTMLNode {
            .tag("div", .tag("dt", .text(name)),
                 .tag("dd", mono ? .cls("mono") : .empty, hint.isEmpty ? .empty : .attr("title", hint), .text(value)))
        }
        let shard = run.shard.map { item("Shard", "\($0.index) of \($0.count)", hint: "this run judged one share of the cases") }
        return .tag("header", .cls("top " + (run.exitCode == 0 ? "ok" : "bad")),
                    .tag("div", .cls("wrap"),
                         .tag("h1", .textElement("span", "mark", run.exitCode == 0 ? "✓" : "✗"), .text(verdict),
                              .textElement("span", "product", "popover-goldens")),
                         .textElement("p", "verdict", line),
                         .tag("dl", .cls("run"),
                              item("Started", dateText(run.started)),
                              item("Run time", durationText(run.seconds) + " on \(run.jobs) thread\(run.jobs == 1 ? "" : "s")"),
                              item("Tolerance", run.tolerance,
                                   hint: "the suite-wide tolerance; skins and cases may override it (see each case)"),
                              item("Record mode", run.recordMode.rawValue, hint: run.recordMode.meaning),
                              item("Goldens", run.goldensFolder, mono: true),
                              run.filter.map { item("Filter", $0, mono: true) } ?? .empty,
                              shard ?? .empty)))
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

    // MARK: Summary

    private static func summary(_ run: RunRecord) -> HTMLNode {
        func tile(_ status: CaseStatus, _ label: String) -> HTMLNode {
            let n = run.count(status)
            return .tag("button", .attr("type", "button"), .cls("tile s-\(status.rawValue)" + (n == 0 ? " zero" : "")),
                        .attr("data-solo", status.rawValue), .attr("title", "show only \(label) cases"),
                        .flag("disabled", n == 0),
                        .textElement("b", "", "\(n)"), .textElement("span", "", label),
                        .tag("small", .cls("tile-note"), .attr("data-tile-note", status.rawValue)))
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
                               .tag("ul", run.errors.map { .tag("li", .cls("mono"), .text($0)) })))
        }
        if !run.notes.isEmpty {
            blocks.append(.tag("div", .cls("notes"), .attr("id", "run-notes"),
                               .textElement("h2", "", "Notes (\(run.notes.count))"),
                               .tag("ul", run.notes.map { .tag("li", .cls("mono"), .text($0)) })))
        }
        if !run.orphans.isEmpty {
            blocks.append(goldenList(id: "orphans", title: "Orphaned goldens", ids: run.orphans, run: run,
                                     note: "No case owns these goldens. `\(run.pruneCommand.command)` deletes them; no other golden changes."))
        }
        if !run.pruned.isEmpty {
            blocks.append(goldenList(id: "pruned", title: "Pruned goldens", ids: run.pruned, run: run,
                                     note: "This run deleted these goldens, which no case owned."))
        }
        return .tag("section", [.attr("id", "summary")] + blocks)
    }

    private static func goldenList(id: String, title: String, ids: [String], run: RunRecord, note: String) -> HTMLNode {
        .tag("details", .cls("goldens-list"), .attr("id", id), .flag("open", ids.count <= 12),
             .tag("summary", .textElement("h2", "", "\(title) (\(ids.count))")),
             .textElement("p", "muted", note),
             .tag("ul", .cls("mono compact"), .group(ids.map { .tag("li", .text(run.goldensFolder + "/" + $0 + ".png")) })))
    }

    // MARK: Footer

    private static func footer(_ run: RunRecord) -> HTMLNode {
        .tag("footer", .tag("div", .cls("wrap"),
                            .text("For machines: "),
                            .tag("a", .attr("href", "summary.json"), .text("summary.json")),
                            .text(" (every case, its status, metrics and image digests) · "),
                            .tag("a", .attr("href", "junit.xml"), .text("junit.xml")),
                            .text(" (one testcase per case). Written by popover-goldens.")))
    }
}

/// The page's stylesheet and scripts: real files in the package (Assets/), embedded in
/// the binary by SwiftPM, written inline so the page needs nothing but its images. The
/// scripts run in this order; report-core.js sets up what the others share. They go in
/// one script element: the browser may run other tasks between two elements (a served
/// page arriving in pieces), and an observer firing after report-lists.js had filled
/// the list but before report-review.js had run would draw lines with half a script.
enum ReportAssets {
    static let css = String(decoding: PackageResources.report_css, as: UTF8.self)
    static let script = [
        PackageResources.report_core_js, PackageResources.report_viewer_js, PackageResources.report_lists_js,
        PackageResources.report_review_js, PackageResources.report_focus_js, PackageResources.report_navigation_js,
    ].map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n;\n")
}
