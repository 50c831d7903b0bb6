import Foundation
import PopoverImage

extension RunRecord {
    /// Groups the failing and new cases into changes, one cause each (docs/changes.md):
    /// cases showing the same edit of a skin's inputs are one change whatever amounts
    /// the edit gave them (those are its variants); with no input changed, cases whose
    /// geometry moved in the same kinds of facts the same ways, or whose drawing changed
    /// in the same parts the same way. A skin's new cases join that skin's edit when it
    /// has one (an edit can rename cases: sweep offsets move with `arrowBase`), with the
    /// orphans they replace. Sets `changes`, ordered by how much the picture changed, and
    /// each member's `change`; computed from the cases alone, so merged shards group
    /// across machines as one run would.
    public mutating func groupChanges() {
        var groups: [Explanation.Signature: [Int]] = [:]
        var order: [Explanation.Signature] = []
        var newBySkin: [String: [Int]] = [:]
        for (i, result) in results.enumerated() {
            results[i].change = nil
            guard result.status.isFailure || result.status == .new else { continue }
            let signature = Explanation.signature(status: result.status, cause: result.cause, message: result.message,
                                                  goldenPath: result.goldenPath, id: result.id, skin: result.info.skin)
            if signature.kind == "new" {
                newBySkin[result.info.skin, default: []].append(i)
                continue
            }
            if groups[signature] == nil { order.append(signature) }
            groups[signature, default: []].append(i)
        }
        // New cases: with their skin's one edit, else a change of their own per skin.
        var newMembers: [Explanation.Signature: [Int]] = [:]
        for (skin, indices) in newBySkin.sorted(by: { $0.key < $1.key }) {
            let edits = order.filter { $0.kind == "input" && results[groups[$0]![0]].info.skin == skin }
            if edits.count == 1 {
                newMembers[edits[0]] = indices
            } else {
                let signature = Explanation.signature(status: .new, cause: nil, message: "", goldenPath: "", id: "", skin: skin)
                order.append(signature)
                groups[signature] = []
                newMembers[signature] = indices
            }
        }
        var claimed = Set<String>()
        let built = order.map { signature in
            change(signature, failing: groups[signature]!, new: newMembers[signature] ?? [], claimed: &claimed)
        }
        changes = built.sorted { a, b in
            if (a.kind == "error") != (b.kind == "error") { return b.kind == "error" }
            if a.magnitude.area != b.magnitude.area { return a.magnitude.area > b.magnitude.area }
            if a.cases.count != b.cases.count { return a.cases.count > b.cases.count }
            return a.id < b.id
        }
        let index = Dictionary(results.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for change in changes {
            for id in change.cases { if let i = index[id] { results[i].change = change.id } }
        }
    }

    /// One change: its members, variants, facts, scope, magnitude and command.
    private func change(_ signature: Explanation.Signature, failing: [Int], new: [Int], claimed: inout Set<String>) -> Change {
        let id = "c" + String(SHA256.hex(Array((signature.kind + "\n" + signature.key).utf8)).prefix(8))
        let indices = (failing + new).sorted()
        let members = indices.map { results[$0] }
        var change = Change(id: id, explanation: signature.explanation, kind: signature.kind, cases: members.map(\.id))
        change.edits = failing.first.map { Explanation.edits(results[$0].cause, skin: results[$0].info.skin) } ?? []
        change.skins = Array(Set(members.map(\.info.skin))).sorted()
        change.directions = Array(Set(members.map(\.info.direction.rawValue))).sorted()
        change.scales = Array(Set(members.map(\.info.scale))).sorted()
        change.families = Array(Set(members.map(\.info.family.rawValue))).sorted()
        change.newCases = new.map { results[$0].id }

        // The amounts: each member's line without the edit, counted.
        var variants: [String: (count: Int, example: String)] = [:]
        var variantOrder: [String] = []
        for r in failing.map({ results[$0] }) {
            let line = signature.kind == "input" || signature.kind == "geometry"
                ? Explanation.variant(r.cause, line: signature.explanation) : signature.explanation
            if variants[line] == nil { variantOrder.append(line) }
            variants[line, default: (0, r.id)].count += 1
        }
        if !new.isEmpty {
            let line = "new cases, no golden before this run"
            variantOrder.append(line)
            variants[line] = (new.count, results[new[0]].id)
        }
        change.variants = variantOrder.map { Change.Variant(explanation: $0, count: variants[$0]!.count, example: variants[$0]!.example) }
            .sorted { $0.count > $1.count }

        // Every differing fact, with how far it moved.
        var spans: [String: Change.FactSpan] = [:]
        for r in members {
            guard let cause = r.cause else { continue }
            let image = FactNames.sameImage(cause, drawnImage: cause.image)
            for d in cause.geometry {
                var span = spans[d.fact] ?? Change.FactSpan(fact: d.fact, name: FactNames.name(d.fact, sameImage: image),
                                                            input: FactNames.inputField(d.fact, sameImage: image) != nil,
                                                            cases: 0, least: nil, most: nil)
                span.cases += 1
                if let amount = d.amount {
                    span.least = min(span.least ?? amount, amount)
                    span.most = max(span.most ?? amount, amount)
                }
                spans[d.fact] = span
            }
        }
        change.facts = spans.values.sorted { (Explanation.rank($0.fact), $0.fact) < (Explanation.rank($1.fact), $1.fact) }

        // How much the picture changed; how far: the arrow tip's largest move, or without
        // one the largest move of another fact in points.
        var otherMove = 0.0
        for r in members {
            let pixels = r.metrics?.differentPixels ?? (r.status == .failed && r.cause?.colour != nil ? 0 : r.width * r.height)
            change.magnitude.pixels += pixels
            change.magnitude.area += Double(pixels) / Double(max(1, r.info.scale * r.info.scale))
            change.magnitude.channel = max(change.magnitude.channel, r.metrics?.maxChannelDelta ?? 0)
            for d in Explanation.told(r.cause?.geometry ?? []) where !FactNames.isCaseFact(d.fact) && !d.fact.hasPrefix("skin.")
                && !d.fact.hasPrefix("metrics.") {
                guard let amount = d.amount else { continue }
                let move = (abs(amount) * 1000).rounded() / 1000
                if d.fact == "apex.x" || d.fact == "apex.y" {
                    change.magnitude.points = max(change.magnitude.points, move)
                } else {
                    otherMove = max(otherMove, move)
                }
            }
        }
        if change.magnitude.points == 0 { change.magnitude.points = otherMove }

        // The orphans its new cases replace: same skin, direction, scale and case apart
        // from the arrow offset.
        let stems = Set(new.map { Self.stem(results[$0].id) })
        change.orphans = orphans.filter { !claimed.contains($0) && stems.contains(Self.stem($0)) }
        claimed.formUnion(change.orphans)

        change.explanation = headline(signature, change: change, members: members)
        change.command = acceptCommand(change)
        return change
    }

    /// A case ID without its arrow offset: `gik-default/up/sweep-120x104@2x`.
    static func stem(_ id: String) -> String {
        guard let offset = id.range(of: "-offset", options: .backwards), let at = id.range(of: "@", options: .backwards),
              offset.upperBound <= at.lowerBound else { return id }
        return String(id[..<offset.lowerBound]) + String(id[at.lowerBound...])
    }

    /// The change's line, leading with what a person sees over all its members.
    private func headline(_ signature: Explanation.Signature, change: Change, members: [CaseResult]) -> String {
        let failing = members.filter { $0.status != .new && $0.status != .missing }
        var seen: [String] = []
        var switches: [String: Int] = [:]
        var switchOrder: [String] = []
        var tip = 0.0, tipCount = 0, seams = 0, sizes = 0
        for r in failing {
            guard let cause = r.cause, cause.facts == .recorded else { continue }
            let told = Explanation.told(cause.geometry)
            if let image = told.first(where: { $0.fact == "image" }) {
                let pair = "\(image.expected?.description ?? "none") -> \(image.actual?.description ?? "none")"
                if switches[pair] == nil { switchOrder.append(pair) }
                switches[pair, default: 0] += 1
            }
            let moves = told.filter { $0.fact == "apex.x" || $0.fact == "apex.y" }.compactMap(\.amount).map(abs)
            if let most = moves.max() {
                tip = max(tip, most)
                tipCount += 1
            }
            if told.contains(where: { $0.fact.hasPrefix("stages[") && $0.fact.contains(".insets.") }) { seams += 1 }
            if told.contains(where: { $0.fact == "canvas.width" || $0.fact == "canvas.height" }) { sizes += 1 }
        }
        func cases(_ n: Int) -> String { n == failing.count ? "" : " (\(n) of \(failing.count) cases)" }
        if !switchOrder.isEmpty {
            seen.append("the image chosen switches (" + switchOrder.joined(separator: ", ") + ")" + cases(switches.values.reduce(0, +)))
        }
        if tipCount > 0 { seen.append("the arrow tip moves by up to \(Explanation.rounded(tip)) pt" + cases(tipCount)) }
        if seams > 0 { seen.append("a stretch seam moves" + cases(seams)) }
        if sizes > 0 { seen.append("the image changes size" + cases(sizes)) }
        if seen.isEmpty, let cause = failing.first?.cause, signature.kind == "input" || signature.kind == "drawing" {
            let parts = Array(Set(failing.flatMap { $0.cause?.parts ?? [] })).sorted()
            var colours: [String: Int] = [:]
            for r in failing { if let c = r.cause?.colour { colours[c, default: 0] += 1 } }
            let colour = colours.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? cause.colour
            seen.append("the drawing changed" + (parts.isEmpty ? "" : " in the " + Explanation.list(parts.map(\.rawValue)))
                + (colour.map { " (\($0))" } ?? ""))
        }
        let new = change.newCases.count
        let newText = new == 0 ? "" : "; \(new) new case\(new == 1 ? "" : "s")"
            + (change.orphans.isEmpty ? "" : " replacing \(change.orphans.count) orphaned golden\(change.orphans.count == 1 ? "" : "s")")
        switch signature.kind {
        case "input":
            return signature.explanation + ": " + (seen.isEmpty ? "no geometry moved" : seen.joined(separator: "; ")) + newText
        case "geometry":
            return (seen.isEmpty ? "the geometry moved" : seen.joined(separator: "; ")) + "; no skin input changed ("
                + signature.key.split(separator: ";").map { Self.kindWords(String($0).trimmingCharacters(in: .whitespaces)) }
                    .joined(separator: ", ") + ")"
        case "drawing":
            return "geometry unchanged: " + (seen.first ?? "the drawing changed")
        case "new":
            return "\(change.skins.joined(separator: ", ")): \(new) new case\(new == 1 ? "" : "s"), no golden before this run"
                + (change.orphans.isEmpty ? "" : "; \(change.orphans.count) orphaned golden\(change.orphans.count == 1 ? "" : "s") of the same cases")
        default:
            return signature.explanation
        }
    }

    /// `stages[0].width +` -> `stage 1 width grew`.
    static func kindWords(_ kind: String) -> String {
        let parts = kind.split(separator: " ")
        guard parts.count == 2 else { return kind }
        let word = parts[1] == "+" ? "up" : parts[1] == "-" ? "down" : "changed"
        return "\(parts[0]) \(word)"
    }

    /// The change with this ID.
    public func change(_ id: String) -> Change? { changes.first { $0.id == id } }
}
