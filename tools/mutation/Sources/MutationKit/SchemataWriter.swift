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
    /// Probes written as the original text (they did not type-check).
    public var droppedSites: Set<Int> = []

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
        // Functions of their own (`SwitchedFunction`) waiting for the end of the declaration
        // they follow: (where, text).
        var copies: [(Int, String)] = []
        /// `from..<to` as `splice` writes it, with each copy due in it written at its place.
        func spliceWithCopies(to: Int, children: [Int]) -> String {
            var text = "", rest = children[...]
            while let (place, copy) = copies.first, place <= to {
                let before = rest.prefix { forest.byID[$0]!.start < place }
                text += splice(bytes, from: at, to: place, children: Array(before), forest: forest, mutants: mutants) + copy
                rest = rest.dropFirst(before.count)
                at = place
                copies.removeFirst()
            }
            return text + splice(bytes, from: at, to: to, children: Array(rest), forest: forest, mutants: mutants)
        }
        for (index, body) in findings.bodies.enumerated() {
            let inside = roots.prefix { forest.byID[$0]!.start < body.upperBound }.filter { forest.byID[$0]!.start >= body.lowerBound }
            let before = roots.prefix { forest.byID[$0]!.start < body.lowerBound }
            out += spliceWithCopies(to: body.lowerBound, children: Array(before))
            roots = roots.dropFirst(before.count + inside.count)
            let live = liveMutants(in: inside, forest: forest)
            let schemata = spliceLoops(bytes, from: body.lowerBound, to: body.upperBound, children: Array(inside), forest: forest,
                                       mutants: mutants)
            guard !unwrappedBodies.contains(index) else {
                out += schemata
                at = body.upperBound
                continue
            }
            var text = schemata
            if let lo = live.min(), let hi = live.max() {
                if let switched = findings.switchedFunctions[body] {
                    // A single-expression body is the function's value: behind the test, a second statement.
                    let value = switched.implicitReturn ? "return " : ""
                    text = "if !mutation_pristine(\(lo), \(hi)) { return \(switched.call) }\n"
                        + value + String(decoding: bytes[body], as: UTF8.self) + "\n"
                    // A checked function's check is in the copy alone: it acts only while coverage
                    // is recorded, when no body is pristine. It evaluates the copy again under each
                    // mutant a call reached; one elsewhere runs the original there, as it does
                    // outside the check.
                    var copy = schemata
                    if let type = findings.checkedBodies[body] {
                        copy = "return mutationChecked({ () -> \(type) in\nif mutation_pristine(\(lo), \(hi)) { return \(switched.originalCall) }\n"
                            + value + schemata + "\n})"
                    }
                    // Marked as the body is: an error in the copy unwraps the body, which is then
                    // written once, as its schemata, in place.
                    copies.append((switched.end, "\n/*B\(index){*/" + switched.header + " {\n" + copy + "\n}/*}B\(index)*/\n"))
                } else {
                    text = "if mutation_pristine(\(lo), \(hi)) {\n" + String(decoding: bytes[body], as: UTF8.self) + "\n} else {\n"
                        + schemata + "\n}"
                }
            }
            // A checked function's body runs inside the check, which evaluates it again under each
            // mutant a call reached (the coverage run only; `mutationChecked` in `reachFile`).
            if let type = findings.checkedBodies[body], live.isEmpty || findings.switchedFunctions[body] == nil {
                text = "return mutationChecked({ () -> \(type) in\n" + text + "\n})"
            }
            // A body with neither gets no wrapper to unwrap, so no marker.
            out += live.isEmpty && findings.checkedBodies[body] == nil ? text : "/*B\(index){*/" + text + "/*}B\(index)*/"
            at = body.upperBound
        }
        out += spliceWithCopies(to: bytes.count, children: Array(roots))
        return out
    }

    /// `from..<to` as `splice` writes it, but each outermost loop there that holds live mutants
    /// written twice, as the body is: the loop as it was, run while the active mutant lies
    /// elsewhere, and its schemata. A mutant outside a body's hot loop (a value worked out
    /// before it) then runs that loop as the original does, not through every construct's
    /// switch in it. Loops inside a construct are left to it. Each copy's wrapper is marked as
    /// a body's, numbered after the file's bodies, so an error in it unwraps it alone.
    private func spliceLoops(_ bytes: [UInt8], from: Int, to: Int, children: [Int], forest: Forest,
                             mutants: [Int: Mutant]) -> String {
        let candidates = findings.loops.indices.filter { k in
            let loop = findings.loops[k]
            return loop.lowerBound >= from && loop.upperBound <= to && loop != from..<to
                && !findings.constructs.contains { $0.start <= loop.lowerBound && loop.upperBound <= $0.end }
        }
        // The outermost of them: those no other candidate holds.
        let outermost = candidates.filter { k in
            let loop = findings.loops[k]
            return !candidates.contains { j in
                j != k && findings.loops[j].lowerBound <= loop.lowerBound && loop.upperBound <= findings.loops[j].upperBound
            }
        }
        // A loop holding every live mutant of the range is not written twice: the range's own
        // choice (its body's) has made it already.
        let all = liveMutants(in: children, forest: forest).count
        var out = ""
        var at = from
        var rest = children[...]
        for k in outermost {
            let loop = findings.loops[k]
            let before = rest.prefix { forest.byID[$0]!.start < loop.lowerBound }
            out += splice(bytes, from: at, to: loop.lowerBound, children: Array(before), forest: forest, mutants: mutants)
            rest = rest.dropFirst(before.count)
            let inside = rest.prefix { forest.byID[$0]!.start < loop.upperBound }
            rest = rest.dropFirst(inside.count)
            let schemata = spliceLoops(bytes, from: loop.lowerBound, to: loop.upperBound, children: Array(inside), forest: forest,
                                       mutants: mutants)
            let index = findings.bodies.count + k
            let live = liveMutants(in: Array(inside), forest: forest)
            if let lo = live.min(), let hi = live.max(), live.count < all, !unwrappedBodies.contains(index) {
                out += "/*B\(index){*/if mutation_pristine(\(lo), \(hi)) {\n"
                    + String(decoding: bytes[loop], as: UTF8.self) + "\n} else {\n" + schemata + "\n}/*}B\(index)*/"
            } else {
                out += schemata
            }
            at = loop.upperBound
        }
        out += splice(bytes, from: at, to: to, children: Array(rest), forest: forest, mutants: mutants)
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

    /// How many of the file's checked functions were written without their check (their
    /// body's wrapper did not build).
    public var unwrappedCheckedBodies: Int {
        findings.bodies.indices.filter { unwrappedBodies.contains($0) && findings.checkedBodies[findings.bodies[$0]] != nil }.count
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

    /// The probes written into `c`'s original branch: not left out, with a mutant still in.
    public func liveSites(of c: Construct) -> [ProbeSite] {
        guard !droppedConstructs.contains(c.id) else { return [] }
        return findings.sites.filter { s in
            s.construct == c.id && !droppedSites.contains(s.id) && s.mutants.contains { !droppedMutants.contains($0) }
        }
    }

    /// `from..<to` with the child constructs' schemata and the probes among `regions` written in.
    private func render(_ bytes: [UInt8], from: Int, to: Int, regions: [Region], forest: Forest, mutants: [Int: Mutant]) -> String {
        var out = ""
        var at = from
        for region in regions where region.start >= at && region.end <= to {
            out += String(decoding: bytes[at..<region.start], as: UTF8.self)
            switch region {
            case .construct(let c):
                out += schema(c, bytes, forest: forest, mutants: mutants)
            case .site(let site):
                // A comment is whitespace to the lexer: written right after or before an
                // operator (`0..<max(1, n)`), the marker would turn it into a prefix or postfix
                // operator. In parentheses the operator keeps its operand.
                let enclosed = (site.start > 0 && Self.operatorBytes.contains(bytes[site.start - 1]))
                    || (site.end < bytes.count && Self.operatorBytes.contains(bytes[site.end]))
                if enclosed { out += "(" }
                out += "/*P\(site.id){*/"
                for piece in site.pieces {
                    switch piece {
                    case .text(let t): out += t
                    case .source(let a, let b): out += render(bytes, from: a, to: b, regions: regions, forest: forest, mutants: mutants)
                    case .plain(let a, let b): out += String(decoding: bytes[a..<b], as: UTF8.self)
                    case .mutant(let id): out += droppedMutants.contains(id) ? "0" : "\(id)"
                    }
                }
                out += "/*}P\(site.id)*/"
                if enclosed { out += ")" }
            }
            at = region.end
        }
        return out + String(decoding: bytes[at..<to], as: UTF8.self)
    }

    /// The characters of Swift's operators, as UTF-8 bytes.
    private static let operatorBytes = Set("+-*/%<>=!&|^~?.".utf8)

    enum Region {
        case construct(Construct)
        case site(ProbeSite)

        var start: Int {
            switch self { case .construct(let c): c.start; case .site(let s): s.start }
        }
        var end: Int {
            switch self { case .construct(let c): c.end; case .site(let s): s.end }
        }
    }

    private func schema(_ c: Construct, _ bytes: [UInt8], forest: Forest, mutants: [Int: Mutant]) -> String {
        let children = (forest.children[c.id] ?? []).map { Region.construct(forest.byID[$0]!) }
        let regions = (children + liveSites(of: c).map(Region.site)).sorted { ($0.start, -$0.end) < ($1.start, -$1.end) }
        // The original branch, with the probes that record which mutants change a value here.
        let inner = render(bytes, from: c.start, to: c.end, regions: regions, forest: forest, mutants: mutants)
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
            // A statement holding a loop and constructs of its own (a loop whose range is
            // mutated, a call whose closure draws pixels): as it was, too, for a mutant
            // elsewhere, as its body is, so that mutant runs the loop without the switches in it.
            var original = inner
            let children = liveMutants(in: forest.children[k] ?? [], forest: forest)
            if let lo = children.min(), let hi = children.max(),
               findings.loops.contains(where: { $0.lowerBound >= c.start && $0.upperBound <= c.end }) {
                original = "if mutation_pristine(\(lo), \(hi)) {\n" + String(decoding: bytes[c.start..<c.end], as: UTF8.self)
                    + "\n} else {\n" + inner + "\n}"
            }
            out += "if mutation_outside(\(live.min()!), \(live.max()!)) {\nmutation_reach(\(k))\n\(original)\n}"
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
        @_transparent @discardableResult
        func mutationReach<T>(_ k: Int32, _ value: T) -> T {
            mutation_reach(k)
            return value
        }

        /// A checked function's body (`Subject.checked`): while coverage is recorded with checks
        /// on, the outermost checked call runs the original, then, in a process of its own (so
        /// a mutant that crashes, hangs or spoils memory harms nothing), again under each mutant
        /// the call reached, and compares the results. Where every call that reached a mutant
        /// gave the original's result, and nothing outside those calls did, the mutant's drawing
        /// of the case is the original's: the driver says it "cleared" there.
        @inline(__always)
        func mutationChecked<T: Equatable>(_ body: () -> T) -> T {
            guard mutation_check_begins() else { return body() }
            let value = body()
            let count = mutation_check_candidates()
            var at: Int32 = 0
            while at < count {
                guard mutation_check_spawn(&at) else { continue }
                while at < count {
                    mutation_check_enter(at)
                    let same = body() == value
                    mutation_check_leave(at, same)
                    at += 1
                }
                mutation_check_exit()
            }
            mutation_check_end()
            return value
        }

        // Every helper here is `@_transparent`: inlined before the optimiser runs, whatever the
        // caller's size, so a probe's constant codes fold away and, while a mutant is judged, the
        // function holding it pays no call per probe in its loops (`@inline(__always)` left
        // the integer probe a call: 6 % of a survivor's time in `straightImage`).

        // The probes of the infection analysis (tools/mutation, Probe.swift): each returns the
        // original's value, computed as the original computes it, and while coverage is
        // recorded marks each of its mutants whose value from the same operands differs (in any
        // bit: 0 and -0 differ) or whose operation would trap. An ID of 0 is a mutant left out.

        @_transparent
        func mutationDiffer<T: Equatable>(_ a: T, _ b: T) -> Bool {
            if let x = a as? Double, let y = b as? Double { return x.bitPattern != y.bitPattern }
            if let x = a as? Float, let y = b as? Float { return x.bitPattern != y.bitPattern }
            return a != b
        }

        @_transparent
        func mutationCompared<T: Comparable>(_ a: T, _ b: T, _ code: Int32) -> Bool {
            switch code {
            case 1: return a < b
            case 2: return a <= b
            case 3: return a > b
            case 4: return a >= b
            case 5: return a == b
            default: return a != b
            }
        }

        @_transparent
        func mutationCompare<T: Comparable>(_ a: T, _ b: T, _ code: Int32, _ id1: Int32, _ code1: Int32, _ id2: Int32,
                                            _ code2: Int32) -> Bool {
            let value = mutationCompared(a, b, code)
            if mutation_unseen(id1) && mutationCompared(a, b, code1) != value { mutation_infect(id1) }
            if mutation_unseen(id2) && mutationCompared(a, b, code2) != value { mutation_infect(id2) }
            return value
        }

        /// A comparison with a literal operand (`side` 0: the left one, 1: the right one), and
        /// its constant mutants: each that literal's ID and the value it puts in.
        @_transparent
        func mutationCompare<T: Comparable>(_ a: T, _ b: T, _ code: Int32, _ id1: Int32, _ code1: Int32, _ id2: Int32,
                                            _ code2: Int32, literal side: Int32, _ k1: Int32, _ v1: T) -> Bool {
            let value = mutationCompare(a, b, code, id1, code1, id2, code2)
            if mutation_unseen(k1) && (side == 0 ? mutationCompared(v1, b, code) : mutationCompared(a, v1, code)) != value {
                mutation_infect(k1)
            }
            return value
        }

        @_transparent
        func mutationCompare<T: Comparable>(_ a: T, _ b: T, _ code: Int32, _ id1: Int32, _ code1: Int32, _ id2: Int32,
                                            _ code2: Int32, literal side: Int32, _ k1: Int32, _ v1: T, _ k2: Int32, _ v2: T) -> Bool {
            let value = mutationCompare(a, b, code, id1, code1, id2, code2, literal: side, k1, v1)
            if mutation_unseen(k2) && (side == 0 ? mutationCompared(v2, b, code) : mutationCompared(a, v2, code)) != value {
                mutation_infect(k2)
            }
            return value
        }

        @_transparent
        func mutationCalculated<T: FixedWidthInteger>(_ a: T, _ b: T, _ code: Int32) -> T {
            switch code {
            case 1: return a + b
            case 2: return a - b
            case 3: return a * b
            case 4: return a / b
            case 5: return a % b
            case 6: return a & b
            case 7: return a | b
            case 8: return a ^ b
            case 9: return a << b
            case 10: return a >> b
            case 11: return a &+ b
            default: return a &- b
            }
        }

        /// Whether `a op b` traps (an overflow, a division by zero).
        @_transparent
        func mutationTraps<T: FixedWidthInteger>(_ a: T, _ b: T, _ code: Int32) -> Bool {
            switch code {
            case 1: return a.addingReportingOverflow(b).overflow
            case 2: return a.subtractingReportingOverflow(b).overflow
            case 3: return a.multipliedReportingOverflow(by: b).overflow
            case 4: return a.dividedReportingOverflow(by: b).overflow
            case 5: return a.remainderReportingOverflow(dividingBy: b).overflow
            default: return false
            }
        }

        @_transparent
        func mutationArithmetic<T: FixedWidthInteger>(_ a: T, _ b: T, _ code: Int32, _ id: Int32, _ other: Int32) -> T {
            let value = mutationCalculated(a, b, code)
            if mutation_unseen(id) && (mutationTraps(a, b, other) || mutationCalculated(a, b, other) != value) { mutation_infect(id) }
            return value
        }

        @_transparent
        func mutationCalculated<T: FloatingPoint>(_ a: T, _ b: T, _ code: Int32) -> T {
            switch code {
            case 1: return a + b
            case 2: return a - b
            case 3: return a * b
            default: return a / b
            }
        }

        @_transparent
        func mutationArithmetic<T: FloatingPoint>(_ a: T, _ b: T, _ code: Int32, _ id: Int32, _ other: Int32) -> T {
            let value = mutationCalculated(a, b, code)
            if mutation_unseen(id) && mutationDiffer(mutationCalculated(a, b, other), value) { mutation_infect(id) }
            return value
        }

        /// `x op= b` written `x op= mutationCompound(x, b, ...)`: passes `b` on.
        @_transparent
        func mutationCompound<T: FixedWidthInteger>(_ x: T, _ b: T, _ code: Int32, _ id: Int32, _ other: Int32) -> T {
            if mutation_unseen(id) && (mutationTraps(x, b, code) || mutationTraps(x, b, other)
                || mutationCalculated(x, b, other) != mutationCalculated(x, b, code)) { mutation_infect(id) }
            return b
        }

        @_transparent
        func mutationCompound<T: FloatingPoint>(_ x: T, _ b: T, _ code: Int32, _ id: Int32, _ other: Int32) -> T {
            if mutation_unseen(id) && mutationDiffer(mutationCalculated(x, b, other), mutationCalculated(x, b, code)) {
                mutation_infect(id)
            }
            return b
        }

        @_transparent
        func mutationNegate<T: SignedNumeric & Equatable>(_ x: T, _ id: Int32) -> T {
            let value = -x
            if mutation_unseen(id) && mutationDiffer(value, x) { mutation_infect(id) }
            return value
        }

        /// `a && b`; its mutant `a || b`. Where `a` is false the original never reads `b`, and
        /// neither does the probe: the mutant counts as infected there.
        @_transparent
        func mutationAnd(_ a: Bool, _ b: @autoclosure () -> Bool, _ id: Int32) -> Bool {
            guard a else {
                if mutation_unseen(id) { mutation_infect(id) }
                return false
            }
            let value = b()
            if mutation_unseen(id) && !value { mutation_infect(id) }
            return value
        }

        /// `a || b`; its mutant `a && b`.
        @_transparent
        func mutationOr(_ a: Bool, _ b: @autoclosure () -> Bool, _ id: Int32) -> Bool {
            guard !a else {
                if mutation_unseen(id) { mutation_infect(id) }
                return true
            }
            let value = b()
            if mutation_unseen(id) && value { mutation_infect(id) }
            return value
        }

        /// `min(a, b)` or `max(a, b)`; its mutants swap them, or keep `a`, or `b`.
        @_transparent
        func mutationMinMax<T: Comparable>(_ a: T, _ b: T, _ isMin: Bool, _ swapped: Int32, _ first: Int32, _ second: Int32) -> T {
            let value = isMin ? Swift.min(a, b) : Swift.max(a, b)
            if mutation_unseen(swapped) && mutationDiffer(isMin ? Swift.max(a, b) : Swift.min(a, b), value) { mutation_infect(swapped) }
            if mutation_unseen(first) && mutationDiffer(a, value) { mutation_infect(first) }
            if mutation_unseen(second) && mutationDiffer(b, value) { mutation_infect(second) }
            return value
        }

        /// `min(a, b)` or `max(a, b)` with a literal operand (`side` 0: `a`, 1: `b`) and its
        /// constant mutants: each that literal's ID and the value it puts in.
        @_transparent
        func mutationMinMax<T: Comparable>(_ a: T, _ b: T, _ isMin: Bool, _ swapped: Int32, _ first: Int32, _ second: Int32,
                                           literal side: Int32, _ k1: Int32, _ v1: T) -> T {
            let value = mutationMinMax(a, b, isMin, swapped, first, second)
            if mutation_unseen(k1) {
                let (x, y) = side == 0 ? (v1, b) : (a, v1)
                if mutationDiffer(isMin ? Swift.min(x, y) : Swift.max(x, y), value) { mutation_infect(k1) }
            }
            return value
        }

        @_transparent
        func mutationMinMax<T: Comparable>(_ a: T, _ b: T, _ isMin: Bool, _ swapped: Int32, _ first: Int32, _ second: Int32,
                                           literal side: Int32, _ k1: Int32, _ v1: T, _ k2: Int32, _ v2: T) -> T {
            let value = mutationMinMax(a, b, isMin, swapped, first, second, literal: side, k1, v1)
            if mutation_unseen(k2) {
                let (x, y) = side == 0 ? (v2, b) : (a, v2)
                if mutationDiffer(isMin ? Swift.min(x, y) : Swift.max(x, y), value) { mutation_infect(k2) }
            }
            return value
        }

        /// A removed assignment `x = v`, written `x = mutationAssigned(x, v, ...)`: passes `v` on.
        /// Removing it changes nothing where `x` already holds `v` in every bit; a value whose
        /// bits do not settle that (one holding a reference) counts as changed wherever it runs.
        @_transparent
        func mutationAssigned<T>(_ old: T, _ new: T, _ id: Int32) -> T {
            if mutation_unseen(id) {
                let same = _isPOD(T.self) && withUnsafeBytes(of: old) { a in withUnsafeBytes(of: new) { b in a.elementsEqual(b) } }
                if !same { mutation_infect(id) }
            }
            return new
        }

        /// A removed call of a function that does nothing but return or throw (the subject's
        /// `throwOnly`), written `do { ...; defer { mutationThrew(returned, ...) }; try f(...); returned = true }`:
        /// removing it changes nothing where it returns.
        @_transparent
        func mutationThrew(_ returned: Bool, _ id: Int32) {
            if !returned && mutation_unseen(id) { mutation_infect(id) }
        }

        /// `x.rounded(rule)`; its mutants round by another rule (IDs in the order away from
        /// zero, down, up, toward zero, to even) or through a `Float` first.
        @_transparent
        func mutationRounded<T: BinaryFloatingPoint>(_ x: T, _ rule: FloatingPointRoundingRule, _ away: Int32, _ down: Int32,
                                                     _ up: Int32, _ zero: Int32, _ even: Int32, _ float: Int32) -> T {
            let value = x.rounded(rule)
            if mutation_active() < 0 {
                let rules: [(Int32, FloatingPointRoundingRule)] = [
                    (away, .toNearestOrAwayFromZero), (down, .down), (up, .up), (zero, .towardZero), (even, .toNearestOrEven),
                ]
                for (id, other) in rules where mutation_unseen(id) && mutationDiffer(x.rounded(other), value) { mutation_infect(id) }
                if mutation_unseen(float) && mutationDiffer(T(Float(x).rounded(rule)), value) { mutation_infect(float) }
            }
            return value
        }

        /// `floor(x)`, `ceil(x)`, `round(x)` or `trunc(x)` (`rule` says which); its mutants call
        /// another (IDs in that order).
        @_transparent
        func mutationRounding<T: FloatingPoint>(_ x: T, _ rule: FloatingPointRoundingRule, _ floor: Int32, _ ceil: Int32,
                                                _ round: Int32, _ trunc: Int32) -> T {
            let value = x.rounded(rule)
            if mutation_active() < 0 {
                let rules: [(Int32, FloatingPointRoundingRule)] = [
                    (floor, .down), (ceil, .up), (round, .toNearestOrAwayFromZero), (trunc, .towardZero),
                ]
                for (id, other) in rules where mutation_unseen(id) && mutationDiffer(x.rounded(other), value) { mutation_infect(id) }
            }
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
        /// A probe of the infection analysis.
        case probe(Int)
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
                if kind == UInt8(ascii: "M") || kind == UInt8(ascii: "C") || kind == UInt8(ascii: "B") || kind == UInt8(ascii: "P") {
                    var k = j + 1
                    var number = 0
                    var digits = 0
                    while k < bytes.count, bytes[k] >= 48, bytes[k] <= 57 { number = number * 10 + Int(bytes[k] - 48); k += 1; digits += 1 }
                    let openBrace = !closing && k < bytes.count && bytes[k] == UInt8(ascii: "{")
                    if openBrace { k += 1 }
                    if digits > 0, k + 1 < bytes.count, bytes[k] == UInt8(ascii: "*"), bytes[k + 1] == UInt8(ascii: "/"),
                       closing || openBrace {
                        let owner: Owner = kind == UInt8(ascii: "M") ? .mutant(number)
                            : kind == UInt8(ascii: "C") ? .construct(number) : kind == UInt8(ascii: "P") ? .probe(number) : .body(number)
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

    /// Every probe whose text holds (line, column).
    public func probes(line: Int, column: Int) -> [Int] {
        regions.compactMap { r in
            guard case .probe(let id) = r.owner, (line, column) >= r.start, (line, column) <= r.end else { return nil }
            return id
        }
    }

    /// Every probe inside the body wrapper (`/*B3{*/ ... /*}B3*/`) that holds (line, column),
    /// or nil when no body holds it.
    public func probesInBody(line: Int, column: Int) -> [Int]? {
        guard let body = regions.filter({ r in
            guard case .body = r.owner else { return false }
            return (line, column) >= r.start && (line, column) <= r.end
        }).max(by: { $0.start < $1.start }) else { return nil }
        return regions.compactMap { r in
            guard case .probe(let id) = r.owner, r.start >= body.start, r.end <= body.end else { return nil }
            return id
        }
    }
}
