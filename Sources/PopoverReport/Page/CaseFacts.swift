import Foundation
import PopoverDiff
import PopoverHarness

/// A case in words for the page: the few words that say how bad it is, the comparison's
/// numbers, and what it draws. Plain strings; the page's script places them.
enum CaseFacts {
    /// Whether a reviewer can take this case's actual image as its golden: it failed or
    /// had no golden, and the run kept an actual image with its digest.
    static func isAcceptable(_ r: CaseResult) -> Bool {
        r.status.isAcceptable && r.artifacts.actual?.digest != nil
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

    /// The comparison's numbers, in the names summary.json uses: name, value, and a mark
    /// ("bad", "good" or none).
    static func stats(_ r: CaseResult) -> [[String]] {
        guard let m = r.metrics else {
            // Nothing compared: say what each side measures, which shows a size change.
            let expected = r.artifacts.expected
            let sizesDiffer = expected.map { $0.width != r.width || $0.height != r.height } ?? false
            return (expected.map { [["expected", "\($0.width) × \($0.height)", ""]] } ?? [])
                + [["actual", r.width > 0 ? "\(r.width) × \(r.height)" : "not drawn", sizesDiffer ? "bad" : ""],
                   ["compared", "no", ""], ["tolerance", r.tolerance, ""]]
        }
        return [["width × height", "\(m.width) × \(m.height)", ""],
                ["differentPixels", "\(m.differentPixels) (\(percent(m.differentPixels, of: m.width * m.height)))",
                 m.differentPixels > 0 ? "bad" : ""],
                ["excused pixels", "\(m.excusedPixels)", ""],
                ["maxChannelDelta", "\(m.maxChannelDelta) of 255", m.maxChannelDelta > 0 ? "bad" : ""],
                ["meanAbsoluteError", m.meanAbsoluteErrorText, ""],
                ["psnr", m.psnr == nil ? "∞" : m.psnrText, ""],
                ["pass", m.pass ? "yes" : "no", m.pass ? "good" : "bad"],
                ["tolerance", m.tolerance, ""]]
            + (r.changedRegion.map { [["changed region", CaseViewer.regionText($0), ""]] } ?? [])
    }

    /// What the case draws and where its golden lives: name, value.
    static func drawn(_ r: CaseResult) -> [[String]] {
        let c = r.info
        var items: [[String]] = [["golden", r.goldenPath], ["skin", c.skin], ["direction", c.direction.rawValue],
                                 ["scale", "@\(c.scale)x"], ["family", c.family.rawValue]]
        if let anchor = c.anchor { items.append(["anchor", anchor]) }
        if let orientation = c.orientation { items.append(["orientation", orientation.rawValue]) }
        if let size = c.sweepSize { items.append(["sweep size", size]) }
        items.append(["offset", IDNumber.signed(c.offset) + " pt"])
        if let time = c.keyboardTime { items.append(["keyboard time", IDNumber.plain(time * 1000) + " ms"]) }
        items.append(["judged in", String(format: "%.0f ms", r.seconds * 1000)])
        return items
    }

    static func percent(_ n: Int, of total: Int) -> String {
        guard total > 0 else { return "–" }
        let p = Double(n) * 100 / Double(total)
        if n > 0 && p < 0.01 { return "<0.01 %" }
        return String(format: "%.2f %%", p)
    }
}
