import Foundation
import PopoverDiff
import PopoverHarness

/// What the page's viewer needs from Swift: its zoom steps, the changed region in words,
/// what to say when a case has no images, and the heatmap's legend. The viewer itself
/// (expected, actual and heatmap side by side fitted to the window, with linked pan and
/// zoom, wipe, onion skin, blink and overlay) is the script's: it draws only the cases
/// on screen.
enum CaseViewer {
    /// The zoom steps besides "fit": one image pixel to so many device pixels. Below 1
    /// pixels merge (smoothed); from 1 up each is a square of whole device pixels.
    static let zoomSteps: [Double] = [0.125, 0.25, 0.5, 1, 2, 3, 4, 5, 6, 7, 8]

    static func regionText(_ g: PixelRegion) -> String {
        g.width == 1 && g.height == 1
            ? "the pixel at x \(g.x), y \(g.y)"
            : "x \(g.x)–\(g.x + g.width - 1), y \(g.y)–\(g.y + g.height - 1) (\(g.width) × \(g.height) px)"
    }

    static func noImages(_ r: CaseResult) -> String {
        r.status == .missing || r.status == .new || r.status == .error
            ? "No image: the case could not be drawn, or the report could not save it."
            : "No images saved for this case."
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
