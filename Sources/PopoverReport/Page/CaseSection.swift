import Foundation
import PopoverHarness

/// A case that needs attention, in full: its images in four views with a pixel-exact
/// zoom, its metrics, what it draws, and what accepting it would take.
enum CaseSection {
    /// The list of cases that are not passing, with the heatmap's legend and the
    /// viewer's controls once for all.
    static func list(_ attention: [CaseResult], run: RunRecord) -> HTMLNode {
        guard !attention.isEmpty else {
            return .tag("section", .attr("id", "cases"),
                        .textElement("h2", "", "Cases needing attention"),
                        .textElement("p", "all-good", "None: every case matches its golden."))
        }
        let failing = attention.contains { $0.status.isFailure }
        let acceptable = attention.filter(isAcceptable).count
        return .tag("section", .attr("id", "cases"),
                    .tag("div", .cls("cases-head"),
                         .tag("h2", .text(failing ? "Cases needing attention " : "Goldens recorded by this run "),
                              .textElement("span", "muted", "(\(attention.count))")),
                         .tag("span", .cls("muted"), .attr("id", "cases-count"))),
                    acceptable > 0 ? ReviewPanel.html(run, acceptable: acceptable) : .empty,
                    attention.contains { $0.artifacts.heatmap != nil } ? CaseViewer.legend() : .empty,
                    CaseViewer.tools(),
                    .tag("p", .cls("muted none-shown"), .attr("id", "cases-none"), .flag("hidden"),
                         .text("No case matches the filters.")),
                    .group(attention.enumerated().map { i, r in html(r, open: i < ReportPage.openSections) }))
    }

    /// Whether a reviewer can take this case's actual image as its golden: it failed or
    /// had no golden, and the run kept an actual image with its digest.
    static func isAcceptable(_ r: CaseResult) -> Bool {
        r.status.isAcceptable && r.artifacts.actual?.digest != nil
    }

    /// The section: a one-line summary, and the body. A folded section keeps its body
    /// in a `<template>`, which the browser parses but does not lay out or load images
    /// for; the script moves it into place when the section is unfolded. So a run where
    /// everything broke still opens quickly, with thousands of sections.
    static func html(_ r: CaseResult, open: Bool) -> HTMLNode {
        let c = r.info
        let status = r.status.rawValue
        let body: HTMLNode = .tag("div", .cls("case-body"),
                                  .textElement("p", "message", r.message),
                                  // New and missing cases compared nothing: the image's
                                  // caption gives its size.
                                  r.status == .new || r.status == .missing ? .empty : metrics(r),
                                  CaseViewer.html(r),
                                  drawn(r))
        return .tag("details", [
            .cls("case s-\(status)" + (r.accepted == nil ? "" : " accepted")),
            .attr("id", HTMLEscape.anchor(forCase: r.id)),
            .attr("data-status", status), .attr("data-skin", c.skin),
            .attr("data-dir", c.direction.rawValue), .attr("data-scale", "\(c.scale)"),
            .attr("data-case", r.id),
            isAcceptable(r) ? acceptData(r) : .empty,
            .flag("open", open),
            .tag("summary", [
                .textElement("span", "badge s-\(status)", ReportPage.word(r.status)),
                thumbnail(r),
                .textElement("span", "cid", r.id),
                .textElement("span", "headline", headline(r)),
                isAcceptable(r) ? ReviewPanel.toggle(r) : .empty,
            ]),
            open ? body : .tag("template", .cls("later"), body),
        ])
    }

    /// What an approval of this case must name: the golden the run compared against
    /// ("none" when there was none) and the actual image the reviewer saw.
    private static func acceptData(_ r: CaseResult) -> HTMLNode {
        .group(.attr("data-expected-digest", r.goldenDigest ?? "none"),
               .attr("data-actual-digest", r.artifacts.actual?.digest ?? ""),
               r.accepted.map { .attr("data-accepted", $0.at) } ?? .empty)
    }

    /// The few words that say how bad it is, for the one-line summary.
    static func headline(_ r: CaseResult) -> String {
        if let m = r.metrics, !m.pass || r.status == .recorded {
            var parts = ["\(m.differentPixels) px differ (\(percent(m.differentPixels, of: m.width * m.height)))",
                         "max Δ \(m.maxChannelDelta)"]
            if m.excusedPixels > 0 { parts.append("\(m.excusedPixels) excused") }
            return parts.joined(separator: " · ")
        }
        switch r.status {
        case .missing: return "no golden"
        case .new: return "new golden recorded"
        default: return r.message
        }
    }

    private static func thumbnail(_ r: CaseResult) -> HTMLNode {
        guard let t = r.artifacts.thumbnail else { return .tag("span", .cls("thumb none")) }
        return .void("img", .cls("thumb"), .attr("src", HTMLEscape.relativeURL(t.path)), .attr("alt", ""),
                     .attr("loading", "lazy"), .attr("width", "\(t.width)"), .attr("height", "\(t.height)"))
    }

    // MARK: Facts

    private static func stat(_ name: String, _ value: String, _ classes: String = "") -> HTMLNode {
        .tag("div", .tag("dt", .text(name)), classes.isEmpty ? .tag("dd", .text(value)) : .tag("dd", .cls(classes), .text(value)))
    }

    /// The comparison's numbers, in the names summary.json uses, as one strip.
    static func metrics(_ r: CaseResult) -> HTMLNode {
        guard let m = r.metrics else {
            // Nothing compared: say what each side measures, which shows a size change.
            let expected = r.artifacts.expected
            let sizesDiffer = expected.map { $0.width != r.width || $0.height != r.height } ?? false
            return .tag("dl", .cls("stats"),
                        expected.map { stat("expected", "\($0.width) × \($0.height)") } ?? .empty,
                        stat("actual", r.width > 0 ? "\(r.width) × \(r.height)" : "not drawn", sizesDiffer ? "bad" : ""),
                        stat("compared", "no"),
                        stat("tolerance", r.tolerance))
        }
        return .tag("dl", .cls("stats"),
                    stat("width × height", "\(m.width) × \(m.height)"),
                    stat("differentPixels", "\(m.differentPixels) (\(percent(m.differentPixels, of: m.width * m.height)))",
                         m.differentPixels > 0 ? "bad" : ""),
                    stat("excused pixels", "\(m.excusedPixels)"),
                    stat("maxChannelDelta", "\(m.maxChannelDelta) of 255", m.maxChannelDelta > 0 ? "bad" : ""),
                    stat("meanAbsoluteError", m.meanAbsoluteErrorText),
                    stat("psnr", m.psnr == nil ? "∞" : m.psnrText),
                    stat("pass", m.pass ? "yes" : "no", m.pass ? "good" : "bad"),
                    stat("tolerance", m.tolerance),
                    r.changedRegion.map { stat("changed region", CaseViewer.regionText($0)) } ?? .empty)
    }

    /// What the case draws and where its golden lives, as one wrapped line.
    static func drawn(_ r: CaseResult) -> HTMLNode {
        let c = r.info
        var items: [(String, String)] = [("skin", c.skin), ("direction", c.direction.rawValue),
                                         ("scale", "@\(c.scale)x"), ("family", c.family.rawValue)]
        if let anchor = c.anchor { items.append(("anchor", anchor)) }
        if let orientation = c.orientation { items.append(("orientation", orientation.rawValue)) }
        if let size = c.sweepSize { items.append(("sweep size", size)) }
        items.append(("offset", IDNumber.signed(c.offset) + " pt"))
        if let time = c.keyboardTime { items.append(("keyboard time", IDNumber.plain(time * 1000) + " ms")) }
        items.append(("judged in", String(format: "%.0f ms", r.seconds * 1000)))
        return .tag("dl", [.cls("drawn"),
                           .tag("div", .cls("golden"), .tag("dt", .text("golden")), .tag("dd", .cls("mono"), .text(r.goldenPath)))]
                    + items.map { name, value in .tag("div", .tag("dt", .text(name)), .tag("dd", .text(value))) })
    }

    static func percent(_ n: Int, of total: Int) -> String {
        guard total > 0 else { return "–" }
        let p = Double(n) * 100 / Double(total)
        if n > 0 && p < 0.01 { return "<0.01 %" }
        return String(format: "%.2f %%", p)
    }
}
