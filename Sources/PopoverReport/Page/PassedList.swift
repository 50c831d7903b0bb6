import PopoverHarness

/// Passing cases as one line each, grouped by skin: every case keeps an anchor the
/// overview links to, at a few dozen bytes a case.
enum PassedList {
    static func html(_ run: RunRecord) -> HTMLNode {
        let passed = run.results.filter { $0.status == .passed }
        guard !passed.isEmpty else { return .empty }
        var skins: [String] = []
        var bySkin: [String: [CaseResult]] = [:]
        for r in passed {
            if bySkin[r.info.skin] == nil { skins.append(r.info.skin) }
            bySkin[r.info.skin, default: []].append(r)
        }
        let withinTolerance = passed.filter(differs).count
        let note = withinTolerance > 0 ? "; \(withinTolerance) differ within tolerance (marked ≈)" : ""
        return .tag("section", .attr("id", "passed"),
                    .tag("details", .cls("passed"),
                         .tag("summary", .tag("h2", .text("Passed "), .textElement("span", "muted", "(\(passed.count))")),
                              .textElement("span", "muted", "match their goldens\(note)")),
                         .group(skins.map { skin in
                             .tag("div", .cls("passed-skin"), .attr("data-skin", skin), .attr("data-skin-block", skin),
                                  .textElement("h3", "", skin),
                                  .tag("ul", .cls("passed-list"), .group(bySkin[skin]!.map(item))))
                         })))
    }

    /// Passed, but not byte for byte: a difference the tolerance allows.
    static func differs(_ r: CaseResult) -> Bool {
        r.metrics.map { $0.differentPixels > 0 || $0.excusedPixels > 0 || $0.maxChannelDelta > 0 } ?? false
    }

    private static func item(_ r: CaseResult) -> HTMLNode {
        let images: [(String, SavedImage?)] = [("expected", r.artifacts.expected), ("actual", r.artifacts.actual),
                                               ("heatmap", r.artifacts.heatmap)]
        let links: [HTMLNode] = images.compactMap { name, image in
            image.map { .tag("a", .attr("href", Escape.relativeURL($0.path)), .attr("target", "_blank"), .text(name)) }
        }
        return .tag("li", .attr("id", Escape.caseAnchor(r.id)), .attr("data-dir", r.info.direction.rawValue),
                    .attr("data-scale", "\(r.info.scale)"), .attr("title", r.message),
                    .textElement("code", "", r.id),
                    differs(r) ? .textElement("span", "approx", "≈ " + r.message) : .empty,
                    links.isEmpty ? .empty : .tag("span", [.cls("links")] + links))
    }
}
