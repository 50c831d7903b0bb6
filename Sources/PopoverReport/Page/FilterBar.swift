import PopoverGeometry
import PopoverHarness

/// The sticky bar: filters (status, skin, direction, scale, ID) and view controls for
/// every case at once. Hidden until the script runs: without it they would do nothing.
enum FilterBar {
    static func html(_ run: RunRecord) -> HTMLNode {
        // Only statuses the run has: the others could filter nothing.
        let chips: [HTMLNode] = ReportPage.statusOrder.filter { run.count($0) > 0 }.map { status in
            .tag("button", .attr("type", "button"), .cls("chip s-\(status.rawValue)"),
                 .attr("data-status-chip", status.rawValue), .attr("aria-pressed", "true"),
                 .attr("title", "show or hide \(ReportPage.word(status)) cases"),
                 .tag("span", .cls("dot")), .text(ReportPage.word(status) + " "),
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
        return .tag("nav", .cls("bar"), .attr("id", "bar"), .flag("hidden"),
                    .tag("div", .cls("wrap"),
                         .tag("div", .cls("filters"),
                              .void("input", .attr("id", "f-q"), .attr("type", "search"), .attr("placeholder", "Search IDs ( / )"),
                                    .attr("title", "part of an ID; * and ? work as in --filter"),
                                    .attr("autocomplete", "off"), .attr("spellcheck", "false")),
                              .tag("span", [.cls("chips")] + chips),
                              select("f-skin", "Skin", skins.map { ($0, $0) }),
                              select("f-dir", "Direction", directions.map { ($0.rawValue, $0.rawValue) }),
                              select("f-scale", "Scale", scales.map { ("\($0)", "@\($0)x") })),
                         .tag("div", .cls("views"),
                              .tag("button", .attr("type", "button"), .attr("id", "f-reset"), .text("Reset filters")),
                              .tag("span", .cls("count"), .attr("id", "f-count")),
                              .tag("span", .cls("spacer")),
                              run.results.allSatisfy({ $0.status == .passed }) ? .empty : caseControls())))
    }

    /// Views and zoom for every case at once, for runs with cases to look at.
    private static func caseControls() -> HTMLNode {
        func modeButton(_ id: String, _ label: String) -> HTMLNode {
            .tag("button", .attr("type", "button"), .attr("data-all-mode", id), .text(label))
        }
        let zoomOptions: [HTMLNode] = [.tag("option", .attr("value", ""), .text("each its own"))]
            + CaseViewer.zoomLevels.map { .tag("option", .attr("value", $0.value), .text($0.label + "×")) }
        return .group(
            .textElement("span", "muted", "All cases:"),
            .tag("span", .cls("seg"),
                 modeButton("side", "Side by side"), modeButton("slider", "Slider"),
                 modeButton("blink", "Blink"), modeButton("overlay", "Overlay")),
            .tag("label", .text("Zoom "), .tag("select", [.attr("id", "all-zoom")] + zoomOptions)),
            .tag("button", .attr("type", "button"), .attr("id", "expand-all"), .text("Expand all")),
            .tag("button", .attr("type", "button"), .attr("id", "collapse-all"), .text("Collapse all")),
            .textElement("span", "muted keys", "j / k: next / previous case"))
    }
}
