import SwiftOperators
import SwiftSyntax

/// Infection analysis (weak mutation): in the coverage run, each mutation point whose
/// operands can be read is rewritten into a *probe* that computes the original value, as
/// the original does, and every mutant's value from the same operands; a mutant whose value
/// differs is marked *infected* for the case being drawn. A mutant can change a case's
/// pixels only if it infects that case: until the first place its run differs from the
/// original's, the two runs are the same, and that place is an evaluation of the mutation
/// point that gave another value. So a mutant is judged only on the cases it infects, and
/// one that infects none survives without being drawn.
///
/// Probes are written only into the schemata's original branches (never into a mutant's
/// copy), and compute the mutants' values only while coverage is recorded. A probe that
/// does not type-check (an operand of a type the probe functions do not take) is left out
/// like a mutant that does not build; its mutants, and those of operators without a probe
/// (constants, removed statements, negated conditions: they always change the value where
/// they run), count as infected wherever their construct runs.
public struct ProbeSite: Sendable, Codable, Hashable {
    public enum Piece: Sendable, Codable, Hashable {
        case text(String)
        /// The source range, with the constructs and probes inside it written as usual.
        case source(start: Int, end: Int)
        /// The source range as it is: a second read of an assignment's target.
        case plain(start: Int, end: Int)
        /// A mutant's ID, or 0 once it is left out (the probe then skips it).
        case mutant(Int)
    }

    public var id: Int
    public var construct: Int
    /// UTF-8 offsets of the expression the probe replaces.
    public var start: Int
    public var end: Int
    public var pieces: [Piece]
    public var mutants: [Int]
}

/// What a point's probe looks like before its mutants have IDs: the replaced range and the
/// pieces, given the point's mutant IDs in the order of its changes.
struct ProbeShape {
    var start: Int
    var end: Int
    var pieces: ([Int]) -> [ProbeSite.Piece]
    /// For a comparison: its operands, either of which may be a literal whose constant
    /// mutants the probe then computes too (`pieces` given the comparison's IDs, the
    /// literal's side, 0 left or 1 right, and each constant mutant's ID and text).
    var adoptingConstant: (operands: [Range<Int>], pieces: ([Int], Int, [(Int, String)]) -> [ProbeSite.Piece])?
    /// Written only with a literal operand's constants (`==` and `!=`, whose one mutant, the
    /// other sense, changes the value wherever it runs).
    var onlyWithConstant = false
}

/// Operator codes the probe functions (SchemataWriter.reachFile) switch on.
enum ProbeCode {
    static let comparison: [String: Int] = ["<": 1, "<=": 2, ">": 3, ">=": 4, "==": 5, "!=": 6]
    static let arithmetic: [String: Int] = [
        "+": 1, "-": 2, "*": 3, "/": 4, "%": 5, "&": 6, "|": 7, "^": 8, "<<": 9, ">>": 10, "&+": 11, "&-": 12,
    ]
    /// Rounding rules in the order of `mutationRounded`'s IDs.
    static let rules = ["()", "(.down)", "(.up)", "(.towardZero)", "(.toNearestOrEven)"]
    static let functions = ["floor": ".down", "ceil": ".up", "round": ".toNearestOrAwayFromZero", "trunc": ".towardZero"]
}

/// The operands of every infix operator, from the file folded by operator precedence
/// (the parser leaves `a + b * c` a flat sequence): keyed by the operator's offset.
struct InfixOperands {
    struct Entry {
        var lhs: Range<Int>
        var rhs: Range<Int>
    }

    var byOperator: [Int: Entry] = [:]

    init(_ tree: SourceFileSyntax) {
        // Unknown operators are left unfolded; their points get no probe.
        let folded = OperatorTable.standardOperators.foldAll(tree, errorHandler: { _ in })
        let walker = Walker(viewMode: .sourceAccurate)
        walker.walk(folded)
        byOperator = walker.entries
    }

    private final class Walker: SyntaxVisitor {
        var entries: [Int: Entry] = [:]

        override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
            func range(_ n: some SyntaxProtocol) -> Range<Int> {
                n.positionAfterSkippingLeadingTrivia.utf8Offset..<n.endPositionBeforeTrailingTrivia.utf8Offset
            }
            entries[node.operator.positionAfterSkippingLeadingTrivia.utf8Offset] =
                Entry(lhs: range(node.leftOperand), rhs: range(node.rightOperand))
            return .visitChildren
        }
    }
}

extension ProbeShape {
    /// The probe of an infix operator `op` whose mutants replace it with `replacements`.
    static func infix(_ op: String, replacements: [String], operands e: InfixOperands.Entry, containsTry: Bool) -> ProbeShape? {
        let lhs = ProbeSite.Piece.source(start: e.lhs.lowerBound, end: e.lhs.upperBound)
        let rhs = ProbeSite.Piece.source(start: e.rhs.lowerBound, end: e.rhs.upperBound)
        let range = (e.lhs.lowerBound, e.rhs.upperBound)
        if let code = ProbeCode.comparison[op] {
            let codes = replacements.compactMap { ProbeCode.comparison[$0] }
            guard codes.count == replacements.count, codes.count == 2 || codes.count == 1 else { return nil }
            /// The comparison's own mutants (a second of 0 when it has one: `==` and `!=`).
            func own(_ ids: [Int]) -> [ProbeSite.Piece] {
                [.text(", \(code), "), .mutant(ids[0]), .text(", \(codes[0]), ")]
                    + (codes.count == 2 ? [.mutant(ids[1]), .text(", \(codes[1])")] : [.text("0, 0")])
            }
            var shape = ProbeShape(start: range.0, end: range.1) { ids in
                [.text("mutationCompare("), lhs, .text(", "), rhs] + own(ids) + [.text(")")]
            }
            shape.onlyWithConstant = codes.count == 1
            shape.adoptingConstant = ([e.lhs, e.rhs], { ids, side, constants in
                // One or two constant mutants (an integer 0 has one): each its ID and the literal it puts in.
                [.text("mutationCompare("), lhs, .text(", "), rhs] + own(ids) + [.text(", literal: \(side)")]
                    + constants.prefix(2).flatMap { [ProbeSite.Piece.text(", "), .mutant($0.0), .text(", "), .text($0.1)] } + [.text(")")]
            })
            return shape
        }
        if let code = ProbeCode.arithmetic[op], replacements.count == 1, let other = ProbeCode.arithmetic[replacements[0]] {
            return ProbeShape(start: range.0, end: range.1) { ids in
                [.text("mutationArithmetic("), lhs, .text(", "), rhs, .text(", \(code), "), .mutant(ids[0]), .text(", \(other))")]
            }
        }
        if op.hasSuffix("="), let code = ProbeCode.arithmetic[String(op.dropLast())], replacements.count == 1,
           let other = ProbeCode.arithmetic[String(replacements[0].dropLast())] {
            // The target is read once more, as it is, before it is assigned.
            return ProbeShape(start: range.0, end: range.1) { ids in
                [lhs, .text(" \(op) mutationCompound("), .plain(start: e.lhs.lowerBound, end: e.lhs.upperBound), .text(", "), rhs,
                 .text(", \(code), "), .mutant(ids[0]), .text(", \(other))")]
            }
        }
        // `&&` and `||` keep their right operand lazy; a `try` there would need the probe called with `try`.
        if (op == "&&" || op == "||") && !containsTry {
            return ProbeShape(start: range.0, end: range.1) { ids in
                [.text(op == "&&" ? "mutationAnd(" : "mutationOr("), lhs, .text(", "), rhs, .text(", "), .mutant(ids[0]), .text(")")]
            }
        }
        return nil
    }
}
