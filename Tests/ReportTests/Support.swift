import Foundation
import PopoverHarness
import PopoverImage
import PopoverReport
import TestSupport

/// Cheap pictures: every case draws a small image of its own (size and colours from a
/// hash of its ID), so hundreds of cases run in well under a second and no two goldens
/// are alike.
enum Swatch {
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h
    }

    static func image(for id: String, grow: Int = 0) -> RGBAImage {
        let h = hash(id)
        let w = 8 + Int(h % 8) + grow, ht = 6 + Int((h >> 8) % 8) + grow
        var pixels = [UInt8](repeating: 0, count: w * ht * 4)
        for y in 0..<ht {
            for x in 0..<w {
                let o = (y * w + x) * 4
                pixels[o] = UInt8(truncatingIfNeeded: h >> 16) &+ UInt8(x * 9)
                pixels[o + 1] = UInt8(truncatingIfNeeded: h >> 24) &+ UInt8(y * 13)
                pixels[o + 2] = UInt8(truncatingIfNeeded: h >> 32)
                pixels[o + 3] = 255
            }
        }
        return RGBAImage(width: w, height: ht, pixels: pixels)
    }

    /// `image` with the pixel at (x, y) turned pure red.
    static func marked(_ image: RGBAImage, x: Int = 1, y: Int = 1) -> RGBAImage {
        var copy = image
        let o = (y * image.width + x) * 4
        copy.pixels.replaceSubrange(o..<(o + 4), with: [255, 0, 0, 255])
        return copy
    }
}

/// Faults a check injects by ID.
struct Faults: Sendable {
    /// One pixel changed: fails with a heatmap.
    var changed: Set<String> = []
    /// Drawn two pixels larger each way: fails without a heatmap (sizes differ).
    var resized: Set<String> = []
}

/// Records goldens for `filter` with swatches, then checks them with `faults`
/// (and whatever the test did to the goldens in `prepare`), publishing the check's
/// report in `<scratch>/reports`.
func recordThenCheck(_ scratch: TemporaryFolder, filter: String, faults: Faults = Faults(),
                     imagesForPassingCases: Bool = false,
                     prepare: (_ goldens: String, _ recorded: RunRecord) throws -> Void = { _, _ in }) throws -> RunRecord {
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
    var options = checkOptions(goldens: scratch.file("goldens"), mode: .all, filter: filter, cache: scratch.file("cache"))
    options.jobs = 2
    var recorder = CheckRunner(catalog: catalog, options: options)
    recorder.draw = { c in Swatch.image(for: c.id) }
    let recorded = try recorder.run()
    try prepare(options.goldensFolder, recorded)

    options.recordMode = .never
    options.keepsImagesOfPassingCases = imagesForPassingCases
    var checker = CheckRunner(catalog: catalog, options: options)
    checker.draw = { c in
        if faults.resized.contains(c.id) { return Swatch.image(for: c.id, grow: 2) }
        let image = Swatch.image(for: c.id)
        return faults.changed.contains(c.id) ? Swatch.marked(image) : image
    }
    return try publishing(checker, to: scratch.file("reports"))
}

/// Runs `runner` with its pictures kept in a report folder at `reports`, and publishes
/// the report there.
func publishing(_ runner: CheckRunner, to reports: String, cases: [GoldenCase]? = nil) throws -> RunRecord {
    let checked = try ReportFolder(reports).check(runner, cases: cases)
    guard checked.report != nil else { throw PublishFailed(description: checked.run.errors.last ?? "not published") }
    return checked.run
}

struct PublishFailed: Error, CustomStringConvertible {
    let description: String
}

/// Reading the page back.
struct Page {
    let html: String
    let folder: String

    init(folder: String) throws {
        self.folder = folder
        html = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
    }

    /// A page rendered in memory (its files named relative to no folder).
    init(html: String) {
        self.folder = ""
        self.html = html
    }

    /// Every value of `attribute` in the page, as written (still escaped).
    func values(of attribute: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "\\s\(attribute)=\"([^\"]*)\"")
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { String(html[Range($0.range(at: 1), in: html)!]) }
    }

    /// The `src` of every `<img>`.
    var imageSources: [String] {
        let pattern = try! NSRegularExpression(pattern: "<img\\s[^>]*?src=\"([^\"]*)\"")
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { String(html[Range($0.range(at: 1), in: html)!]) }
    }

    /// The text of the page's data block (`<script type="application/json" id="report-data">`).
    var dataText: String? {
        let open = "<script type=\"application/json\" id=\"report-data\">"
        guard let start = html.range(of: open), let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// The data block, decoded as JSON.
    var data: [String: Any] {
        guard let text = dataText, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return [:] }
        return object
    }

    /// The cases needing attention the page draws, in its order.
    var cases: [[String: Any]] { data["cases"] as? [[String: Any]] ?? [] }

    /// The data of the case `id`, or nil when the page holds none for it.
    func caseData(_ id: String) -> [String: Any]? { cases.first { $0["id"] as? String == id } }

    /// The `src` of a case's image of `kind` ("expected", "actual", "heatmap", "thumb"):
    /// its own, or the case's `base` followed by `.<kind>.png` (`.thumbnail.png`).
    static func imageSource(_ c: [String: Any], _ kind: String) -> String? {
        guard let image = c[kind] as? [String: Any] else { return nil }
        if let src = image["src"] as? String { return src }
        return (c["base"] as? String).map { $0 + "." + (kind == "thumb" ? "thumbnail" : kind) + ".png" }
    }

    /// The `src` of every image the data names (thumbnails, expected, actual, heatmaps).
    var dataImageSources: [String] {
        cases.flatMap { c in ["thumb", "expected", "actual", "heatmap"].compactMap { Self.imageSource(c, $0) } }
    }

    /// What the report leaves unencoded in anchors and image paths.
    static let anchorCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/@+")

    /// Turns an attribute value back into text (the five escapes the report writes).
    static func unescape(_ value: String) -> String {
        value.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The file a relative `src` or `href` names, or nil when it is not a relative path.
    func file(for reference: String) -> String? {
        let url = Self.unescape(reference)
        guard !url.isEmpty, !url.hasPrefix("/"), !url.hasPrefix("#"), !url.contains(":") || url.hasPrefix("./"),
              let path = url.removingPercentEncoding else { return nil }
        return folder + "/" + path
    }
}

func countOccurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}
