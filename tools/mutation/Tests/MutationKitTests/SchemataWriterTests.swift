import Foundation
import Testing
@testable import MutationKit

/// The schemata text of each construct form, written out by hand, and the markers that
/// lead compiler errors back to mutants.
@Suite("Schemata writer")
struct SchemataWriterTests {
    func schemata(_ text: String, dropping: Set<Int> = [], throwOnly: Set<String> = []) -> String {
        var writer = SchemataWriter(findings: Finder.find([SourceText(path: "F.swift", module: "M", text: text)],
                                                          throwOnly: throwOnly)[0])
        writer.droppedMutants = dropping
        return writer.text()
    }

    @Test("a returned value: a switch expression, the original behind the coverage mark; the body also kept as it was, the schemata a function of its own")
    func value() {
        #expect(schemata("func f(_ a: Int) -> Int {\n    return a * 3\n}\n") == """
            import MutationSwitch
            func f(_ a: Int) -> Int {
                /*B0{*/if !mutation_pristine(1, 3) { return f_mutationSchemata(a) }
            return a * 3
            /*}B0*/
            }
            /*B0{*/@inline(never) func f_mutationSchemata(_ a: Int) -> Int {
            return /*C0{*/switch mutation_active() {
            case 1: /*M1{*/a / 3/*}M1*/
            case 2: /*M2{*/a * 4/*}M2*/
            case 3: /*M3{*/a * 2/*}M3*/
            default: mutationReach(0, /*P0{*/mutationArithmetic(a, 3, 3, 1, 4)/*}P0*/)
            }/*}C0*/
            }/*}B0*/


            """)
    }

    @Test("the schemata's own function passes every parameter on: labels, inout, try; an initialiser and an operator keep theirs in place")
    func switchedFunction() {
        let text = schemata("""
            struct S {
                var v = 0
                mutating func g<T: Numeric>(by k: T, into out: inout T, _ n: Int) throws -> Int where T: Comparable {
                    v += n
                    return v
                }
                init(n: Int) { v = n + 1 }
                static func + (a: S, b: S) -> S { S(n: a.v - 1) }
            }

            """)
        #expect(text.contains(" { return try g_mutationSchemata(by: k, into: &out, n) }\n"))
        #expect(text.contains("""
            /*B0{*/@inline(never) mutating func g_mutationSchemata<T: Numeric>(by k: T, into out: inout T, _ n: Int) throws -> Int \
            where T: Comparable {
            """))
        #expect(!text.contains("init_mutationSchemata") && !text.contains("+_mutationSchemata"))
        // A body that is one expression, the function's value: behind the test it needs its `return`.
        #expect(schemata("func h(_ a: Int) -> Int {\n    a * 3\n}\n").contains(" { return h_mutationSchemata(a) }\nreturn a * 3\n/*}B0*/"))
        #expect(schemata("func h(_ a: Int) -> Int {\n    if a > 0 { a * 3 } else { 0 }\n}\n").contains("}\nreturn if a > 0 { a * 3 } else { 0 }\n/*}B0*/"))
        // A `switch` whose branches return is a statement: written as it is.
        #expect(schemata("func h(_ a: Int) -> Int {\n    switch a { case 0: return 1\n    default: return a * 3 }\n}\n")
            .contains("}\nswitch a { case 0: return 1\n    default: return a * 3 }\n/*}B0*/"))
        #expect(text.components(separatedBy: "} else {\n").count - 1 >= 2)
    }

    @Test("a checked function: its schemata's own function evaluated inside the check, the original run there for a mutant elsewhere")
    func checked() {
        // The construct is the returned value, as in "a returned value" above.
        let text = "struct Mask: Equatable { var v: Int }\nfunc f(_ a: Int) -> Mask {\n    return Mask(v: a * 3)\n}\n"
        let findings = Finder.find([SourceText(path: "F.swift", module: "M", text: text)], checked: ["Mask"])[0]
        #expect(SchemataWriter(findings: findings).text() == """
            import MutationSwitch
            struct Mask: Equatable { var v: Int }
            func f(_ a: Int) -> Mask {
                /*B0{*/if !mutation_pristine(1, 3) { return f_mutationSchemata(a) }
            return Mask(v: a * 3)
            /*}B0*/
            }
            /*B0{*/@inline(never) func f_mutationSchemata(_ a: Int) -> Mask {
            return mutationChecked({ () -> Mask in
            if mutation_pristine(1, 3) { return f(a) }
            return /*C0{*/switch mutation_active() {
            case 1: /*M1{*/Mask(v: a / 3)/*}M1*/
            case 2: /*M2{*/Mask(v: a * 4)/*}M2*/
            case 3: /*M3{*/Mask(v: a * 2)/*}M3*/
            default: mutationReach(0, Mask(v: /*P0{*/mutationArithmetic(a, 3, 3, 1, 4)/*}P0*/))
            }/*}C0*/
            })
            }/*}B0*/


            """)
        // With every mutant left out (a file outside a run of part of the code), the check
        // stays around the body as it is; with the body's wrapper failing to build, it goes.
        var plain = SchemataWriter(findings: findings)
        plain.droppedMutants = [1, 2, 3]
        #expect(plain.text().contains("/*B0{*/return mutationChecked({ () -> Mask in\nreturn Mask(v: a * 3)\n})/*}B0*/"))
        plain.unwrappedBodies = [0]
        #expect(!plain.text().contains("mutationChecked"))
        #expect(plain.unwrappedCheckedBodies == 1)
    }

    @Test("a statement: an if chain, the last mutant in the final else")
    func statement() {
        #expect(schemata("func f(_ x: inout Int) {\n    x -= 2\n    x = 0\n}\n", dropping: [3]) == """
            import MutationSwitch
            func f(_ x: inout Int) {
                /*B0{*/if !mutation_pristine(1, 6) { return f_mutationSchemata(&x) }
            x -= 2
                x = 0
            /*}B0*/
            }
            /*B0{*/@inline(never) func f_mutationSchemata(_ x: inout Int) {
            /*C0{*/if mutation_outside(1, 4) {
            mutation_reach(0)
            /*P0{*/x -= mutationCompound(x, 2, 2, 2, 1)/*}P0*/
            } else if mutation_active() == 1 {
            /*M1{*//*}M1*/
            } else if mutation_active() == 2 {
            /*M2{*/x += 2/*}M2*/
            } else {
            /*M4{*/x -= 1/*}M4*/
            }/*}C0*/
                /*C1{*/if mutation_outside(5, 6) {
            mutation_reach(1)
            /*P1{*/x = mutationAssigned(x, 0, 5)/*}P1*/
            } else if mutation_active() == 5 {
            /*M5{*//*}M5*/
            } else {
            /*M6{*/x = 1/*}M6*/
            }/*}C1*/
            }/*}B0*/


            """)
    }

    @Test("a condition: a closure run in place, so the if's body is not copied")
    func condition() {
        #expect(schemata("func f(_ a: Int) {\n    if a == 0 { return }\n}\n") == """
            import MutationSwitch
            func f(_ a: Int) {
                /*B0{*/if !mutation_pristine(1, 3) { return f_mutationSchemata(a) }
            if a == 0 { return }
            /*}B0*/
            }
            /*B0{*/@inline(never) func f_mutationSchemata(_ a: Int) {
            if /*C0{*/({ () -> Bool in
            switch mutation_active() {
            case 1: return /*M1{*/!(a == 0)/*}M1*/
            case 2: return /*M2{*/a != 0/*}M2*/
            case 3: return /*M3{*/a == 1/*}M3*/
            default: mutation_reach(0); return /*P0{*/mutationCompare(a, 0, 5, 2, 6, 0, 0, literal: 1, 3, 1)/*}P0*/
            }
            })()/*}C0*/ { return }
            }/*}B0*/


            """)
    }

    @Test("a construct inside another: the outer's copies hold the inner's original, its own text the inner's schemata")
    func nested() {
        let text = schemata("func f(_ xs: [Int]) -> Int {\n    return xs.map { $0 + 1 }.count - 1\n}\n")
        // Outer: the return value (mutants 1-3: `-`, 1 -> 2, 1 -> 0); inner: the closure's value (4-6).
        #expect(text.contains("case 1: /*M1{*/xs.map { $0 + 1 }.count + 1/*}M1*/"))
        // The original branches hold the probes: `-` (code 2) whose mutant 1 is `+` (code 1); `+` whose mutant 4 is `-`.
        #expect(text.contains("default: mutationReach(0, /*P0{*/mutationArithmetic(xs.map { /*C1{*/switch mutation_active() {"))
        #expect(text.contains("case 4: /*M4{*/$0 - 1/*}M4*/"))
        #expect(text.contains("default: mutationReach(1, /*P1{*/mutationArithmetic($0, 1, 1, 4, 2)/*}P1*/)"))
        #expect(text.contains("}/*}C1*/ }.count, 1, 2, 1, 1)/*}P0*/)"))
    }

    @Test("a loop holding some of its body's mutants is kept as it was too, for a mutant elsewhere in the body")
    func loop() {
        // `out = 0` holds mutants 1 (removed) and 2 (0 -> 1); the loop's `out = x` holds 3 (removed).
        // Each removal's probe reads `out` back before it is assigned.
        #expect(schemata("func f(_ xs: [Int], _ out: inout Int) {\n    out = 0\n    for x in xs {\n        out = x\n    }\n}\n") == """
            import MutationSwitch
            func f(_ xs: [Int], _ out: inout Int) {
                /*B0{*/if !mutation_pristine(1, 3) { return f_mutationSchemata(xs, &out) }
            out = 0
                for x in xs {
                    out = x
                }
            /*}B0*/
            }
            /*B0{*/@inline(never) func f_mutationSchemata(_ xs: [Int], _ out: inout Int) {
            /*C0{*/if mutation_outside(1, 2) {
            mutation_reach(0)
            /*P0{*/out = mutationAssigned(out, 0, 1)/*}P0*/
            } else if mutation_active() == 1 {
            /*M1{*//*}M1*/
            } else {
            /*M2{*/out = 1/*}M2*/
            }/*}C0*/
                /*B1{*/if mutation_pristine(3, 3) {
            for x in xs {
                    out = x
                }
            } else {
            for x in xs {
                    /*C1{*/if mutation_outside(3, 3) {
            mutation_reach(1)
            /*P1{*/out = mutationAssigned(out, x, 3)/*}P1*/
            } else {
            /*M3{*//*}M3*/
            }/*}C1*/
                }
            }/*}B1*/
            }/*}B0*/


            """)
    }

    @Test("a loop holding every mutant of its body, and a loop without one, are written once")
    func loopOnce() {
        let all = schemata("func f(_ xs: [Int], _ out: inout Int) {\n    for x in xs {\n        out = x\n    }\n}\n")
        #expect(all.components(separatedBy: "mutation_pristine").count - 1 == 1)
        let bare = schemata("func f(_ xs: [Int], _ out: inout Int) -> Int {\n    out = 0\n    for _ in xs {\n        continue\n    }\n    return 1\n}\n")
        #expect(bare.components(separatedBy: "mutation_pristine").count - 1 == 1)
    }

    @Test("a statement holding a loop and constructs of its own keeps the loop as it was for a mutant elsewhere")
    func loopStatement() {
        // The `for` statement is a construct (its range `..<` against `...`, its 0 nudged); `out = i` inside it holds the last mutant.
        let text = schemata("func f(_ n: Int, _ out: inout Int) {\n    for i in 0..<n {\n        out = i\n    }\n}\n")
        #expect(text.contains("""
            mutation_reach(0)
            if mutation_pristine(3, 3) {
            for i in 0..<n {
                    out = i
                }
            } else {
            for i in 0..<n {
                    /*C1{*/if mutation_outside(3, 3) {
            """))
    }

    @Test("probes: each point whose operands can be read computes the original's value and its mutants' from the same operands")
    func probes() {
        // The probe's arguments, worked out from the operator table: the operands, the
        // original's code (`<` 1, `<=` 2, `>` 3, `>=` 4), then each mutant's ID and code.
        func original(_ body: String) -> String {
            let text = schemata("func f(_ a: Double, _ b: Double) -> Double {\n    \(body)\n}\n")
            return text.components(separatedBy: "default: mutationReach(0, ").dropFirst().first?
                .components(separatedBy: ")\n}/*}C0*/").first ?? text
        }
        // `<`: mutant 1 is `<=` (code 2), mutant 2 `>=` (code 4).
        #expect(original("return a < b ? a : b") == "/*P0{*/mutationCompare(a, b, 1, 1, 2, 2, 4)/*}P0*/ ? a : b")
        // A literal operand: its constants (mutants 3, 1e-9 + 0.5, and 4, 1e-9 - 0.5) are computed
        // against the other operand, so they infect only where `a` lies between the two literals.
        #expect(original("return a > 1e-9 ? a : b")
            == "/*P0{*/mutationCompare(a, 1e-9, 3, 1, 4, 2, 2, literal: 1, 3, 0.500000001, 4, (-0.499999999))/*}P0*/ ? a : b")
        // `==` (code 5) is probed only for its literal: its one mutant, `!=` (6), then 0 for none;
        // the integer 0 has one constant mutant, 1.
        #expect(original("return a == 0 ? a : b") == "/*P0{*/mutationCompare(a, 0, 5, 1, 6, 0, 0, literal: 1, 2, 1)/*}P0*/ ? a : b")
        #expect(original("return 0 == a ? a : b") == "/*P0{*/mutationCompare(0, a, 5, 2, 6, 0, 0, literal: 0, 1, 1)/*}P0*/ ? a : b")
        #expect(original("return a == b ? a : b") == "a == b ? a : b")
        // min: mutant 1 swaps it for max, 2 keeps `a`, 3 keeps `b`.
        #expect(original("return min(a, b)") == "/*P0{*/mutationMinMax(a, b, true, 1, 2, 3)/*}P0*/")
        // Right after an operator, a probe goes in parentheses: its marker, a comment, would
        // otherwise make `..<` a postfix operator. (Mutants 1 and 2 are the 0 nudged and `..<` -> `...`;
        // min's are 3 to 5, its bound's 6, putting in 10, and 7, putting in 8.)
        #expect(schemata("func f(_ n: Int) -> Range<Int> {\n    return 0..<min(n, 9)\n}\n")
            .contains("0..<(/*P0{*/mutationMinMax(n, 9, true, 3, 4, 5, literal: 1, 6, 10, 7, 8)/*}P0*/)"))
        // Right before an operator too: its marker would make `..<` a prefix operator.
        #expect(schemata("func f(_ a: Int, _ b: Int) -> Range<Int> {\n    return min(a, b)..<b\n}\n")
            .contains("(/*P0{*/mutationMinMax(a, b, true, 1, 2, 3)/*}P0*/)..<b"))
        // A literal bound (the left operand, side 0): its constants (mutant 4 puts in 2, mutant 5
        // puts in 0) are computed against `a`, so they infect only where `a` lies below 2.
        #expect(original("return max(1, a)") == "/*P0{*/mutationMinMax(1, a, false, 1, 2, 3, literal: 0, 4, 2, 5, 0)/*}P0*/")
        // `.rounded(.down)`: the rules in the order away from zero, down (the original's: 0), up,
        // toward zero, to even, then the trip through Float; mutants 1-5 in the finder's order.
        #expect(original("return a.rounded(.down)")
            == "/*P0{*/mutationRounded(a, .down, 1, 0, 2, 3, 4, 5)/*}P0*/")
        // floor: the functions floor (the original's: 0), ceil, round, trunc.
        #expect(original("return floor(a)") == "/*P0{*/mutationRounding(a, .down, 0, 1, 2, 3)/*}P0*/")
        // `-x`: its one mutant drops the minus.
        #expect(original("return -a") == "/*P0{*/mutationNegate(a, 1)/*}P0*/")
        // A constant has no probe: its mutants change the value wherever it runs.
        #expect(original("return a + 2") == "/*P0{*/mutationArithmetic(a, 2, 1, 1, 2)/*}P0*/")
    }

    @Test("a removed statement's probe: an assignment read back before it is made; a call that only throws, watched for throwing")
    func removalProbes() {
        // Written by hand: `x = y` (construct 0, its removal mutant 1) passes `y` on through
        // the probe, which compares it with what `x` holds; `try check(y)` (construct 1, mutant 2)
        // runs as it is inside a scope whose flag says whether it returned. `_ = f()` has nothing to
        // read back, and `try other(y)` is not a call the subject says only throws: no probe.
        let text = schemata("""
            func f(_ x: inout Double, _ y: Double) throws {
                x = y
                try check(y)
                _ = g()
                try other(y)
            }

            """, throwOnly: ["check"])
        #expect(text.contains("""
            /*C0{*/if mutation_outside(1, 1) {
            mutation_reach(0)
            /*P0{*/x = mutationAssigned(x, y, 1)/*}P0*/
            } else {
            /*M1{*//*}M1*/
            }/*}C0*/
            """))
        #expect(text.contains("""
            /*C1{*/if mutation_outside(2, 2) {
            mutation_reach(1)
            /*P1{*/do { var mutationReturned = false; defer { mutationThrew(mutationReturned, 2) }; try check(y); mutationReturned = true }/*}P1*/
            } else {
            /*M2{*//*}M2*/
            }/*}C1*/
            """))
        #expect(text.contains("""
            /*C2{*/if mutation_outside(3, 3) {
            mutation_reach(2)
            _ = g()
            } else {
            """))
        #expect(text.contains("""
            /*C3{*/if mutation_outside(4, 4) {
            mutation_reach(3)
            try other(y)
            } else {
            """))
        #expect(!text.contains("/*P2{*/") && !text.contains("/*P3{*/"))
        // Removing a statement also removes working out its value: a value from a method call
        // (an iterator's next), through `&`, or an argument that calls one, is not probed; an
        // initialiser, min, max and abs are values.
        func probed(_ statement: String) -> Bool {
            // A statement among others (a body's only one may be its value, and is not removed).
            let text = schemata("func f(_ x: inout Int, _ it: inout IndexingIterator<[Int]>, _ y: Int) throws {\n    let z = y\n    \(statement)\n}\n",
                                throwOnly: ["check"])
            return text.contains("= mutationAssigned(") || text.contains("defer { mutationThrew(")
        }
        #expect(probed("x = max(1, Int(y))"))
        #expect(!probed("x = it.next()!"))
        #expect(!probed("x = take(&x)"))
        #expect(!probed("x = [1].map { $0 }[0]"))
        #expect(probed("try check(abs(y))"))
        #expect(!probed("try check(it.next()!)"))
        // A property observer anywhere in the modules runs on an assignment of the value held:
        // then no assignment is probed.
        let observed = Finder.find([SourceText(path: "F.swift", module: "M", text: "func f(_ x: inout Int) {\n    x = 0\n}\n"),
                                    SourceText(path: "G.swift", module: "M", text: "struct S {\n    var v = 0 { didSet { } }\n}\n")])
        #expect(observed[0].sites.isEmpty)
    }

    @Test("a body without mutants that build is written once")
    func bodyWithoutLiveMutants() {
        #expect(schemata("func f() -> Int {\n    return 7\n}\n", dropping: [1, 2]) == """
            import MutationSwitch
            func f() -> Int {
                return 7
            }

            """)
    }

    @Test("a compiler error's place leads to the innermost mutant, construct or body holding it")
    func markers() {
        let text = "a /*C0{*/b /*M1{*/c/*}M1*/ d\n/*M2{*/e/*}M2*/ f/*}C0*/ g"
        let map = MarkerMap(text: text)
        #expect(MarkerMap(text: "/*B3{*/x/*}B3*/").owner(line: 1, column: 8) == .body(3))
        #expect(map.owner(line: 1, column: 1) == nil)  // a
        #expect(map.owner(line: 1, column: 10) == .construct(0))  // b
        #expect(map.owner(line: 1, column: 19) == .mutant(1))  // c
        #expect(map.owner(line: 1, column: 28) == .construct(0))  // d
        #expect(map.owner(line: 2, column: 8) == .mutant(2))  // e
        #expect(map.owner(line: 2, column: 17) == .construct(0))  // f
        #expect(map.owner(line: 2, column: 26) == nil)  // g
    }

    @Test("an error outside every probe leads to the probes of the body that holds it, not the file's")
    func probesInBody() {
        // Two bodies, each with probes: an error at `x` (first body, outside its probes) names
        // the first body's two probes; one outside both bodies names none.
        let text = "/*B0{*/x /*P1{*/p/*}P1*/ /*P2{*/q/*}P2*/ y/*}B0*/\n/*B1{*//*P3{*/r/*}P3*/ z/*}B1*/\nw"
        let map = MarkerMap(text: text)
        #expect(map.probesInBody(line: 1, column: 8) == [1, 2])
        #expect(map.probesInBody(line: 2, column: 20) == [3])
        #expect(map.probesInBody(line: 3, column: 1) == nil)
    }

    @Test("what is known of a file's probes holds while other files change (IDs count on across files)")
    func probeKnowledgeAcrossFiles() {
        let first = "func f(_ a: Int) -> Int {\n    return a * 3\n}\n"
        let second = "func g(_ b: Int) -> Int {\n    return b - 1\n}\n"
        func findings(_ firstText: String) -> [FileFindings] {
            Finder.find([SourceText(path: "A.swift", module: "M", text: firstText), SourceText(path: "B.swift", module: "M", text: second)])
        }
        let before = findings(first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schemata-state-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = SchemataState(file: folder + "/state.json")
        let site = before[1].sites[0].id
        let outcome = SchemataBuild.Outcome(driver: "", notBuilt: [:], droppedConstructs: [:], droppedSites: [site: "no probe"],
                                            probed: [], rounds: 1, seconds: [], digest: "")
        state.save(outcome, findings: before)
        // A.swift gains a construct (a second return value): B.swift's IDs all move on.
        let after = findings("func f(_ a: Int) -> Int {\n    let c = a + 2\n    return c * 3\n}\n")
        #expect(after[1].sites[0].id != site)
        #expect(state.known(for: after).droppedSites == [after[1].sites[0].id: "no probe"])
    }

    @Test("compiler errors are read from swift build's output, each place once")
    func errors() {
        let output = """
            [3/9] Compiling M F.swift
            /tmp/p/Sources/M/F.swift:12:7: error: cannot convert value of type 'Double' to expected argument type 'Float'
            /tmp/p/Sources/M/F.swift:12:7: error: cannot convert value of type 'Double' to expected argument type 'Float'
            /tmp/p/Sources/M/F.swift:3:1: warning: unused
            /tmp/p/Sources/M/G.swift:40:12: error: integer literal '256' overflows when stored into 'UInt8'
            """
        let errors = CompilerError.parse(output).map { "\($0.file) \($0.line) \($0.column) \($0.message)" }
        #expect(errors == [
            "/tmp/p/Sources/M/F.swift 12 7 cannot convert value of type 'Double' to expected argument type 'Float'",
            "/tmp/p/Sources/M/G.swift 40 12 integer literal '256' overflows when stored into 'UInt8'",
        ])
    }

    @Test("text from sources reaches a page and a terminal only escaped")
    func escaping() {
        #expect(Escape.html("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;")
        #expect(Escape.terminal("red \u{1B}[31m bell \u{07} rtl \u{202E}x") == "red \\u{1b}[31m bell \\u{7} rtl \\u{202e}x")
        #expect(Escape.terminal("plain\ttab") == "plain\ttab")
    }
}
