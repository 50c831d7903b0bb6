/// Writes one file's mutant schemata: the original text with each construct replaced by a
/// run-time choice between the original and each of its mutants (see `ConstructForm`).
///
/// Every mutant's text and every construct's wrapper is fenced by a comment marker
/// (`/*M12{*/ ... /*}M12*/`, `/*C3{*/ ... /*}C3*/`), so a compiler error's line and
/// column lead back to the mutant, or the construct, it came from (`MarkerMap`).
public struct SchemataWriter: Sendable {
    public let findings: FileFindings
    /// Mutants left out (they did not build).
    public var droppedMutants: Set<Int> = []
    /// Constructs written as their original text (the schemata could not hold them).
    public var droppedConstructs: Set<Int> = []
    /// Bodies written once, as their schemata (the original beside it did not build).
    public var unwrappedBodies: Set<Int> = []

    public init(findings: FileFindings) {
        self.findings = findings
    }

    /// The line that makes the switch visible to the file; written first.
    public static let importLine = "import MutationSwitch\n"

    /// The rewritten file.
    public func text() -> String {
        let bytes = Array(findings.source.text.utf8)
        let forest = Self.forest(findings.constructs)
        let mutants = Dictionary(uniqueKeysWithValues: findings.mutants.map { ($0.id, $0) })
        var out = Self.importLine
        // Bodies that hold live constructs: the original for every run whose mutant lies
        // elsewhere (it is optimised as the original is), the schemata otherwise (and while
        // coverage is recorded).
        var at = 0
        var roots = forest.roots[...]
        for (index, body) in findings.bodies.enumerated() {
            let inside = roots.prefix { forest.byID[$0]!.start < body.upperBound }.filter { forest.byID[$0]!.start >= body.lowerBound }
            let before = roots.prefix { forest.byID[$0]!.start < body.lowerBound }
            out += splice(bytes, from: at, to: body.lowerBound, children: Array(before), forest: forest, mutants: mutants)
            roots = roots.dropFirst(before.count + inside.count)
            let live = liveMutants(in: inside, forest: forest)
            let schemata = splice(bytes, from: body.lowerBound, to: body.upperBound, children: Array(inside), forest: forest,
                                  mutants: mutants)
            if let lo = live.min(), let hi = live.max(), !unwrappedBodies.contains(index) {
                out += "/*B\(index){*/if mutation_pristine(\(lo), \(hi)) {\n"
                    + String(decoding: bytes[body], as: UTF8.self) + "\n} else {\n" + schemata + "\n}/*}B\(index)*/"
            } else {
                out += schemata
            }
            at = body.upperBound
        }
        out += splice(bytes, from: at, to: bytes.count, children: Array(roots), forest: forest, mutants: mutants)
        return out
    }

    /// The live mutants of `constructs` and every construct inside them.
    private func liveMutants(in constructs: [Int], forest: Forest) -> [Int] {
        constructs.flatMap { id -> [Int] in
            let c = forest.byID[id]!
            let own = droppedConstructs.contains(id) ? [] : c.mutants.filter { !droppedMutants.contains($0) }
            return own + liveMutants(in: forest.children[id] ?? [], forest: forest)
        }
    }

    /// Whether any construct of the file still switches something.
    public var switchesAnything: Bool {
        findings.constructs.contains { c in
            !droppedConstructs.contains(c.id) && c.mutants.contains { !droppedMutants.contains($0) }
        }
    }

    struct Forest {
        var roots: [Int]
        var children: [Int: [Int]]
        var byID: [Int: Construct]
    }

    /// Constructs nested by their ranges (sorted by start, longest first).
    static func forest(_ constructs: [Construct]) -> Forest {
        let sorted = constructs.sorted { ($0.start, -$0.end, $0.id) < ($1.start, -$1.end, $1.id) }
        var roots: [Int] = []
        var children: [Int: [Int]] = [:]
        var stack: [Construct] = []
        for c in sorted {
            while let top = stack.last, !(c.start >= top.start && c.end <= top.end) { stack.removeLast() }
            if let parent = stack.last { children[parent.id, default: []].append(c.id) } else { roots.append(c.id) }
            stack.append(c)
        }
        return Forest(roots: roots, children: children, byID: Dictionary(uniqueKeysWithValues: constructs.map { ($0.id, $0) }))
    }

    private func splice(_ bytes: [UInt8], from: Int, to: Int, children: [Int], forest: Forest,
                        mutants: [Int: Mutant]) -> String {
        var out = ""
        var at = from
        for id in children {
            let c = forest.byID[id]!
            out += String(decoding: bytes[at..<c.start], as: UTF8.self)
            out += schema(c, bytes, forest: forest, mutants: mutants)
            at = c.end
        }
        out += String(decoding: bytes[at..<to], as: UTF8.self)
        return out
    }

    private func schema(_ c: Construct, _ bytes: [UInt8], forest: Forest, mutants: [Int: Mutant]) -> String {
        let inner = splice(bytes, from: c.start, to: c.end, children: forest.children[c.id] ?? [], forest: forest,
                           mutants: mutants)
        let live = c.mutants.filter { !droppedMutants.contains($0) }
        guard !droppedConstructs.contains(c.id), !live.isEmpty else { return inner }
        func mutated(_ id: Int) -> String {
            let m = mutants[id]!
            let text = String(decoding: bytes[c.start..<m.start], as: UTF8.self) + m.replacement
                + String(decoding: bytes[m.end..<c.end], as: UTF8.self)
            return "/*M\(id){*/\(text)/*}M\(id)*/"
        }
        let k = c.id
        var out = "/*C\(k){*/"
        switch c.form {
        case .value:
            out += "switch mutation_active() {\n"
            for id in live { out += "case \(id): \(mutated(id))\n" }
            out += "default: mutationReach(\(k), \(inner))\n}"
        case .condition:
            let call = c.throwing ? "(try { () throws -> Bool in\n" : "({ () -> Bool in\n"
            out += call + "switch mutation_active() {\n"
            for id in live { out += "case \(id): return \(mutated(id))\n" }
            out += "default: mutation_reach(\(k)); return \(inner)\n}\n" + (c.throwing ? "}())" : "})()")
        case .bindingValue:
            out += (c.throwing ? "(try {\n" : "({\n") + "switch mutation_active() {\n"
            for id in live { out += "case \(id): \(mutated(id))\n" }
            out += "default: mutationReach(\(k), \(inner))\n}\n" + (c.throwing ? "}())" : "})()")
        case .statement:
            out += "if mutation_outside(\(live.min()!), \(live.max()!)) {\nmutation_reach(\(k))\n\(inner)\n}"
            // The last mutant takes the final `else`: every path runs one copy, as definite
            // initialisation needs (IDs in the range that are not live never run).
            for id in live.dropLast() { out += " else if mutation_active() == \(id) {\n\(mutated(id))\n}" }
            out += " else {\n\(mutated(live.last!))\n}"
        }
        out += "/*}C\(k)*/"
        return out
    }

    /// The Swift file added to each mutated module: the generic coverage mark of the
    /// value forms (a function of the module's own, so no module exports it).
    public static let reachFile = """
        import MutationSwitch

        /// Marks construct `k` reached (when coverage is being recorded) and passes `value` on.
        @inline(__always) @discardableResult
        func mutationReach<T>(_ k: Int32, _ value: T) -> T {
            mutation_reach(k)
            return value
        }

        """
}

/// Where each marker of a schemata file lies, to lead compiler errors back to mutants.
public struct MarkerMap: Sendable {
    public enum Owner: Sendable, Hashable {
        case mutant(Int)
        case construct(Int)
        /// A body's original-and-schemata wrapper (by its index in the file).
        case body(Int)
    }

    struct Region {
        var owner: Owner
        var start: (line: Int, column: Int)
        var end: (line: Int, column: Int)
    }

    private var regions: [Region] = []

    public init(text: String) {
        var open: [(Owner, Int, Int)] = []
        var line = 1, column = 1
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "/"), i + 3 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                // /*M12{*/ opens, /*}M12*/ closes.
                var j = i + 2
                let closing = bytes[j] == UInt8(ascii: "}")
                if closing { j += 1 }
                let kind = bytes[j]
                if kind == UInt8(ascii: "M") || kind == UInt8(ascii: "C") || kind == UInt8(ascii: "B") {
                    var k = j + 1
                    var number = 0
                    var digits = 0
                    while k < bytes.count, bytes[k] >= 48, bytes[k] <= 57 { number = number * 10 + Int(bytes[k] - 48); k += 1; digits += 1 }
                    let openBrace = !closing && k < bytes.count && bytes[k] == UInt8(ascii: "{")
                    if openBrace { k += 1 }
                    if digits > 0, k + 1 < bytes.count, bytes[k] == UInt8(ascii: "*"), bytes[k + 1] == UInt8(ascii: "/"),
                       closing || openBrace {
                        let owner: Owner = kind == UInt8(ascii: "M") ? .mutant(number)
                            : kind == UInt8(ascii: "C") ? .construct(number) : .body(number)
                        if closing {
                            if let index = open.lastIndex(where: { $0.0 == owner }) {
                                let o = open.remove(at: index)
                                regions.append(Region(owner: owner, start: (o.1, o.2), end: (line, column)))
                            }
                        } else {
                            open.append((owner, line, column))
                        }
                    }
                }
            }
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            i += 1
        }
    }

    /// The innermost mutant or construct whose text holds (line, column), 1-based.
    public func owner(line: Int, column: Int) -> Owner? {
        func inside(_ r: Region) -> Bool {
            (line, column) >= r.start && (line, column) <= r.end
        }
        // Innermost: the region that starts last among those holding the place.
        return regions.filter(inside).max { $0.start < $1.start }?.owner
    }
}
