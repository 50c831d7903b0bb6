import Testing
@testable import MutationKit

/// The finder on small snippets: which mutants, which constructs, which places are left
/// alone. Expectations are the operator tables of docs/sensitivity.md applied by hand.
@Suite("Finder")
struct FinderTests {
    func find(_ text: String) -> FileFindings {
        Finder.find([SourceText(path: "Sources/M/F.swift", module: "M", text: text)])[0]
    }

    /// (operator, original, replacement) of each mutant, in order.
    func changes(_ text: String) -> [String] {
        find(text).mutants.map { "\($0.mutationOperator.rawValue): \($0.original) -> \($0.replacement)" }
    }

    @Test("a comparison: its boundary moved and its sense negated; a condition negated whole")
    func comparison() {
        #expect(changes("func f(a: Int, b: Int) -> Bool {\n    if a < b { return true }\n    return false\n}\n") == [
            "boolean negation: a < b -> !(a < b)",
            "conditionals boundary: < -> <=",
            "negate conditional: < -> >=",
            "boolean literal: true -> false",
            "boolean literal: false -> true",
        ])
    }

    @Test("checked functions: those returning a checked type whose signature can change nothing else")
    func checked() {
        let text = """
            struct Mask: Equatable { var v: Int }
            func plain(_ a: Int) -> Mask { Mask(v: a) }
            func other(_ a: Int) -> Int { a }
            func shared(_ a: inout Int) -> Mask { Mask(v: a) }
            func throwing(_ a: Int) throws -> Mask { Mask(v: a) }
            struct S {
                var k = 1
                func reading() -> Mask { Mask(v: k) }
                mutating func writing() -> Mask { k += 1; return Mask(v: k) }
                static func made(_ a: Int) -> Mask {
                    func inner() -> Mask { Mask(v: a) }
                    return inner()
                }
            }

            """
        let found = Finder.find([SourceText(path: "Sources/M/F.swift", module: "M", text: text)], checked: ["Mask"])[0]
        let bytes = Array(text.utf8)
        let bodies = found.checkedBodies.keys.sorted { $0.lowerBound < $1.lowerBound }.map {
            String(decoding: bytes[$0], as: UTF8.self)
        }
        // `plain`, `reading` and `made` (whose nested `inner` is held by `made`'s check); not
        // an Int, an `inout` parameter, a throwing function or a mutating one.
        #expect(bodies == ["Mask(v: a)", "Mask(v: k)", "func inner() -> Mask { Mask(v: a) }\n        return inner()"])
        #expect(Set(found.checkedBodies.values) == ["Mask"])
        // Nothing is checked unless the subject names a type.
        #expect(find(text).checkedBodies.isEmpty)
    }

    @Test("loops inside bodies, each with its label, outer before inner; none outside a body")
    func loops() {
        let text = "let top = [1].map { v in v }\nfunc f() {\n    outer: for i in 0..<2 {\n        while i > 5 { break outer }\n    }\n    repeat {} while false\n}\n"
        let found = find(text).loops
        let bytes = Array(text.utf8)
        #expect(found.map { String(decoding: bytes[$0], as: UTF8.self) } == [
            "outer: for i in 0..<2 {\n        while i > 5 { break outer }\n    }",
            "while i > 5 { break outer }",
            "repeat {} while false",
        ])
    }

    @Test("arithmetic, a compound assignment, constants nudged, a statement removed")
    func arithmetic() {
        #expect(changes("func f(_ x: inout Double, _ y: Double) {\n    x += 1\n    x = y * 0.5 - x\n}\n") == [
            "removed statement: x += 1 -> ",
            "compound assignment: += -> -=",
            "constant: 1 -> 2",
            "constant: 1 -> 0",
            "removed statement: x = y * 0.5 - x -> ",
            "math: * -> /",
            "constant: 0.5 -> 1.0",
            "constant: 0.5 -> 0.0",
            "math: - -> +",
        ])
    }

    @Test("a negative literal moves as a whole; a negated value loses its minus")
    func negatives() {
        #expect(changes("func f(_ x: Int) -> Int {\n    return -x * -2\n}\n") == [
            "invert negative: - -> ",
            "math: * -> /",
            "constant: -2 -> (-1)",
            "constant: -2 -> (-3)",
        ])
    }

    @Test("min and max: swapped, and each replaced by one argument (a clamp removed)")
    func minMax() {
        #expect(changes("func f(_ x: Double) -> Double {\n    return min(x, y)\n}\n") == [
            "min/max swap: min -> max",
            "clamp removed: min(x, y) -> (x)",
            "clamp removed: min(x, y) -> (y)",
        ])
    }

    @Test("rounding rules swapped, and a rounding taken through Float or not")
    func rounding() {
        #expect(changes("func f(_ v: Double) -> Double {\n    return v.rounded()\n}\n") == [
            "rounding rule: () -> (.down)",
            "rounding rule: () -> (.up)",
            "rounding rule: () -> (.towardZero)",
            "rounding rule: () -> (.toNearestOrEven)",
            "float conversion: v.rounded() -> Double(Float(v).rounded())",
        ])
        // The stage length's rule: its trip through Float removed, its rule swapped.
        #expect(changes("func f(_ v: Double) -> Double {\n    return Double(Float(v).rounded(.toNearestOrAwayFromZero))\n}\n") == [
            "float conversion: Float(v) -> (v)",
            "rounding rule: (.toNearestOrAwayFromZero) -> (.down)",
            "rounding rule: (.toNearestOrAwayFromZero) -> (.up)",
            "rounding rule: (.toNearestOrAwayFromZero) -> (.towardZero)",
            "rounding rule: (.toNearestOrAwayFromZero) -> (.toNearestOrEven)",
        ])
    }

    @Test("what runs once per process, default arguments, messages and assertions are listed, not mutated")
    func leftAlone() {
        let found = find("""
            struct S {
                static let table = [1, 2]
                func f(_ x: Int = 3) -> String {
                    precondition(x > 0, "x must be positive")
                    return "x is \\(x + 1)"
                }
            }
            let global = 4 * 2

            """)
        #expect(found.mutants.isEmpty)
        let reasons = found.unmutated.map { "\($0.line): \($0.reason) (\($0.points))" }
        #expect(reasons == [
            "2: the initial value of a static property: evaluated once per process (4)",
            "3: a default argument value (evaluated at each call site, not switchable in the callee) (2)",
            "4: inside precondition(): a check of the code's own assumptions (3)",
            "5: inside a string's text (3)",
            "8: the initial value of a global: evaluated once per process (5)",
        ])
    }

    @Test("reserving or releasing memory is neither removed nor mutated inside: no pixel shows it")
    func memoryCalls() {
        let found = find("""
            func f(_ n: Int) -> [Int] {
                var out: [Int] = []
                out.reserveCapacity(n + 1)
                let p = UnsafeMutablePointer<Int>.allocate(capacity: n)
                p.deallocate()
                out.append(n)
                return out
            }

            """)
        // Only `out.append(n)` can go; `n + 1` inside the capacity is listed, not mutated.
        #expect(found.mutants.map { "\($0.line) \($0.mutationOperator.rawValue)" } == ["6 removed statement"])
        #expect(found.unmutated.map { "\($0.line): \($0.reason)" }
            == ["3: inside reserveCapacity(): memory reserved or released, which no pixel shows"])
    }

    @Test("each mutant lies in the smallest construct around it, in the form its place allows")
    func constructs() {
        let found = find("""
            func f(_ a: Int) -> Int {
                let b = a + 1
                guard b > 2 else { return 0 }
                var c = b
                c -= 3
                return c * 2
            }

            """)
        let forms = found.constructs.map { "\($0.form.rawValue) \($0.mutants.count)" }
        // let's value; guard's condition; its else's return value; the statement; the return value.
        #expect(forms == ["value 3", "condition 5", "value 1", "statement 4", "value 3"])
        // IDs: consecutive within each construct, constructs in source order.
        #expect(found.mutants.map(\.id) == Array(1...16))
        #expect(found.constructs.map(\.mutants) == [[1, 2, 3], [4, 5, 6, 7, 8], [9], [10, 11, 12, 13], [14, 15, 16]])
    }

    @Test("a mutant's line and the line as mutated")
    func lines() {
        let found = find("func f(_ a: Int) -> Int {\n    return a + 1 // one more\n}\n")
        let first = found.mutants[0]
        #expect(first.line == 2)
        #expect(first.column == 14)
        #expect(first.originalLine == "    return a + 1 // one more")
        #expect(first.mutatedLine == "    return a - 1 // one more")
    }
}
