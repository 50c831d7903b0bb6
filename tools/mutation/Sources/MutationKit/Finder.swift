import SwiftParser
import SwiftSyntax

/// How a schemata construct switches between the original code and its mutants at run
/// time. Each form keeps the code type-checking piece by piece, as the original does:
/// every mutant is a copy of the construct with one change, never an expression-level
/// choice between two values (ternaries between mutants make Swift's type checker
/// explode, and nesting them grows exponentially).
public enum ConstructForm: String, Sendable, Codable {
    /// An expression in a place Swift allows a `switch` expression (a variable's initial
    /// value, a returned value, the single expression of a body):
    /// `switch mutation_active() { case ..<0: mutationReach(k, E) case id: E1 ... default: E }`.
    case value
    /// A Boolean condition of `if`, `guard` or `while`: a closure run in place,
    /// `({ () -> Bool in switch ... { ...: return C1 ... } })()`.
    case condition
    /// The value an optional binding of `guard` unwraps (a `guard` declares names for
    /// the rest of its scope, so it cannot itself be copied).
    case bindingValue = "binding value"
    /// A whole statement: `if mutation_outside(lo, hi) { mutation_reach(k); S } else if
    /// mutation_active() == id { S1 } ...`. An `if` chain, not a `switch`, so that a `break`
    /// in the statement still leaves the loop around it.
    case statement
}

/// A stretch of one file that the schemata rewrite switches as a whole: the smallest
/// statement, condition or value around one or more mutation points.
public struct Construct: Sendable, Codable, Hashable {
    /// Index into the coverage array: cases that run this construct "reach" its mutants.
    public var id: Int
    public var file: String
    public var form: ConstructForm
    /// UTF-8 offsets of the switched range.
    public var start: Int
    public var end: Int
    /// Whether the range contains `try` (a condition closure must then be called with `try`).
    public var throwing: Bool
    public var mutants: [Int] = []
}

/// One Swift file to analyse.
public struct SourceText: Sendable {
    /// Relative to the package root.
    public var path: String
    public var module: String
    public var text: String

    public init(path: String, module: String, text: String) {
        self.path = path
        self.module = module
        self.text = text
    }
}

/// What the finder made of one file.
public struct FileFindings: Sendable {
    public var source: SourceText
    public var constructs: [Construct]
    public var mutants: [Mutant]
    public var unmutated: [UnmutatedPlace]
    /// The outermost function, initialiser and accessor bodies (their statements' UTF-8
    /// range): each is written twice, the original as it is for every run whose mutant lies
    /// elsewhere, and its schemata.
    public var bodies: [Range<Int>] = []
    /// Every loop statement inside those bodies (with its label, if any), outermost first:
    /// each that holds mutants is written twice too, so a mutant elsewhere in its body runs
    /// the loop as it was.
    public var loops: [Range<Int>] = []
    /// The probes of the infection analysis (see `ProbeSite`).
    public var sites: [ProbeSite] = []
    /// The bodies (ranges as in `bodies`) of the functions whose result the coverage run
    /// checks under each mutant a call reaches, with the result's type (`Subject.checked`).
    public var checkedBodies: [Range<Int>: String] = [:]
    /// The bodies (ranges as in `bodies`) of the functions whose schemata can be a function of
    /// its own, with what that takes (`SwitchedFunction`).
    public var switchedFunctions: [Range<Int>: SwitchedFunction] = [:]
}

/// A function whose schemata is written as a function of its own, beside it: the original
/// body stays in place behind a one-line test of the active mutant, so the optimiser inlines
/// it where the product's build inlines the original (an `@inline(__always)` helper of a
/// per-pixel loop above all), instead of a body carrying every mutant's switch beside it.
public struct SwitchedFunction: Sendable, Equatable {
    /// The copy's declaration up to its body: `@inline(never)`, the original's modifiers, its
    /// name with `switchedSuffix`, its generic parameters, signature and `where` clause.
    public var header: String
    /// The function's name.
    public var name: String
    /// What a call passes, every parameter on as it came: `(label: x, &y)`, after `try` when
    /// the function throws.
    public var arguments: String
    public var throwsErrors: Bool
    /// Whether the body is one expression, the function's value without a `return`: behind
    /// the test it is a second statement, so it is written after a `return`.
    public var implicitReturn = false
    /// Where the original declaration ends (UTF-8 offset): the copy is written right after it.
    public var end: Int

    public static let switchedSuffix = "_mutationSchemata"

    /// The call of the copy.
    public var call: String { (throwsErrors ? "try " : "") + name + Self.switchedSuffix + arguments }
    /// The same call of the original function (a checked function's copy runs the original
    /// inside its check for a mutant elsewhere).
    public var originalCall: String { (throwsErrors ? "try " : "") + name + arguments }
}

/// Finds the mutation points of Swift files with swift-syntax's parser, and the construct
/// each belongs to. IDs are given out file by file, construct by construct, so each
/// construct's mutants have consecutive IDs (the statement form checks a range first).
public enum Finder {
    /// Every file in order; mutant IDs start at `firstMutant`, construct IDs at `firstConstruct`.
    /// `checked`: the result types of functions whose calls the coverage run checks (`Subject.checked`);
    /// `throwOnly`: functions whose calls do nothing but return or throw (`Subject.throwOnly`).
    public static func find(_ sources: [SourceText], firstMutant: Int = 1, firstConstruct: Int = 0,
                            checked: Set<String> = [], throwOnly: Set<String> = []) -> [FileFindings] {
        var nextMutant = firstMutant, nextConstruct = firstConstruct, nextSite = 0
        // A property observer anywhere (`didSet`, `willSet`: read as text, so a comment naming
        // one counts too) runs on every assignment, of the value held or not.
        let observed = sources.contains { $0.text.contains("didSet") || $0.text.contains("willSet") }
        return sources.map { source in
            let found = findings(in: source, firstMutant: nextMutant, firstConstruct: nextConstruct, firstSite: nextSite,
                                 checked: checked, throwOnly: throwOnly, observed: observed)
            nextMutant += found.mutants.count
            nextConstruct += found.constructs.count
            nextSite += found.sites.count
            return found
        }
    }

    static func findings(in source: SourceText, firstMutant: Int, firstConstruct: Int, firstSite: Int = 0,
                         checked: Set<String> = [], throwOnly: Set<String> = [], observed: Bool = false) -> FileFindings {
        let tree = Parser.parse(source: source.text)
        let converter = SourceLocationConverter(fileName: source.path, tree: tree)
        let collector = PointCollector(viewMode: .sourceAccurate)
        collector.checkedTypes = checked
        collector.throwOnly = throwOnly
        collector.assignmentProbes = !observed
        collector.operands = InfixOperands(tree).byOperator
        collector.walk(tree)
        let bytes = Array(source.text.utf8)
        let lines = LineTable(bytes)

        // Group points by construct, in source order of the construct.
        var places: [ConstructKey: [PointCollector.Point]] = [:]
        var unmutated: [UnmutatedPlace] = []
        var unmutatedIndex: [String: Int] = [:]
        for point in collector.points {
            switch point.placement {
            case .construct(let key):
                places[key, default: []].append(point)
            case .skipped(let reason):
                let line = converter.location(for: AbsolutePosition(utf8Offset: point.changes[0].start)).line
                let key = "\(line)|\(reason)"
                if let index = unmutatedIndex[key] {
                    unmutated[index].points += point.changes.count
                } else {
                    unmutatedIndex[key] = unmutated.count
                    unmutated.append(UnmutatedPlace(file: source.path, line: line, text: lines.text(ofLine: line),
                                                    reason: reason, points: point.changes.count))
                }
            }
        }
        var constructs: [Construct] = []
        var mutants: [Mutant] = []
        var probes: [(construct: Int, shape: ProbeShape, mutants: [Int])] = []
        for key in places.keys.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
            var construct = Construct(id: firstConstruct + constructs.count, file: source.path, form: key.form,
                                      start: key.start, end: key.end, throwing: key.throwing)
            let points = places[key]!.sorted { ($0.changes[0].start, $0.changes[0].end) < ($1.changes[0].start, $1.changes[0].end) }
            // Each point's mutant IDs, in the order of its changes.
            var ids: [[Int]] = []
            var next = firstMutant + mutants.count
            for point in points {
                ids.append(Array(next..<next + point.changes.count))
                next += point.changes.count
            }
            for (index, point) in points.enumerated() {
                guard var shape = point.probe else { continue }
                var watched = ids[index]
                // A literal operand of a comparison: its constant mutants change the comparison's
                // value only where the operand lies between the old and the new literal, so
                // the comparison's probe computes them too.
                if let adopt = shape.adoptingConstant {
                    for (side, range) in adopt.operands.enumerated() {
                        guard let j = points.firstIndex(where: { p in
                            p.changes.allSatisfy { $0.op == .constant && $0.start == range.lowerBound && $0.end == range.upperBound }
                        }) else { continue }
                        let constants = zip(ids[j], points[j].changes.map(\.replacement)).map { ($0, $1) }
                        shape.pieces = { own in adopt.pieces(own, side, constants) }
                        watched += ids[j]
                        shape.onlyWithConstant = false
                        break
                    }
                }
                if !shape.onlyWithConstant { probes.append((construct.id, shape, watched)) }
            }
            for point in points {
                for change in point.changes {
                    let location = converter.location(for: AbsolutePosition(utf8Offset: change.start))
                    let id = firstMutant + mutants.count
                    let original = String(decoding: bytes[change.start..<change.end], as: UTF8.self)
                    let lineText = lines.text(ofLine: location.line)
                    let lineStart = lines.start(ofLine: location.line)
                    let lineEnd = min(lines.end(ofLine: location.line), change.end)
                    let mutatedLine = String(decoding: bytes[lineStart..<change.start], as: UTF8.self) + change.replacement
                        + (change.end <= lines.end(ofLine: location.line)
                            ? String(decoding: bytes[lineEnd..<lines.end(ofLine: location.line)], as: UTF8.self) : "")
                    mutants.append(Mutant(id: id, file: source.path, module: source.module, line: location.line,
                                          column: location.column, mutationOperator: change.op, original: original,
                                          replacement: change.replacement, originalLine: lineText,
                                          mutatedLine: mutatedLine, construct: construct.id, start: change.start,
                                          end: change.end))
                    construct.mutants.append(id)
                }
            }
            constructs.append(construct)
        }
        let sites = probeSites(probes, constructs: constructs, firstSite: firstSite)
        return FileFindings(source: source, constructs: constructs, mutants: mutants, unmutated: unmutated,
                            bodies: collector.bodies, loops: collector.loops, sites: sites, checkedBodies: collector.checkedBodies,
                            switchedFunctions: collector.switchedFunctions)
    }

    /// The probes that can be written: each inside its construct, every other construct and
    /// probe either inside one of its operands or apart from it.
    static func probeSites(_ probes: [(construct: Int, shape: ProbeShape, mutants: [Int])], constructs: [Construct],
                           firstSite: Int) -> [ProbeSite] {
        let byID = Dictionary(uniqueKeysWithValues: constructs.map { ($0.id, $0) })
        var candidates = probes.compactMap { p -> ProbeSite? in
            guard let owner = byID[p.construct], p.shape.start >= owner.start, p.shape.end <= owner.end,
                  p.shape.start < p.shape.end else { return nil }
            return ProbeSite(id: 0, construct: p.construct, start: p.shape.start, end: p.shape.end,
                             pieces: p.shape.pieces(p.mutants), mutants: p.mutants)
        }
        func sources(_ s: ProbeSite) -> [Range<Int>] {
            s.pieces.compactMap { if case .source(let a, let b) = $0 { a..<b } else { nil } }
        }
        func plains(_ s: ProbeSite) -> [Range<Int>] {
            s.pieces.compactMap { if case .plain(let a, let b) = $0 { a..<b } else { nil } }
        }
        // Whether `inner` lies inside one of the site's written operands, or wholly apart from the site.
        // A construct inside a target read again as it is would lose its switch there; a probe
        // there is only not written in the second read.
        func fits(_ inner: Range<Int>, _ s: ProbeSite, isConstruct: Bool) -> Bool {
            if inner.upperBound <= s.start || inner.lowerBound >= s.end { return true }
            if inner.lowerBound <= s.start && inner.upperBound >= s.end { return true }
            return sources(s).contains { inner.lowerBound >= $0.lowerBound && inner.upperBound <= $0.upperBound }
                && !(isConstruct && plains(s).contains { inner.overlaps($0) })
        }
        candidates = candidates.filter { site in
            constructs.allSatisfy { c in c.id == site.construct || fits(c.start..<c.end, site, isConstruct: true) }
        }
        candidates = candidates.filter { site in
            candidates.allSatisfy { other in other == site || fits(other.start..<other.end, site, isConstruct: false) }
        }
        return candidates.enumerated().map { i, site in
            var s = site
            s.id = firstSite + i
            return s
        }
    }
}

struct ConstructKey: Hashable {
    var start: Int
    var end: Int
    var form: ConstructForm
    var throwing: Bool
}

/// Lines of a UTF-8 text, 1-based.
struct LineTable {
    let bytes: [UInt8]
    let starts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.starts = starts
    }

    func start(ofLine line: Int) -> Int { starts[min(max(line - 1, 0), starts.count - 1)] }

    func end(ofLine line: Int) -> Int {
        line < starts.count ? starts[line] - 1 : bytes.count
    }

    func text(ofLine line: Int) -> String {
        String(decoding: bytes[start(ofLine: line)..<max(start(ofLine: line), end(ofLine: line))], as: UTF8.self)
    }
}

/// Walks a file's syntax tree and collects each mutation point with its changes and
/// where it lives.
final class PointCollector: SyntaxVisitor {
    struct Change {
        var op: MutationOperator
        var start: Int
        var end: Int
        var replacement: String
    }

    enum Placement {
        case construct(ConstructKey)
        case skipped(String)
    }

    struct Point {
        var changes: [Change]
        var placement: Placement
        /// How the coverage run reads the point's operands (infection analysis), if it can.
        var probe: ProbeShape?
    }

    var points: [Point] = []
    /// Every infix operator's operands (the parser's sequences folded by precedence).
    var operands: [Int: InfixOperands.Entry] = [:]
    /// Outermost bodies, in source order.
    var bodies: [Range<Int>] = []
    /// Loops inside them, in source order (an outer loop before the loops inside it).
    var loops: [Range<Int>] = []
    private var bodyDepth = 0
    /// Result types whose functions are checked (see `FileFindings.checkedBodies`).
    var checkedTypes: Set<String> = []
    /// Functions the subject says do nothing but return or throw (`Subject.throwOnly`).
    var throwOnly: Set<String> = []
    /// Whether a removed assignment may be probed: not when any file of the modules has a
    /// property observer, which an assignment of the value already held still runs.
    var assignmentProbes = true
    var checkedBodies: [Range<Int>: String] = [:]
    var switchedFunctions: [Range<Int>: SwitchedFunction] = [:]

    /// A loop, with its label when it has one: `outer: for` written twice keeps `continue outer`
    /// pointing at a loop.
    private func enterLoop(_ node: some StmtSyntaxProtocol) {
        guard bodyDepth > 0 else { return }
        if let labeled = node.parent?.as(LabeledStmtSyntax.self) {
            loops.append(start(labeled)..<end(labeled))
        } else {
            loops.append(start(node)..<end(node))
        }
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { enterLoop(node); return .visitChildren }
    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { enterLoop(node); return .visitChildren }
    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { enterLoop(node); return .visitChildren }

    private func enterBody(_ statements: CodeBlockItemListSyntax?) {
        if bodyDepth == 0, let statements, !statements.isEmpty { bodies.append(start(statements)..<end(statements)) }
        bodyDepth += 1
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if bodyDepth == 0, let statements = node.body?.statements, !statements.isEmpty {
            let body = start(statements)..<end(statements)
            checkedBodies[body] = Self.checkedResult(node, checkedTypes)
            switchedFunctions[body] = Self.switchedFunction(node, statements, end: end(node))
        }
        enterBody(node.body?.statements)
        return .visitChildren
    }

    /// The schemata of `node` as a function of its own, when its signature lets a call pass
    /// every parameter on as it came: a named function (not an operator), no attribute but
    /// `@inline`, not `async`, not `open` or `override`, no variadic or unnamed parameter, no
    /// opaque result (the copy's `some` would be a type of its own).
    static func switchedFunction(_ node: FunctionDeclSyntax, _ statements: CodeBlockItemListSyntax, end: Int) -> SwitchedFunction? {
        guard case .identifier(let name) = node.name.tokenKind, !name.hasPrefix("`"),
              node.attributes.allSatisfy({ $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "inline" }),
              node.signature.effectSpecifiers?.asyncSpecifier == nil,
              !node.modifiers.contains(where: { [.keyword(.open), .keyword(.override)].contains($0.name.tokenKind) }),
              !(node.signature.returnClause?.type.trimmedDescription.hasPrefix("some ") ?? false) else { return nil }
        var arguments: [String] = []
        for p in node.signature.parameterClause.parameters {
            let inner = (p.secondName ?? p.firstName).text
            guard p.ellipsis == nil, inner != "_" else { return nil }
            let label = p.firstName.text == "_" ? "" : p.firstName.text + ": "
            let isInout = p.type.as(AttributedTypeSyntax.self)?.specifiers.contains { $0.trimmedDescription == "inout" } ?? false
            arguments.append(label + (isInout ? "&" : "") + inner)
        }
        let modifiers = node.modifiers.map(\.trimmedDescription).joined(separator: " ")
        let header = "@inline(never) " + (modifiers.isEmpty ? "" : modifiers + " ") + "func " + name + SwitchedFunction.switchedSuffix
            + (node.genericParameterClause?.trimmedDescription ?? "") + node.signature.trimmedDescription
            + (node.genericWhereClause.map { " " + $0.trimmedDescription } ?? "")
        var implicitReturn = false
        if node.signature.returnClause != nil, statements.count == 1 {
            switch statements.first!.item {
            case .expr: implicitReturn = true
            // An `if` or `switch` that is the value: no `return` in it (one with a `return` in a
            // branch is a statement).
            case .stmt(let statement):
                implicitReturn = statement.is(ExpressionStmtSyntax.self)
                    && !statement.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.return) }
            default: break
            }
        }
        return SwitchedFunction(header: header, name: name, arguments: "(" + arguments.joined(separator: ", ") + ")",
                                throwsErrors: node.signature.effectSpecifiers?.throwsClause != nil, implicitReturn: implicitReturn, end: end)
    }

    /// The result type of a function whose calls can be checked: it returns one of `types`, and
    /// what it does shows only in that result, as far as its signature can say (not mutating,
    /// no `inout` parameter, not throwing, not async). That its body writes nothing that lives
    /// on after it returns (a cache, a global) is the subject's word for those types.
    static func checkedResult(_ node: FunctionDeclSyntax, _ types: Set<String>) -> String? {
        guard !types.isEmpty, let result = node.signature.returnClause?.type.trimmedDescription, types.contains(result),
              !node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.mutating) }),
              node.signature.effectSpecifiers == nil,
              !node.signature.parameterClause.parameters.contains(where: { $0.type.is(AttributedTypeSyntax.self) })
        else { return nil }
        return result
    }
    override func visitPost(_ node: FunctionDeclSyntax) { bodyDepth -= 1 }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { enterBody(node.body?.statements); return .visitChildren }
    override func visitPost(_ node: InitializerDeclSyntax) { bodyDepth -= 1 }
    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind { enterBody(node.body?.statements); return .visitChildren }
    override func visitPost(_ node: AccessorDeclSyntax) { bodyDepth -= 1 }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
        // `var x: T { ... }`: a getter without the word.
        if case .getter(let statements) = node.accessors { enterBody(statements) }
        return .visitChildren
    }
    override func visitPost(_ node: AccessorBlockSyntax) {
        if case .getter = node.accessors { bodyDepth -= 1 }
    }

    static let binaryOperators: [String: [(String, MutationOperator)]] = [
        "<": [("<=", .conditionalsBoundary), (">=", .negateConditional)],
        "<=": [("<", .conditionalsBoundary), (">", .negateConditional)],
        ">": [(">=", .conditionalsBoundary), ("<=", .negateConditional)],
        ">=": [(">", .conditionalsBoundary), ("<", .negateConditional)],
        "==": [("!=", .negateConditional)],
        "!=": [("==", .negateConditional)],
        "+": [("-", .math)],
        "-": [("+", .math)],
        "*": [("/", .math)],
        "/": [("*", .math)],
        "%": [("*", .math)],
        "&": [("|", .math)],
        "|": [("&", .math)],
        "^": [("&", .math)],
        "<<": [(">>", .math)],
        ">>": [("<<", .math)],
        "&+": [("&-", .math)],
        "&-": [("&+", .math)],
        "&&": [("||", .logicalConnective)],
        "||": [("&&", .logicalConnective)],
        "+=": [("-=", .compoundAssignment)],
        "-=": [("+=", .compoundAssignment)],
        "*=": [("/=", .compoundAssignment)],
        "/=": [("*=", .compoundAssignment)],
        "|=": [("&=", .compoundAssignment)],
        "&=": [("|=", .compoundAssignment)],
        "<<=": [(">>=", .compoundAssignment)],
        ">>=": [("<<=", .compoundAssignment)],
        "..<": [("...", .rangeBoundary)],
        "...": [("..<", .rangeBoundary)],
    ]

    static let assertions: Set<String> = [
        "precondition", "preconditionFailure", "assert", "assertionFailure", "fatalError", "dispatchPrecondition",
    ]
    /// Calls that only reserve or release memory: no value a drawing can show depends on them,
    /// so removing one, or changing its argument, is equivalent by construction.
    static let memoryCalls: Set<String> = ["reserveCapacity", "deallocate"]
    static let roundingFunctions = ["floor", "ceil", "round", "trunc"]
    static let roundingRules = ["", ".down", ".up", ".towardZero", ".toNearestOrEven"]

    // MARK: Points

    override func visit(_ node: BinaryOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        let token = node.operator
        guard let table = Self.binaryOperators[token.text] else { return .visitChildren }
        let probe = operands[start(token)].flatMap { e in
            ProbeShape.infix(token.text, replacements: table.map(\.0), operands: e,
                             containsTry: node.parent.map { Self.hasTryOrAwait($0) } ?? true)
        }
        add(Syntax(node), table.map { Change(op: $0.1, start: token.positionAfterSkippingLeadingTrivia.utf8Offset,
                                             end: token.endPositionBeforeTrailingTrivia.utf8Offset, replacement: $0.0) },
            probe: probe)
        return .visitChildren
    }

    override func visit(_ node: PrefixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        let token = node.operator
        let isLiteral = node.expression.is(IntegerLiteralExprSyntax.self) || node.expression.is(FloatLiteralExprSyntax.self)
        if token.text == "-" && !isLiteral {
            let operand = ProbeSite.Piece.source(start: start(node.expression), end: end(node.expression))
            add(Syntax(node), [Change(op: .invertNegative, start: start(token), end: end(token), replacement: "")],
                probe: ProbeShape(start: start(node), end: end(node)) { ids in
                    [.text("mutationNegate("), operand, .text(", "), .mutant(ids[0]), .text(")")]
                })
        } else if token.text == "!" {
            add(Syntax(node), [Change(op: .booleanNegation, start: start(token), end: end(token), replacement: "")])
        }
        return .visitChildren
    }

    override func visit(_ node: IntegerLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        let (whole, negative) = literalExtent(Syntax(node))
        let text = node.literal.text.replacingOccurrences(of: "_", with: "")
        var value: Int?
        var radix = 10
        if text.hasPrefix("0x") { radix = 16; value = Int(text.dropFirst(2), radix: 16) }
        else if text.hasPrefix("0b") { radix = 2; value = Int(text.dropFirst(2), radix: 2) }
        else if text.hasPrefix("0o") { radix = 8; value = Int(text.dropFirst(2), radix: 8) }
        else { value = Int(text) }
        guard var v = value else { return .visitChildren }
        if negative { v = -v }
        var nudged = [v + 1]
        if v != 0 { nudged.append(v - 1) }
        let changes = nudged.map { n -> Change in
            let digits = radix == 10 ? String(abs(n)) : (radix == 16 ? "0x" : radix == 2 ? "0b" : "0o") + String(abs(n), radix: radix)
            return Change(op: .constant, start: whole.lowerBound, end: whole.upperBound,
                          replacement: n < 0 ? "(-\(digits))" : digits)
        }
        add(Syntax(node), changes)
        return .visitChildren
    }

    override func visit(_ node: FloatLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        let (whole, negative) = literalExtent(Syntax(node))
        guard var v = Double(node.literal.text.replacingOccurrences(of: "_", with: "")) else { return .visitChildren }
        if negative { v = -v }
        let changes = [v + 0.5, v - 0.5].map { n -> Change in
            let text = "\(abs(n))"
            return Change(op: .constant, start: whole.lowerBound, end: whole.upperBound,
                          replacement: n < 0 ? "(-\(text))" : text)
        }
        add(Syntax(node), changes)
        return .visitChildren
    }

    override func visit(_ node: BooleanLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        let token = node.literal
        add(Syntax(node), [Change(op: .booleanLiteral, start: start(token), end: end(token),
                                  replacement: token.text == "true" ? "false" : "true")])
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let args = node.arguments
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            let name = callee.baseName.text
            let unlabeled = args.allSatisfy { $0.label == nil }
            if (name == "min" || name == "max") && args.count == 2 && unlabeled {
                var changes = [Change(op: .minMax, start: start(callee.baseName), end: end(callee.baseName),
                                      replacement: name == "min" ? "max" : "min")]
                for arg in args {
                    changes.append(Change(op: .clampRemoved, start: start(node), end: end(node),
                                          replacement: "(" + arg.expression.trimmedDescription + ")"))
                }
                let (a, b) = (Array(args)[0].expression, Array(args)[1].expression)
                let pieces: [ProbeSite.Piece] = [.source(start: start(a), end: end(a)), .source(start: start(b), end: end(b))]
                func own(_ ids: [Int]) -> [ProbeSite.Piece] {
                    [.text("mutationMinMax("), pieces[0], .text(", "), pieces[1], .text(", \(name == "min"), "), .mutant(ids[0]),
                     .text(", "), .mutant(ids[1]), .text(", "), .mutant(ids[2])]
                }
                var shape = ProbeShape(start: start(node), end: end(node)) { ids in own(ids) + [.text(")")] }
                // A literal bound (`max(1, w)`): its constant mutants change the value only where
                // the other operand lies between the old bound and the new, so the probe computes them too.
                shape.adoptingConstant = ([start(a)..<end(a), start(b)..<end(b)], { ids, side, constants in
                    own(ids) + [.text(", literal: \(side)")]
                        + constants.prefix(2).flatMap { [ProbeSite.Piece.text(", "), .mutant($0.0), .text(", "), .text($0.1)] }
                        + [.text(")")]
                })
                add(Syntax(node), changes, probe: shape)
            } else if Self.roundingFunctions.contains(name) && args.count == 1, let rule = ProbeCode.functions[name] {
                let others = Self.roundingFunctions.filter { $0 != name }
                let x = args.first!.expression
                let operand = ProbeSite.Piece.source(start: start(x), end: end(x))
                add(Syntax(node), others.map {
                    Change(op: .roundingRule, start: start(callee.baseName), end: end(callee.baseName), replacement: $0)
                }, probe: ProbeShape(start: start(node), end: end(node)) { ids in
                    // One ID per function, in `roundingFunctions`' order; the original's is 0.
                    var pieces: [ProbeSite.Piece] = [.text("mutationRounding("), operand, .text(", \(rule)")]
                    for function in Self.roundingFunctions {
                        pieces += [.text(", ")] + (others.firstIndex(of: function).map { [.mutant(ids[$0])] } ?? [.text("0")])
                    }
                    return pieces + [.text(")")]
                })
            } else if name == "Float" && args.count == 1 && unlabeled {
                add(Syntax(node), [Change(op: .floatConversion, start: start(node), end: end(node),
                                          replacement: "(" + args.first!.expression.trimmedDescription + ")")])
            }
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rounded",
                  let base = member.base, args.count <= 1, node.trailingClosure == nil {
            let current = args.first.map { $0.expression.trimmedDescription } ?? ""
            let same: Set<String> = current == "" || current == ".toNearestOrAwayFromZero" ? ["", ".toNearestOrAwayFromZero"] : [current]
            var changes: [Change] = []
            let argumentsStart = node.leftParen.map(start) ?? end(member)
            for rule in Self.roundingRules where !same.contains(rule) {
                changes.append(Change(op: .roundingRule, start: argumentsStart, end: end(node), replacement: "(\(rule))"))
            }
            // Through Float or not: a Double rounded as Float first (the stage length's rule).
            let isThroughFloat = base.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription == "Float"
            if !isThroughFloat {
                changes.append(Change(op: .floatConversion, start: start(node), end: end(node),
                                      replacement: "Double(Float(\(base.trimmedDescription)).rounded(\(current)))"))
            }
            let rule: ProbeSite.Piece = args.first.map { .plain(start: start($0.expression), end: end($0.expression)) }
                ?? .text(".toNearestOrAwayFromZero")
            let replacements = changes.map { $0.op == .floatConversion ? "float" : $0.replacement }
            let baseRange = (start(base), end(base))
            add(Syntax(node), changes, probe: ProbeShape(start: start(node), end: end(node)) { ids in
                // One ID per rule, in `ProbeCode.rules`' order, then the trip through Float's; the original's is 0.
                var pieces: [ProbeSite.Piece] = [.text("mutationRounded("), .source(start: baseRange.0, end: baseRange.1), .text(", "), rule]
                for slot in ProbeCode.rules + ["float"] {
                    pieces += [.text(", ")] + (replacements.firstIndex(of: slot).map { [.mutant(ids[$0])] } ?? [.text("0")])
                }
                return pieces + [.text(")")]
            })
        }
        return .visitChildren
    }

    override func visit(_ node: ConditionElementSyntax) -> SyntaxVisitorContinueKind {
        if case .expression(let condition) = node.condition, isStatementCondition(node) {
            add(Syntax(condition), [Change(op: .booleanNegation, start: start(condition), end: end(condition),
                                           replacement: "!(" + condition.trimmedDescription + ")")])
        }
        return .visitChildren
    }

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        if isRemovable(node) {
            add(Syntax(node.item), [Change(op: .removedStatement, start: start(node.item), end: end(node.item), replacement: "")],
                probe: removalProbe(node))
        }
        return .visitChildren
    }

    /// The probe of a removed statement whose only effect can be read: an assignment `x = v`
    /// changes nothing where `x` already holds `v` to the bit (`mutationAssigned`), and a call
    /// of a function the subject says does nothing but return or throw (`throwOnly`) changes
    /// nothing where it returns (`mutationThrew`). Any other removal changes the run wherever
    /// the statement runs.
    private func removalProbe(_ node: CodeBlockItemSyntax) -> ProbeShape? {
        guard case .expr(let expr) = node.item else { return nil }
        if let sequence = expr.as(SequenceExprSyntax.self), !Self.hasTryOrAwait(expr), assignmentProbes {
            let elements = Array(sequence.elements)
            guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
            // `_ = f()` has nothing to read back. Removing the statement also removes working out
            // the value and the target, so both must do nothing but give a value.
            guard !elements[0].is(DiscardAssignmentExprSyntax.self), elements.allSatisfy({ Self.isPlainValue($0) }) else {
                return nil
            }
            let target = (start(elements[0]), end(elements[0])), value = (start(elements[2]), end(elements.last!))
            return ProbeShape(start: start(expr), end: end(expr)) { ids in
                [.source(start: target.0, end: target.1), .text(" = mutationAssigned("), .plain(start: target.0, end: target.1),
                 .text(", "), .source(start: value.0, end: value.1), .text(", "), .mutant(ids[0]), .text(")")]
            }
        }
        guard let tried = expr.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil,
              let call = tried.expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
              !call.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.await) }) else { return nil }
        let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        guard let name, throwOnly.contains(name), call.arguments.allSatisfy({ Self.isPlainValue($0.expression) }) else { return nil }
        // In a scope of its own, so the flag's name never meets another's; errors pass through
        // it as they come (a `do` without `catch`), typed or not.
        let callRange = (start(call), end(call))
        return ProbeShape(start: start(expr), end: end(expr)) { ids in
            [.text("do { var mutationReturned = false; defer { mutationThrew(mutationReturned, "), .mutant(ids[0]),
             .text(") }; try "), .source(start: callRange.0, end: callRange.1), .text("; mutationReturned = true }")]
        }
    }

    // MARK: Helpers

    /// Whether working out `expr` does nothing but give its value: names, members, literals,
    /// operators and subscripts, and calls only of initialisers (a capitalised name) and of
    /// `min`, `max` and `abs`; no method call, no `&`, no closure.
    static func isPlainValue(_ expr: some SyntaxProtocol) -> Bool {
        let visitor = PlainValueVisitor(viewMode: .sourceAccurate)
        visitor.walk(expr)
        return visitor.plain
    }

    /// Whether `node` holds a `try` or an `await`, which a probe's call would have to carry.
    private static func hasTryOrAwait(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.try) || $0.tokenKind == .keyword(.await) }
    }

    private func start(_ node: some SyntaxProtocol) -> Int { node.positionAfterSkippingLeadingTrivia.utf8Offset }
    private func end(_ node: some SyntaxProtocol) -> Int { node.endPositionBeforeTrailingTrivia.utf8Offset }

    /// A literal's range, with a `-` written before it, and whether the minus is there.
    private func literalExtent(_ node: Syntax) -> (Range<Int>, Bool) {
        if let prefix = node.parent?.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return (start(prefix)..<end(prefix), true)
        }
        return (start(node)..<end(node), false)
    }

    private func isStatementCondition(_ node: ConditionElementSyntax) -> Bool {
        guard let owner = node.parent?.parent else { return false }
        return owner.is(IfExprSyntax.self) || owner.is(GuardStmtSyntax.self) || owner.is(WhileStmtSyntax.self)
    }

    /// A call or assignment that stands as a statement among others.
    private func isRemovable(_ node: CodeBlockItemSyntax) -> Bool {
        guard case .expr(var expr) = node.item else { return false }
        guard let list = node.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        // The only statement of a body may be its value (an implicit return); of a loop's or
        // an if's block it is just a statement.
        if list.count == 1 {
            let owner = list.parent?.parent
            let isStatementBlock = owner?.is(WhileStmtSyntax.self) ?? false || owner?.is(ForStmtSyntax.self) ?? false
                || owner?.is(RepeatStmtSyntax.self) ?? false || (owner?.is(IfExprSyntax.self) ?? false && !isValueIf(owner!))
            if !isStatementBlock { return false }
        }
        // Top-level code of a file is not a body.
        if list.parent?.is(SourceFileSyntax.self) ?? true { return false }
        if let tried = expr.as(TryExprSyntax.self) { expr = tried.expression }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            if let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, Self.assertions.contains(name) {
                return false
            }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), Self.memoryCalls.contains(member.declName.baseName.text) {
                return false
            }
            // Initialising self is not optional: without it the code does not build.
            let callee = call.calledExpression.trimmedDescription
            return !(callee == "self.init" || callee == "super.init" || callee == "init")
        }
        guard isAssignment(expr), let sequence = expr.as(SequenceExprSyntax.self) else { return false }
        // Assignments that initialise (in an initialiser, or a constant declared without a
        // value) cannot go: the code would not build.
        var ancestor = node.parent
        while let a = ancestor {
            if a.is(InitializerDeclSyntax.self) { return false }
            if a.is(FunctionDeclSyntax.self) || a.is(ClosureExprSyntax.self) || a.is(AccessorDeclSyntax.self) { break }
            ancestor = a.parent
        }
        let target = sequence.elements.first?.trimmedDescription ?? ""
        return !declaredWithoutValue(target, before: node)
    }

    /// Whether `name` is declared without a value in a block around `node`.
    private func declaredWithoutValue(_ name: String, before node: CodeBlockItemSyntax) -> Bool {
        var ancestor = node.parent
        while let a = ancestor {
            if let list = a.as(CodeBlockItemListSyntax.self) {
                for item in list {
                    guard case .decl(let decl) = item.item, let variable = decl.as(VariableDeclSyntax.self) else { continue }
                    for binding in variable.bindings where binding.initializer == nil
                        && binding.pattern.trimmedDescription == name { return true }
                }
            }
            if a.is(FunctionDeclSyntax.self) || a.is(InitializerDeclSyntax.self) { break }
            ancestor = a.parent
        }
        return false
    }

    private func add(_ node: Syntax, _ changes: [Change], probe: ProbeShape? = nil) {
        guard !changes.isEmpty else { return }
        points.append(Point(changes: changes, placement: placement(of: node), probe: probe))
    }

    /// Where a point lives: the construct that switches it, or why it is not mutated.
    func placement(of node: Syntax) -> Placement {
        // Places whose code runs once per process, or is not drawing at all.
        var child = node
        var current = node.parent
        while let parent = current {
            if parent.is(AttributeSyntax.self) || parent.is(IfConfigClauseSyntax.self) && child.is(ExprSyntax.self) {
                return .skipped("an attribute or compile-time condition")
            }
            if parent.is(StringLiteralExprSyntax.self) { return .skipped("inside a string's text") }
            if parent.is(ThrowStmtSyntax.self) { return .skipped("an error's contents (no pixel shows it)") }
            if let call = parent.as(FunctionCallExprSyntax.self),
               let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
               Self.assertions.contains(name) {
                return .skipped("inside \(name)(): a check of the code's own assumptions")
            }
            if let call = parent.as(FunctionCallExprSyntax.self),
               let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
               Self.memoryCalls.contains(name) {
                return .skipped("inside \(name)(): memory reserved or released, which no pixel shows")
            }
            if parent.is(FunctionParameterSyntax.self) || parent.is(EnumCaseParameterSyntax.self) {
                return .skipped("a default argument value (evaluated at each call site, not switchable in the callee)")
            }
            if parent.is(EnumCaseElementSyntax.self) { return .skipped("an enum case's raw value (must be a literal)") }
            if let binding = parent.as(PatternBindingSyntax.self), child.is(InitializerClauseSyntax.self),
               let decl = binding.parent?.parent?.as(VariableDeclSyntax.self) {
                let isStatic = decl.modifiers.contains { ["static", "class"].contains($0.name.text) }
                let isGlobal = decl.parent?.parent?.parent?.is(SourceFileSyntax.self) ?? false
                if isStatic || isGlobal {
                    return .skipped("the initial value of a \(isStatic ? "static property" : "global"): evaluated once per process")
                }
            }
            child = parent
            current = parent.parent
        }
        // The innermost switchable construct.
        child = node
        current = node.parent
        while let parent = current {
            // In an initialiser a closure cannot capture self before it is whole: conditions
            // there switch with their whole statement.
            if let element = parent.as(ConditionElementSyntax.self), isStatementCondition(element), !inInitializer(element) {
                let owner = element.parent!.parent!
                switch element.condition {
                case .expression(let e):
                    return .construct(key(e, .condition))
                case .optionalBinding(let b):
                    if owner.is(GuardStmtSyntax.self), let value = b.initializer?.value { return .construct(key(value, .bindingValue)) }
                case .matchingPattern(let m):
                    if owner.is(GuardStmtSyntax.self) { return .construct(key(m.initializer.value, .bindingValue)) }
                default:
                    return .skipped("an availability condition")
                }
            }
            if let repeatStmt = parent.as(RepeatStmtSyntax.self), child.id == repeatStmt.condition.id {
                return .construct(key(repeatStmt.condition, .condition))
            }
            if let initializer = parent.as(InitializerClauseSyntax.self),
               let decl = initializer.parent?.parent?.parent?.as(VariableDeclSyntax.self) {
                // A local or an instance property's initial value (statics and globals left above).
                guard !isIfOrSwitch(initializer.value) else {
                    return .skipped("an if or switch expression bound to \(decl.bindingSpecifier.text): no place for a coverage mark")
                }
                return .construct(key(initializer.value, .value))
            }
            if let item = parent.as(CodeBlockItemSyntax.self) {
                if item.parent?.parent?.is(SourceFileSyntax.self) ?? false { return .skipped("top-level code") }
                switch item.item {
                case .stmt(let stmt):
                    if let ret = stmt.as(ReturnStmtSyntax.self), let value = ret.expression, !isIfOrSwitch(value) {
                        return .construct(key(value, .value))
                    }
                    if stmt.is(DeferStmtSyntax.self) { return .skipped("inside a defer (it runs where its block ends)") }
                    if stmt.is(GuardStmtSyntax.self) {
                        return .skipped("a guard's condition in an initialiser (a closure there cannot capture self, "
                            + "and a guard, which declares names for the rest of its block, cannot be copied)")
                    }
                    return .construct(key(stmt, .statement))
                case .expr(let expr):
                    // A body's single expression is its value; a statement that can be removed needs
                    // the statement form (a switch case cannot be empty).
                    if isSoleItem(item) && !isAssignment(expr) && !isIfOrSwitch(expr) && !isRemovable(item)
                        && !delegatesInitialization(expr) {
                        return .construct(key(expr, .value))
                    }
                    return .construct(key(expr, .statement))
                case .decl:
                    return .skipped("a declaration")
                }
            }
            if parent.is(MemberBlockItemSyntax.self) { return .skipped("a declaration") }
            child = parent
            current = parent.parent
        }
        return .skipped("not inside a body")
    }

    private func key(_ node: some SyntaxProtocol, _ form: ConstructForm) -> ConstructKey {
        ConstructKey(start: start(node), end: end(node), form: form,
                     throwing: node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.try) })
    }

    private func isSoleItem(_ item: CodeBlockItemSyntax) -> Bool {
        (item.parent?.as(CodeBlockItemListSyntax.self)?.count ?? 0) == 1
    }

    private func inInitializer(_ node: some SyntaxProtocol) -> Bool {
        var ancestor = node.parent
        while let a = ancestor {
            if a.is(InitializerDeclSyntax.self) { return true }
            if a.is(FunctionDeclSyntax.self) || a.is(ClosureExprSyntax.self) || a.is(AccessorDeclSyntax.self) { return false }
            ancestor = a.parent
        }
        return false
    }

    /// `self.init(...)` or `super.init(...)`: cannot sit inside a switch expression.
    private func delegatesInitialization(_ expr: ExprSyntax) -> Bool {
        var e = expr
        if let tried = e.as(TryExprSyntax.self) { e = tried.expression }
        let callee = e.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription
        return callee == "self.init" || callee == "super.init"
    }

    /// An `if` used for its value (bound, returned, or a body's single expression).
    private func isValueIf(_ node: Syntax) -> Bool {
        var top = node
        while let parent = top.parent, parent.is(IfExprSyntax.self) { top = parent }
        guard let parent = top.parent else { return false }
        if parent.is(InitializerClauseSyntax.self) || parent.is(ReturnStmtSyntax.self) { return true }
        if let item = parent.as(CodeBlockItemSyntax.self) { return isSoleItem(item) && !(item.parent?.parent?.parent?.is(ForStmtSyntax.self) ?? false) }
        return false
    }

    private func isIfOrSwitch(_ expr: ExprSyntax) -> Bool {
        expr.is(IfExprSyntax.self) || expr.is(SwitchExprSyntax.self)
    }

    private func isAssignment(_ expr: ExprSyntax) -> Bool {
        guard let sequence = expr.as(SequenceExprSyntax.self) else { return false }
        return sequence.elements.contains { element in
            element.is(AssignmentExprSyntax.self)
                || (element.as(BinaryOperatorExprSyntax.self).map { $0.operator.text.hasSuffix("=")
                    && !["==", "!=", "<=", ">=", "==="].contains($0.operator.text) } ?? false)
        }
    }
}

/// Finds what makes an expression more than a value (`PointCollector.isPlainValue`).
private final class PlainValueVisitor: SyntaxVisitor {
    var plain = true

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
        if !(name.first?.isUppercase ?? false) && !["min", "max", "abs"].contains(name) { plain = false }
        return .visitChildren
    }

    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind { plain = false; return .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { plain = false; return .skipChildren }
    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { plain = false; return .skipChildren }
}
