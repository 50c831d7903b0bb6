import Foundation
import PopoverDiff
import Plot

/// A case that needs attention, in full: its images in four views with a pixel-exact
/// zoom, its metrics, and what it draws.
enum ReportCaseSection {
    /// The section: a one-line summary, and the body. A folded section keeps its body
    /// in a `<template>`, which the browser parses but does not lay out or load images
    /// for; the script moves it into place when the section is unfolded. So a run where
    /// everything broke still opens quickly, with thousands of sections.
    static func html(_ r: CaseResult, images: ReportImages, open: Bool) -> HTMLNode {
        let c = r.goldenCase
        let status = r.status.rawValue
        let body: HTMLNode = .tag("div", .cls("case-body"),
                                  .textElement("p", "message", r.message),
                                  // New and missing cases compared nothing: the image's
                                  // caption gives its size.
                                  r.status == .new || r.status == .missing ? .empty : metrics(r, images: images),
                                  viewer(r, images: images),
                                  drawn(r))
        return .tag("details", [
            .cls("case s-\(status)"), .attr("id", HTMLEscape.anchor(forCase: r.id)),
            .attr("data-status", status), .attr("data-skin", c.skinID),
            .attr("data-dir", c.direction.rawValue), .attr("data-scale", "\(c.scale)"),
            open ? .attribute(named: "open") : .empty,
            .tag("summary", [
                .textElement("span", "badge s-\(status)", HTMLReport.word(r.status)),
                thumbnail(r, images: images),
                .textElement("span", "cid", r.id),
                .textElement("span", "headline", headline(r)),
            ]),
            open ? body : .tag("template", .cls("later"), body),
        ])
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

    private static func thumbnail(_ r: CaseResult, images: ReportImages) -> HTMLNode {
        guard let path = images.thumbnails[r.id] else { return .tag("span", .cls("thumb none")) }
        let size = images.sizes[path]
        return .void("img", [("class", "thumb"), ("src", HTMLEscape.relativeURL(path)), ("alt", ""),
                             ("loading", "lazy")]
                     + (size.map { [("width", "\($0.width)"), ("height", "\($0.height)")] } ?? []))
    }

    // MARK: Viewer

    /// The images with their views. The four views are layouts of the same three
    /// images (CSS keyed on `data-mode`), so switching costs nothing and the page holds
    /// each image once.
    static func viewer(_ r: CaseResult, images: ReportImages) -> HTMLNode {
        let a = r.artifacts
        let region = images.changedRegions[r.id]
        var figures: [HTMLNode] = []
        if let path = a.expected {
            figures.append(figure(path, kind: "expected", caption: "expected", note: "golden", region: region, images: images))
        }
        if let path = a.actual {
            figures.append(figure(path, kind: "actual", caption: "actual", note: "this run", region: region,
                                  fallback: r, images: images))
        }
        if let path = a.heatmap {
            figures.append(figure(path, kind: "heatmap", caption: "heatmap", note: "differences", region: region,
                                  images: images))
        }
        guard !figures.isEmpty else {
            return .tag("div", .cls("viewer empty"), .textElement("p", "muted", noImages(r)))
        }
        // The controls are the same for every case: the script copies them in from
        // `tools()`, once per unfolded case, instead of the page repeating them.
        return .tag("div", .cls("viewer"), .attr("data-mode", "side"), .attr("data-zoom", "1"),
                    region.map { .attr("data-region", "\($0.x),\($0.y),\($0.width),\($0.height)") } ?? .empty,
                    .tag("div", .cls("stage-scroll"), .tag("div", [.cls("stage")] + figures)))
    }

    /// The viewer's controls, once per page: views, zoom, finding the change, and each
    /// view's own setting. The script disables the views a case lacks images for.
    static func tools() -> HTMLNode {
        func mode(_ id: String, _ label: String, _ hint: String) -> HTMLNode {
            .tag("button", .attr("type", "button"), .attr("data-mode-to", id), .attr("title", hint),
                 .attr("aria-pressed", id == "side" ? "true" : "false"), .txt(label))
        }
        let zooms: [HTMLNode] = zoomLevels.map { level in
            .tag("button", .attr("type", "button"), .attr("data-zoom-to", level.value),
                 .attr("aria-pressed", level.value == "1" ? "true" : "false"),
                 .attr("title", level.hint), .txt(level.label))
        }
        return .tag("template", .attr("id", "viewer-tools"),
                    .tag("div", .cls("tools"),
                         .tag("span", .cls("seg"),
                              mode("side", "Side by side", "expected, actual and heatmap next to each other"),
                              mode("slider", "Slider", "wipe between expected (left) and actual (right); drag on the image"),
                              mode("blink", "Blink", "alternate expected and actual; click the image to flip by hand"),
                              mode("overlay", "Overlay", "the heatmap over the actual image")),
                         .tag("span", .cls("zoom"), .textElement("span", "muted", "Zoom"),
                              .tag("span", [.cls("seg small")] + zooms)),
                         .tag("button", .attr("type", "button"), .cls("find"), .attr("data-find", ""), .txt("Find change")),
                         .tag("label", .cls("only-slider"), .txt("Wipe "),
                              .void("input", [("type", "range"), ("min", "0"), ("max", "100"), ("value", "50"),
                                              ("data-wipe-input", "")])),
                         .tag("label", .cls("only-overlay"), .txt("Heatmap opacity "),
                              .void("input", [("type", "range"), ("min", "0"), ("max", "100"), ("value", "70"),
                                              ("data-alpha-input", "")])),
                         .tag("span", .cls("only-blink"),
                              .textElement("span", "blink-state", "showing expected"),
                              .tag("button", .attr("type", "button"), .attr("data-blink-toggle", ""), .txt("Pause"))),
                         .textElement("span", "xy", "")))
    }

    /// The zoom steps: one image pixel to zoom x zoom device pixels. Half size shows a
    /// 2x golden at its size in points on a 1x screen (smoothed, so not pixel-exact).
    static let zoomLevels: [(value: String, label: String, hint: String)] =
        [("0.5", "½", "half size: two image pixels per device pixel, smoothed")]
        + (1...8).map { ("\($0)", "\($0)", "\($0) × \($0) device pixels per image pixel") }

    static func regionText(_ g: ReportRegion) -> String {
        g.width == 1 && g.height == 1
            ? "the pixel at x \(g.x), y \(g.y)"
            : "x \(g.x)–\(g.x + g.width - 1), y \(g.y)–\(g.y + g.height - 1) (\(g.width) × \(g.height) px)"
    }

    private static func noImages(_ r: CaseResult) -> String {
        r.status == .missing || r.status == .new || r.status == .error
            ? "No image: the case could not be drawn, or the report could not save it."
            : "No images saved for this case."
    }

    private static func figure(_ path: String, kind: String, caption: String, note: String, region: ReportRegion?,
                               fallback: CaseResult? = nil, images: ReportImages) -> HTMLNode {
        // Sizes read from the files; the actual image's is known from the run.
        let size = images.sizes[path]
            ?? fallback.flatMap { $0.width > 0 ? ReportImageSize(width: $0.width, height: $0.height) : nil }
        var attributes = [("class", "px"), ("src", HTMLEscape.relativeURL(path)), ("alt", caption), ("loading", "lazy"),
                          ("draggable", "false")]
        if let size { attributes += [("width", "\(size.width)"), ("height", "\(size.height)")] }
        let sizeText = size.map { " \($0.width)×\($0.height)" } ?? ""
        return .tag("figure", .cls("f-\(kind)"),
                    .tag("a", .attr("href", HTMLEscape.relativeURL(path)), .attr("target", "_blank"), .void("img", attributes),
                         marker(region, size: size)),
                    .tag("figcaption", .txt(caption + " "), .textElement("small", "", note + sizeText)))
    }

    /// A frame around the changed pixels, in percent of the image so it follows the
    /// zoom. Left out when the change covers most of the image (it would frame it all)
    /// or the image is not the heatmap's size.
    private static func marker(_ region: ReportRegion?, size: ReportImageSize?) -> HTMLNode {
        guard let g = region, let size, size.width == g.imageWidth, size.height == g.imageHeight,
              g.width * g.height * 3 < g.imageWidth * g.imageHeight else { return .empty }
        func pc(_ v: Int, _ of: Int) -> String { cssNumber(Double(v) * 100 / Double(of), digits: 3) + "%" }
        return .tag("span", .cls("region"),
                    .attr("style", "left:\(pc(g.x, g.imageWidth));top:\(pc(g.y, g.imageHeight));"
                          + "width:\(pc(g.width, g.imageWidth));height:\(pc(g.height, g.imageHeight))"))
    }

    // MARK: Facts

    private static func stat(_ name: String, _ value: String, _ classes: String = "") -> HTMLNode {
        .tag("div", .tag("dt", .txt(name)), classes.isEmpty ? .tag("dd", .txt(value)) : .tag("dd", .cls(classes), .txt(value)))
    }

    /// The comparison's numbers, in the names summary.json uses, as one strip.
    static func metrics(_ r: CaseResult, images: ReportImages) -> HTMLNode {
        let region = images.changedRegions[r.id]
        guard let m = r.metrics else {
            // Nothing compared: say what each side measures, which shows a size change.
            let expected = r.artifacts.expected.flatMap { images.sizes[$0] }
            return .tag("dl", .cls("stats"),
                        expected.map { stat("expected", "\($0.width) × \($0.height)") } ?? .empty,
                        stat("actual", r.width > 0 ? "\(r.width) × \(r.height)" : "not drawn",
                             expected.map { $0.width != r.width || $0.height != r.height } ?? false ? "bad" : ""),
                        stat("compared", "no"),
                        stat("tolerance", r.tolerance))
        }
        return .tag("dl", .cls("stats"),
                    stat("width × height", "\(m.width) × \(m.height)"),
                    stat("differentPixels", "\(m.differentPixels) (\(percent(m.differentPixels, of: m.width * m.height)))",
                         m.differentPixels > 0 ? "bad" : ""),
                    stat("excused pixels", "\(m.excusedPixels)"),
                    stat("maxChannelDelta", "\(m.maxChannelDelta) of 255", m.maxChannelDelta > 0 ? "bad" : ""),
                    stat("meanAbsoluteError", String(format: "%.4f", m.meanAbsoluteError)),
                    stat("psnr", m.psnr.map { String(format: "%.2f dB", $0) } ?? "∞"),
                    stat("pass", m.pass ? "yes" : "no", m.pass ? "good" : "bad"),
                    stat("tolerance", m.tolerance),
                    region.map { stat("changed region", regionText($0)) } ?? .empty)
    }

    /// What the case draws and where its golden lives, as one wrapped line.
    static func drawn(_ r: CaseResult) -> HTMLNode {
        let c = r.goldenCase
        var items: [(String, String)] = [("skin", c.skinID), ("direction", c.direction.rawValue),
                                         ("scale", "@\(c.scale)x"), ("family", c.family.rawValue)]
        if let anchor = c.anchor { items.append(("anchor", anchor)) }
        if let orientation = c.orientation { items.append(("orientation", orientation.rawValue)) }
        if let size = c.sweepSize { items.append(("sweep size", size)) }
        items.append(("offset", IDNumber.signed(c.offset) + " pt"))
        if let time = c.keyboardTime { items.append(("keyboard time", IDNumber.plain(time * 1000) + " ms")) }
        items.append(("judged in", String(format: "%.0f ms", r.seconds * 1000)))
        return .tag("dl", [.cls("drawn"),
                           .tag("div", .cls("golden"), .tag("dt", .txt("golden")), .tag("dd", .cls("mono"), .txt(r.goldenPath)))]
                    + items.map { name, value in .tag("div", .tag("dt", .txt(name)), .tag("dd", .txt(value))) })
    }

    static func percent(_ n: Int, of total: Int) -> String {
        guard total > 0 else { return "–" }
        let p = Double(n) * 100 / Double(total)
        if n > 0 && p < 0.01 { return "<0.01 %" }
        return String(format: "%.2f %%", p)
    }

    // MARK: Legend

    /// The heatmap's colour scale: the gradient with its stops labelled, the grey of
    /// equal pixels and the colour of excused ones.
    static func legend() -> HTMLNode {
        let legend = Heatmap.legend
        let ticks: [HTMLNode] = legend.stops.map { stop in
            .tag("span", .cls("tick"), .attr("style", "left:\(cssNumber(stop.position * 100))%"),
                 .attr("title", "largest channel difference \(stop.value): \(stop.color)"), .txt(stop.label))
        }
        return .tag("div", .cls("legend"),
                    .textElement("span", "legend-title", "Heatmap"),
                    .tag("span", .cls("legend-scale"),
                         .tag("span", .cls("lg-bar"), .attr("style", "background:" + cssValue(legend.cssGradient)),
                              .attr("title", legend.scale)),
                         .tag("span", [.cls("ticks")] + ticks)),
                    .tag("span", .cls("legend-item"),
                         .tag("span", .cls("swatch"), .attr("style", "background:" + cssValue(legend.excusedColor))),
                         .txt(legend.excusedLabel)),
                    .tag("span", .cls("legend-item"),
                         .tag("span", .cls("swatch equal")),
                         .txt(legend.equalLabel)),
                    .textElement("span", "legend-note", "Colour: " + legend.scale + "."))
    }

    /// A short decimal for CSS: at most `digits` decimals, no trailing zeros.
    static func cssNumber(_ v: Double, digits: Int = 1) -> String {
        var text = String(format: "%.\(digits)f", v)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// A CSS value from elsewhere, kept to the characters colours and gradients use, so
    /// it can neither end its declaration nor the attribute.
    static func cssValue(_ text: String) -> String {
        String(text.unicodeScalars.filter { s in
            s.properties.isAlphabetic || ("0"..."9").contains(s) || " #%.,()-+".unicodeScalars.contains(s)
        }.map(Character.init))
    }
}
