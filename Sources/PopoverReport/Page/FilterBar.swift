import PopoverGeometry
import PopoverHarness

/// The sticky bar: filters (status, skin, direction, scale, ID) over the overview and
/// the cases, the count they leave, how many cases are undecided, the export of the
/// decisions (opened from disk) and the way into focus mode. It is in the page from
/// the first paint, with its height, so nothing moves when the script wakes it.
enum FilterBar {
    static func html(_ run: RunRecord) -> HTMLNode {
        // Only statuses the run has: the others could filter nothing.
        let chips: [HTMLNode] = ReportPage.statusOrder.filter { run.count($0) > 0 }.map { status in
            .tag("button", .attr("type", "button"), .cls("chip s-\(status.rawValue)"),
                 .attr("data-status-chip", status.rawValue), .attr("aria-pressed", "true"),
                 .attr("title", "show or hide \(ReportPage.word(status)) cases"),
                 .tag("span", .cls("dot"), .attr("aria-hidden", "true"), .text(ReportPage.glyph(status))),
                 .text(ReportPage.word(status) + " "),
                 .textElement("b", "", "\(run.count(status))"))
        }
        func select(_ id: String, _ label: String, _ values: [(String, String)]) -> HTMLNode {
            .tag("label", .text(label + " "),
                 .tag("select", [.attr("id", id), .tag("option", .attr("value", ""), .text("all"))]
                      + values.map { .tag("option", .attr("value", $0.0), .text($0.1)) }))
        }
        var skins: [String] = []
        for r in run.results where !skins.contains(r.info.skin) { skins.append(r.info.skin) }
        let directions = ArrowDirection.allCases.filter { d in run.results.contains { $0.info.direction == d } }
        let scales = Set(run.results.map(\.info.scale)).sorted()
        let attention = run.results.contains { $0.status != .passed }
        return .tag("nav", .cls("bar"), .attr("id", "bar"), .attr("aria-label", "filters"),
                    .tag("div", .cls("wrap"),
                         .tag("div", .cls("filters"),
                              .tag("label", .cls("search"), .text("Search IDs "),
                                   .void("input", .attr("id", "f-q"), .attr("type", "search"),
                                         .attr("placeholder", "part of an ID ( / )"),
                                         .attr("title", "part of an ID; * and ? work as in --filter"),
                                         .attr("autocomplete", "off"), .attr("spellcheck", "false"))),
                              .tag("span", [.cls("chips"), .attr("role", "group"), .attr("aria-label", "statuses")] + chips),
                              select("f-skin", "Skin", skins.map { ($0, $0) }),
                              select("f-dir", "Direction", directions.map { ($0.rawValue, $0.rawValue) }),
                              select("f-scale", "Scale", scales.map { ("\($0)", "@\($0)x") })),
                         .tag("div", .cls("views"),
                              .tag("button", .attr("type", "button"), .attr("id", "f-reset"), .text("Reset filters")),
                              .tag("span", .cls("count"), .attr("id", "f-count"), .attr("aria-live", "polite")),
                              .tag("span", .cls("spacer")),
                              attention
                                ? .group(.tag("span", .cls("progress"), .attr("id", "bar-progress"), .attr("aria-live", "polite")),
                                         // Opened from disk, the last step is always in reach.
                                         .tag("button", .attr("type", "button"), .cls("static-only"), .attr("data-export", ""),
                                              .flag("disabled"), .attr("title", "download approvals.json for the accepted cases"),
                                              .text("Export approvals.json")),
                                         .tag("button", .attr("type", "button"), .cls("primary"), .attr("id", "focus-open"),
                                              .attr("title", "one case at a time, filling the window, decided by key"),
                                              .text("Focus mode")))
                                : .empty,
                              .tag("button", .attr("type", "button"), .attr("id", "keys-open"),
                                   .attr("aria-label", "keyboard keys"), .attr("title", "keyboard keys ( ? )"), .text("?")))))
    }
}
