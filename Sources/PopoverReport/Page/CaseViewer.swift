import Foundation
import PopoverDiff
import PopoverHarness

/// A case's images as one viewer: four layouts (side by side, slider, blink, overlay) of
/// the same three pictures, a zoom in whole device pixels, and a frame around the
/// changed region.
enum CaseViewer {
    /// The images with their views. The four views are layouts of the same images (CSS
    /// keyed on `data-mode`), so switching costs nothing and the page holds each image once.
    static func html(_ r: CaseResult) -> HTMLNode {
        let a = r.artifacts
        let region = r.changedRegion
        var figures: [HTMLNode] = []
        if let image = a.expected {
            figures.append(figure(image, kind: "expected", caption: "expected", note: "golden", region: region))
        }
        if let image = a.actual {
            figures.append(figure(image, kind: "actual", caption: "actual", note: "this run", region: region))
        }
        if let image = a.heatmap {
            figures.append(figure(image, kind: "heatmap", caption: "heatmap", note: "differences", region: region))
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
                 .attr("aria-pressed", id == "side" ? "true" : "false"), .text(label))
        }
        let zooms: [HTMLNode] = zoomLevels.map { level in
            .tag("button", .attr("type", "button"), .attr("data-zoom-to", level.value),
                 .attr("aria-pressed", level.value == "1" ? "true" : "false"),
                 .attr("title", level.hint), .text(level.label))
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
                         .tag("button", .attr("type", "button"), .cls("find"), .attr("data-find", ""), .text("Find change")),
                         .tag("label", .cls("only-slider"), .text("Wipe "),
                              .void("input", .attr("type", "range"), .attr("min", "0"), .attr("max", "100"),
                                    .attr("value", "50"), .attr("data-wipe-input", ""))),
                         .tag("label", .cls("only-overlay"), .text("Heatmap opacity "),
                              .void("input", .attr("type", "range"), .attr("min", "0"), .attr("max", "100"),
                                    .attr("value", "70"), .attr("data-alpha-input", ""))),
                         .tag("span", .cls("only-blink"),
                              .textElement("span", "blink-state", "showing expected"),
                              .tag("button", .attr("type", "button"), .attr("data-blink-toggle", ""), .text("Pause"))),
                         .textElement("span", "xy", "")))
    }

    /// The zoom steps: one image pixel to zoom x zoom device pixels. Half size shows a
    /// 2x golden at its size in points on a 1x screen (smoothed, so not pixel-exact).
    static let zoomLevels: [(value: String, label: String, hint: String)] =
        [("0.5", "½", "half size: two image pixels per device pixel, smoothed")]
        + (1...8).map { ("\($0)", "\($0)", "\($0) × \($0) device pixels per image pixel") }

    static func regionText(_ g: PixelRegion) -> String {
        g.width == 1 && g.height == 1
            ? "the pixel at x \(g.x), y \(g.y)"
            : "x \(g.x)–\(g.x + g.width - 1), y \(g.y)–\(g.y + g.height - 1) (\(g.width) × \(g.height) px)"
    }

    private static func noImages(_ r: CaseResult) -> String {
        r.status == .missing || r.status == .new || r.status == .error
            ? "No image: the case could not be drawn, or the report could not save it."
            : "No images saved for this case."
    }

    private static func figure(_ image: SavedImage, kind: String, caption: String, note: String,
                               region: PixelRegion?) -> HTMLNode {
        let url = HTMLEscape.relativeURL(image.path)
        return .tag("figure", .cls("f-\(kind)"),
                    .tag("a", .attr("href", url), .attr("target", "_blank"),
                         .void("img", .cls("px"), .attr("src", url), .attr("alt", caption), .attr("loading", "lazy"),
                               .attr("draggable", "false"), .attr("width", "\(image.width)"), .attr("height", "\(image.height)")),
                         marker(region, width: image.width, height: image.height)),
                    .tag("figcaption", .text(caption + " "), .textElement("small", "", note + " \(image.width)×\(image.height)")))
    }

    /// A frame around the changed pixels, in percent of the image so it follows the
    /// zoom. Left out when the change covers most of the image (it would frame it all).
    private static func marker(_ region: PixelRegion?, width: Int, height: Int) -> HTMLNode {
        guard let g = region, width > 0, height > 0, g.x + g.width <= width, g.y + g.height <= height,
              g.width * g.height * 3 < width * height else { return .empty }
        func pc(_ v: Int, _ of: Int) -> String { cssNumber(Double(v) * 100 / Double(of), digits: 3) + "%" }
        return .tag("span", .cls("region"),
                    .attr("style", "left:\(pc(g.x, width));top:\(pc(g.y, height));"
                          + "width:\(pc(g.width, width));height:\(pc(g.height, height))"))
    }

    /// The heatmap's colour scale: the gradient with its stops labelled, the grey of
    /// equal pixels and the colour of excused ones.
    static func legend() -> HTMLNode {
        let legend = Heatmap.legend
        let ticks: [HTMLNode] = legend.stops.map { stop in
            .tag("span", .cls("tick"), .attr("style", "left:\(cssNumber(stop.position * 100))%"),
                 .attr("title", "largest channel difference \(stop.value): \(stop.color)"), .text(stop.label))
        }
        return .tag("div", .cls("legend"),
                    .textElement("span", "legend-title", "Heatmap"),
                    .tag("span", .cls("legend-scale"),
                         .tag("span", .cls("lg-bar"), .attr("style", "background:" + cssValue(legend.cssGradient)),
                              .attr("title", legend.scale)),
                         .tag("span", [.cls("ticks")] + ticks)),
                    .tag("span", .cls("legend-item"),
                         .tag("span", .cls("swatch"), .attr("style", "background:" + cssValue(legend.excusedColor))),
                         .text(legend.excusedLabel)),
                    .tag("span", .cls("legend-item"), .tag("span", .cls("swatch equal")), .text(legend.equalLabel)),
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
