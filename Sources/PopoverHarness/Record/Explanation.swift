import PopoverGeometry
import PopoverSkins

/// Causes in words, and the keys that group them into changes.
///
/// A case's line leads with what a person sees (the image chosen switched, where the
/// arrow tip went, a stretch seam moved, the colour of a part), then names each changed
/// fact with its values, the skin's inputs first by their field
/// (`sideArrowCenterOffset 7 -> 8`), then what follows from them (`derived: ...`
/// only in the table; the line names them in words). Every differing fact is in the
/// case's table (`table`), so the line can stop at a few.
///
/// Facts counted in device pixels (`pixelX`, `pixelWidth`, ...) follow from facts in
/// points and the scale; they are left out of lines and keys, so a change reads the
/// same, and groups together, at every scale.
public enum Explanation {
    // MARK: Cases

    /// The line for one case, from its status, cause and metrics.
    static func line(status: CaseStatus, cause: CaseCause?, maxChannelDelta: Int?, message: String) -> String {
        switch status {
        case .missing: return "no golden yet: a new case (accepting it records one)"
        case .new: return "no golden before this run: a new case, recorded by the run (accept keeps it, reject removes it)"
        case .error: return "could not be judged: " + message
        default: break
        }
        guard let cause else { return message }
        if cause.facts == .recorded {
            let deltas = told(cause.geometry)
            let phrases = seen(deltas, cause: cause, withValues: true)
                + deltas.filter(isInput(cause)).map { phrase($0, withValues: true, cause: cause) }
                + deltas.filter { !isInput(cause)($0) && !seenFacts.contains($0.fact) }.map { phrase($0, withValues: true, cause: cause) }
            if !phrases.isEmpty {
                let drawn = deltas.allSatisfy(isInput(cause)) ? "; " + drawing(cause, maxChannelDelta: maxChannelDelta) : ""
                return joined(phrases) + drawn
            }
            return "geometry unchanged: " + drawing(cause, maxChannelDelta: maxChannelDelta) + few(cause)
        }
        return factsWord(cause.facts) + "; " + drawing(cause, maxChannelDelta: maxChannelDelta) + few(cause)
    }

    /// Every differing fact, for the case's table: name, expected, actual, and whether it
    /// is an input, part of the case, or derived. Numbers to a thousandth.
    public static func table(_ cause: CaseCause) -> [[String]] {
        cause.geometry.map { d in
            let field = FactNames.inputField(d.fact, sameImage: FactNames.sameImage(cause, drawnImage: cause.image))
            return [FactNames.name(d.fact, sameImage: FactNames.sameImage(cause, drawnImage: cause.image)),
                    d.expected.map(text) ?? "—", d.actual.map(text) ?? "—",
                    field != nil ? "input" : FactNames.isCaseFact(d.fact) ? "case" : "derived"]
        }
    }

    // MARK: What a person sees

    /// What the deltas look like: the image switched, where the arrow tip went, a
    /// stretch seam moved, the canvas grew.
    /// The facts `seen` says in words, left out of the phrases after it.
    static let seenFacts: Set<String> = ["image", "apex.x", "apex.y"]

    static func seen(_ deltas: [CaseCause.Delta], cause: CaseCause, withValues: Bool = false) -> [String] {
        var out: [String] = []
        if let image = deltas.first(where: { $0.fact == "image" }) {
            out.append("the image switched from \(image.expected.map(text) ?? "none") to \(image.actual.map(text) ?? "none")")
        }
        for axis in ["x", "y"] {
            guard let apex = deltas.first(where: { $0.fact == "apex." + axis }), let amount = apex.amount else { continue }
            let way = axis == "x" ? (amount > 0 ? "right" : "left") : (amount > 0 ? "down" : "up")
            let values = withValues ? " (\(axis) \(apex.expected.map(text) ?? "none") -> \(apex.actual.map(text) ?? "none"))" : ""
            out.append("the arrow tip moved \(rounded(abs(amount))) pt \(way)" + values)
        }
        let stages = deltas.filter { $0.fact.hasPrefix("stages[") }
        if stages.contains(where: { $0.fact.contains(".insets.") }) {
            out.append("a stretch seam moved")
        } else if !stages.isEmpty {
            out.append("a stretch changed length")
        }
        let canvas = deltas.filter { $0.fact == "canvas.width" || $0.fact == "canvas.height" }
        if !canvas.isEmpty {
            let grew = canvas.allSatisfy { ($0.amount ?? 0) > 0 }, shrank = canvas.allSatisfy { ($0.amount ?? 0) < 0 }
            out.append(grew ? "the image grew" : shrank ? "the image shrank" : "the image changed size")
        }
        return out
    }

    // MARK: Changes

    /// What groups cases into one change: the kind, a key equal for cases of one cause,
    /// the line that says it, and the key of the amounts (the variant within the change).
    struct Signature: Hashable {
        var kind: String
        var key: String
        var explanation: String
    }

    /// The skin inputs that differ, both sides recorded: the edit the case shows. A fact
    /// only the drawing has (recorded before it existed) is no edit.
    static func edits(_ cause: CaseCause?, skin: String) -> [Change.Edit] {
        guard let cause, cause.facts == .recorded else { return [] }
        let image = FactNames.sameImage(cause, drawnImage: cause.image)
        var edits: [Change.Edit] = []
        for d in cause.geometry {
            guard let e = d.expected, let a = d.actual, var field = FactNames.inputField(d.fact, sameImage: image) else { continue }
            if field == "images.fileDigest" {
                // What a person edited is the image's file; its digest only says that it changed.
                field = "the \(cause.image ?? "chosen") image's artwork file (digest)"
            }
            edits.append(Change.Edit(skin: skin, field: field, expected: text(e), actual: text(a)))
        }
        return edits
    }

    /// The cause's key: for a skin's edit, the edit; with no input changed, the kinds and
    /// signs of the geometry's deltas (not their amounts); with unchanged geometry, the
    /// parts and which way the colour went.
    static func signature(status: CaseStatus, cause: CaseCause?, message: String, goldenPath: String, id: String,
                          skin: String) -> Signature {
        switch status {
        case .missing, .new:
            return Signature(kind: "new", key: "new " + skin, explanation: "\(skin): new cases, no golden before")
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
        let edits = edits(cause, skin: skin)
        if !edits.isEmpty {
            let said = edits.map { "\($0.field) \($0.expected) -> \($0.actual)" }
            return Signature(kind: "input", key: "input \(skin) " + said.joined(separator: "; "),
                             explanation: "\(skin): " + said.joined(separator: "; "))
        }
        let deltas = told(cause.geometry)
        if deltas.isEmpty {
            return Signature(kind: "drawing", key: character, explanation: "geometry unchanged: " + drawing(cause, maxChannelDelta: nil))
        }
        var kinds: [String] = []
        for d in deltas {
            let sign = d.amount.map { $0 > 0 ? "+" : "-" } ?? "changed"
            let k = d.fact + " " + sign
            if !kinds.contains(k) { kinds.append(k) }
        }
        return Signature(kind: "geometry", key: kinds.joined(separator: "; "), explanation: "no skin input changed")
    }

    /// The amounts of a cause: the variant within its change, and its line.
    static func variant(_ cause: CaseCause?, line: String) -> String {
        guard let cause, cause.facts == .recorded else { return line }
        let deltas = told(cause.geometry).filter { !isInput(cause)($0) }
        if deltas.isEmpty { return "geometry unchanged: " + drawing(cause, maxChannelDelta: nil) }
        return joined(seen(deltas, cause: cause) + deltas.filter { !seenFacts.contains($0.fact) }.map { phrase($0, withValues: false, cause: cause) })
    }

    // MARK: Phrases

    /// The deltas worth telling, root cause first; the pixel-counted ones only when
    /// nothing else changed; facts only the drawing has (recorded before they existed)
    /// left out.
    static func told(_ deltas: [CaseCause.Delta]) -> [CaseCause.Delta] {
        let known = deltas.filter { !($0.fact.hasPrefix("skin.") && ($0.expected == nil || $0.actual == nil)) }
        let inPoints = known.filter { !$0.fact.split(separator: ".").contains { $0.hasPrefix("pixel") } }
        let chosen = inPoints.isEmpty ? known : inPoints
        return chosen.enumerated().sorted { (rank($0.element.fact), $0.offset) < (rank($1.element.fact), $1.offset) }.map(\.element)
    }

    static func isInput(_ cause: CaseCause) -> (CaseCause.Delta) -> Bool {
        let image = FactNames.sameImage(cause, drawnImage: cause.image)
        return { FactNames.inputField($0.fact, sameImage: image) != nil }
    }

    static let topics = ["skin", "metrics", "placement", "keyframe", "bounds", "offset", "direction", "image", "mirrored", "apex",
                         "stages", "canvas", "shadow"]

    static func rank(_ fact: String) -> Int {
        let head = String(fact.prefix { $0 != "." && $0 != "[" })
        return topics.firstIndex(of: head) ?? topics.count
    }

    static func phrase(_ d: CaseCause.Delta, withValues: Bool, cause: CaseCause) -> String {
        let parts = d.fact.split(separator: ".").map(String.init)
        let values = " " + (d.expected.map(text) ?? "none") + " -> " + (d.actual.map(text) ?? "none")
        let amount = d.amount.map { signed($0) + " pt" }
        func said(_ name: String, unit: String = " pt") -> String {
            if withValues { return name + values + (d.amount == nil ? "" : unit) }
            return name + " " + (d.amount.map { signed($0) + unit } ?? (d.expected.map(text) ?? "none") + " -> " + (d.actual.map(text) ?? "none"))
        }
        if let field = FactNames.inputField(d.fact, sameImage: FactNames.sameImage(cause, drawnImage: cause.image)) {
            return field + values
        }
        switch parts.first ?? "" {
        case "bounds", "canvas", "shadow":
            return said(parts.joined(separator: " "))
        case "apex" where parts.count == 2 && (parts[1] == "x" || parts[1] == "y"):
            guard let amount else { return said("arrow apex " + parts[1]) }
            return "arrow apex moved \(amount)" + (withValues ? " (\(parts[1])\(values))" : " along \(parts[1])")
        case "metrics":
            // A metric of the image chosen, when another image was chosen: it follows.
            return said("the chosen image's " + parts.dropFirst().joined(separator: " "), unit: " pt")
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

    /// At most five phrases, then how many more facts the case's table holds.
    static func joined(_ phrases: [String]) -> String {
        var unique: [String] = []
        for p in phrases where !unique.contains(p) { unique.append(p) }
        let shown = unique.prefix(5).joined(separator: "; ")
        return unique.count > 5 ? shown + "; \(unique.count - 5) more in the table of differing facts" : shown
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
        case .missing: "no facts recorded for its golden (the run's notes say how to add them)"
        case .stale: "the golden file changed since its facts were recorded (edited by hand, or by another tool)"
        case .unreadable: "its golden's facts file cannot be read"
        }
    }

    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
    }

    /// A fact's value, numbers to a thousandth (a thousandth of a point is below what any
    /// scale draws).
    static func text(_ value: FactValue) -> String {
        if let v = value.number { return rounded(v) }
        return value.description
    }

    /// A number to a thousandth, as plain text.
    public static func rounded(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return plainNumber(r == 0 ? 0 : r)
    }

    static func signed(_ v: Double) -> String {
        let r = rounded(v)
        return (v * 1000).rounded() > 0 ? "+" + r : r
    }
}
