import PopoverGeometry
import PopoverSkins

/// Causes in words, and the signatures that group them into changes.
///
/// A case's line names each changed fact with its values (`arrow apex moved +1 pt (x 120.5
/// -> 121.5); stage 1 width 136 -> 137 pt`); a change's line names what its members
/// share, the amounts (`arrow apex moved +1 pt along x; stage 1 width +1 pt`). Facts are
/// told root cause first: the skin's metrics, then where the popover was placed, what was
/// asked, the image chosen, the apex, the stretches, the canvas, the shadow.
///
/// Facts counted in device pixels (`pixelX`, `pixelWidth`, ...) follow from facts in
/// points and the scale; they are left out of lines and signatures, so a change reads the
/// same, and groups together, at every scale.
enum Explanation {
    // MARK: Cases

    /// The line for one case, from its status, cause and metrics.
    static func line(status: CaseStatus, cause: CaseCause?, maxChannelDelta: Int?, message: String) -> String {
        switch status {
        case .missing: return "no golden yet: a new case (accepting it records one)"
        case .error: return "could not be judged: " + message
        default: break
        }
        guard let cause else { return message }
        if cause.facts == .recorded {
            let phrases = told(cause.geometry).map { phrase($0, withValues: true) }
            if !phrases.isEmpty { return joined(phrases) }
            return "geometry unchanged: " + drawing(cause, maxChannelDelta: maxChannelDelta) + few(cause)
        }
        return factsWord(cause.facts) + "; " + drawing(cause, maxChannelDelta: maxChannelDelta) + few(cause)
    }

    // MARK: Changes

    /// What groups cases into one change: the kind, a key equal for cases that share the
    /// kinds and amounts of their geometry deltas (or, with unchanged geometry, the parts
    /// and strength of the pixel change), and the line that says it.
    struct Signature: Hashable {
        var kind: String
        var key: String
        var explanation: String
    }

    static func signature(status: CaseStatus, cause: CaseCause?, maxChannelDelta: Int?, message: String,
                          goldenPath: String, id: String) -> Signature {
        switch status {
        case .missing:
            return Signature(kind: "new", key: "new", explanation: "no golden yet: new cases (accepting records them)")
        case .error:
            // The same problem in different files is one kind of problem.
            let general = message.replacingOccurrences(of: goldenPath, with: "<golden>").replacingOccurrences(of: id, with: "<case>")
            return Signature(kind: "error", key: "error " + general, explanation: "could not be judged: " + general)
        default: break
        }
        guard let cause else {
            return Signature(kind: "unexplained", key: "no cause", explanation: "unexplained")
        }
        // A drawing change is told apart by where it is and which way the colour went,
        // not by how far (that varies with coverage and scale).
        let character = "parts \(cause.parts.map(\.rawValue).joined(separator: ",")) colour \(cause.colour ?? "size")"
        guard cause.facts == .recorded else {
            return Signature(kind: "unexplained", key: "facts \(cause.facts.rawValue) \(character)",
                             explanation: factsWord(cause.facts) + "; " + drawing(cause, maxChannelDelta: nil))
        }
        let deltas = told(cause.geometry)
        if deltas.isEmpty {
            return Signature(kind: "drawing", key: character,
                             explanation: "geometry unchanged: " + drawing(cause, maxChannelDelta: nil))
        }
        let key = deltas.map { delta in
            if let amount = delta.amount { return delta.fact + " " + signed(amount) }
            return delta.fact + " " + (delta.expected?.description ?? "none") + ">" + (delta.actual?.description ?? "none")
        }.joined(separator: "; ")
        return Signature(kind: "geometry", key: key, explanation: joined(deltas.map { phrase($0, withValues: false) }))
    }

    // MARK: Phrases

    /// The deltas worth telling, root cause first; the pixel-counted ones only when
    /// nothing else changed.
    static func told(_ deltas: [CaseCause.Delta]) -> [CaseCause.Delta] {
        let inPoints = deltas.filter { !$0.fact.split(separator: ".").contains { $0.hasPrefix("pixel") } }
        let chosen = inPoints.isEmpty ? deltas : inPoints
        return chosen.enumerated().sorted { (rank($0.element.fact), $0.offset) < (rank($1.element.fact), $1.offset) }.map(\.element)
    }

    static let topics = ["metrics", "placement", "keyframe", "bounds", "offset", "direction", "image", "mirrored", "apex",
                         "stages", "canvas", "shadow"]

    static func rank(_ fact: String) -> Int {
        let head = String(fact.prefix { $0 != "." && $0 != "[" })
        return topics.firstIndex(of: head) ?? topics.count
    }

    static func phrase(_ d: CaseCause.Delta, withValues: Bool) -> String {
        let parts = d.fact.split(separator: ".").map(String.init)
        let values = " " + (d.expected.map(text) ?? "none") + " -> " + (d.actual.map(text) ?? "none")
        let amount = d.amount.map { signed($0) + " pt" }
        func said(_ name: String, unit: String = " pt") -> String {
            if withValues { return name + values + (d.amount == nil ? "" : unit) }
            return name + " " + (d.amount.map { signed($0) + unit } ?? (d.expected.map(text) ?? "none") + " -> " + (d.actual.map(text) ?? "none"))
        }
        switch parts.first ?? "" {
        case "bounds", "canvas", "shadow":
            return said(parts.joined(separator: " "))
        case "apex" where parts.count == 2 && (parts[1] == "x" || parts[1] == "y"):
            guard let amount else { return said("arrow apex " + parts[1]) }
            return "arrow apex moved \(amount)" + (withValues ? " (\(parts[1])\(values))" : " along \(parts[1])")
        case "metrics":
            return said("metric " + parts.dropFirst().joined(separator: " "), unit: "")
        case let head where head.hasPrefix("stages["):
            // "stages[0].width" -> "stage 1 width"; "stages[1].insets.left" -> "stage 2 left cap"
            let index = Int(parts[0].dropFirst("stages[".count).dropLast()).map { $0 + 1 } ?? 0
            let rest = parts.dropFirst()
            let name = rest.first == "insets" ? "stage \(index) \(rest.dropFirst().joined(separator: " ")) cap"
                : "stage \(index) " + rest.joined(separator: " ")
            if d.expected == nil { return "stage \(index) added" }
            if d.actual == nil { return "stage \(index) removed" }
            return said(name)
        case "placement", "keyframe":
            return said(parts.joined(separator: " "), unit: parts.last == "direction" || parts.count < 2 ? "" : " pt")
        case "offset": return said("arrow offset")
        case "image", "direction": return said(parts[0], unit: "")
        case "mirrored": return said("mirrored", unit: "")
        default: return said(d.fact, unit: "")
        }
    }

    /// At most four phrases, then how many more.
    static func joined(_ phrases: [String]) -> String {
        var unique: [String] = []
        for p in phrases where !unique.contains(p) { unique.append(p) }
        let shown = unique.prefix(4).joined(separator: "; ")
        return unique.count > 4 ? shown + "; and \(unique.count - 4) more" : shown
    }

    /// "the drawing changed in the arrow and border (redder, max channel delta 7)"; for a
    /// change of many cases the delta, which differs between them, is left out.
    static func drawing(_ cause: CaseCause, maxChannelDelta: Int?) -> String {
        guard let colour = cause.colour else { return "the image size changed" }
        let where_ = cause.parts.isEmpty ? "" : " in the " + list(cause.parts.map(\.rawValue))
        return "the drawing changed\(where_) (\(colour)" + (maxChannelDelta.map { ", max channel delta \($0)" } ?? "") + ")"
    }

    static func few(_ cause: CaseCause) -> String {
        cause.fewPixelsIn.isEmpty ? "" : "; a few pixels in the " + list(cause.fewPixelsIn.map(\.rawValue))
    }

    static func factsWord(_ standing: FactsStanding) -> String {
        switch standing {
        case .recorded: "facts recorded"
        case .missing: "no facts recorded for its golden (`popover-goldens record` adds them)"
        case .stale: "its golden's facts are stale (the golden changed since they were recorded)"
        case .unreadable: "its golden's facts file cannot be read"
        }
    }

    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
    }

    static func text(_ value: FactValue) -> String { value.description }

    static func signed(_ v: Double) -> String {
        let rounded = (v * 1e6).rounded() / 1e6
        return rounded > 0 ? "+" + plainNumber(rounded) : plainNumber(rounded)
    }
}
