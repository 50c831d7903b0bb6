import Foundation
import PopoverHarness

/// The two places a reviewer decides: the run's changes (failing cases grouped by cause,
/// each decided once) and every case needing attention, one line each.
///
/// Both are drawn by the script from the page's data, only where the screen is. The
/// markup holds their frames: a heading, and a list whose height is already the height
/// of its lines (`--n` of them), so nothing below moves when the script fills it in.
enum CaseSection {
    /// How many changes show before "Show all": each is a full viewer.
    static let changesShown = 8

    /// The changes, biggest first: the section the page opens with.
    static func changes(_ data: ReportData) -> HTMLNode {
        guard !data.changes.isEmpty else { return .empty }
        let shown = min(data.changes.count, changesShown)
        let total = data.changes.count
        return .tag("section", .attr("id", "changes"), .attr("aria-labelledby", "changes-title"),
                    .tag("div", .cls("section-head"),
                         .tag("h2", .attr("id", "changes-title"), .text("Changes "),
                              .textElement("span", "muted", "(\(total))")),
                         .textElement("p", "muted", "Failing cases grouped by what changed: decide a change once, "
                                      + "or open its cases to decide them one by one.")),
                    index(data),
                    .tag("div", .cls("changes-list"), .attr("id", "changes-list"), .attr("style", "--n:\(shown)"),
                         .group((0..<shown).map { _ in .tag("div", .cls("change-slot")) })),
                    total > shown
                        ? .tag("button", .attr("type", "button"), .attr("id", "changes-more"), .cls("more"),
                               .text("Show all \(total) changes"))
                        : .empty)
    }

    /// The change index: every change in one row, in the first HTML so nothing moves when
    /// the script wakes (it hides the rows the filters leave out and marks accepted ones).
    static func index(_ data: ReportData) -> HTMLNode {
        let rows: [HTMLNode] = data.changes.map { change in
            let n = change.members.count
            return .tag("tr", .attr("data-change", change.id),
                        // A button, not a link: a change past the first few has no card until shown.
                        .tag("th", .attr("scope", "row"), .tag("button", .attr("type", "button"), .cls("to-change"),
                                                               .attr("data-goto-change", change.id), .text(change.explanation))),
                        .textElement("td", "", change.skin),
                        .textElement("td", "", change.scope),
                        .textElement("td", "num", "\(n)"),
                        .textElement("td", "num", change.moved),
                        .tag("td", .cls("mono"), .text(change.id)),
                        .tag("td", .tag("button", .attr("type", "button"), .attr("data-decide-change", "accept"),
                                        .attr("data-change", change.id), .attr("aria-pressed", "false"),
                                        .attr("aria-label", "Accept all \(n) of change \(change.id)"), .text("Accept"))))
        }
        return .tag("div", .cls("change-index-wrap"), .attr("id", "change-index"),
                    .tag("table", .cls("change-index"),
                         .textElement("caption", "muted", "Every change, the biggest first"),
                         .tag("thead", .tag("tr", .group(["Change", "Skin", "Scope", "Cases", "Moved", "ID", "Decide"].map {
                             .tag("th", .attr("scope", "col"), .text($0))
                         }))),
                         .tag("tbody", rows)))
    }

    /// The cases that are not passing, failures first, with the review panel and the
    /// heatmap's legend.
    static func list(_ attention: [CaseResult], run: RunRecord) -> HTMLNode {
        guard !attention.isEmpty else {
            return .tag("section", .attr("id", "cases"),
                        .textElement("h2", "", "Cases needing attention"),
                        .textElement("p", "all-good", "None: every case matches its golden."))
        }
        let failing = attention.contains { $0.status.isFailure }
        let acceptable = attention.filter(CaseFacts.isAcceptable).count
        return .tag("section", .attr("id", "cases"), .attr("aria-labelledby", "cases-title"),
                    .tag("div", .cls("section-head"),
                         .tag("h2", .attr("id", "cases-title"),
                              .text(failing ? "Cases needing attention " : "Goldens recorded by this run "),
                              .textElement("span", "muted", "(\(attention.count))")),
                         .tag("span", .cls("muted"), .attr("id", "cases-count"), .attr("aria-live", "polite"))),
                    acceptable > 0 ? ReviewPanel.html(run, acceptable: acceptable) : .empty,
                    attention.contains { $0.artifacts.heatmap != nil } ? CaseViewer.legend() : .empty,
                    .tag("p", .cls("muted none-shown"), .attr("id", "cases-none"), .flag("hidden"),
                         .text("No case matches the filters.")),
                    .tag("div", .cls("case-list"), .attr("id", "case-list"), .attr("role", "list"),
                         .attr("aria-label", "cases needing attention"), .attr("style", "--n:\(attention.count)")))
    }
}
