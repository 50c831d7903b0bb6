/// What a mutant changes, in the words of the mutation-testing literature (PIT's names
/// where PIT has one).
public enum MutationOperator: String, Sendable, Codable, CaseIterable, Comparable {
    /// `<` and `<=`, `>` and `>=` swapped: the boundary moves by one value.
    case conditionalsBoundary = "conditionals boundary"
    /// A comparison turned into its opposite (`==` and `!=`, `<` and `>=`, ...).
    case negateConditional = "negate conditional"
    /// `+` and `-`, `*` and `/`, `%`, bitwise and shift operators swapped.
    case math
    /// `+=` and `-=`, `*=` and `/=` swapped.
    case compoundAssignment = "compound assignment"
    /// `..<` and `...` swapped: a range one longer or shorter.
    case rangeBoundary = "range boundary"
    /// `-x` becomes `x`.
    case invertNegative = "invert negative"
    /// `!x` becomes `x`, or a condition `c` becomes `!(c)`.
    case booleanNegation = "boolean negation"
    /// `&&` and `||` swapped.
    case logicalConnective = "logical connective"
    /// `true` and `false` swapped.
    case booleanLiteral = "boolean literal"
    /// A number literal moved by 1 (integers) or 0.5 (fractions).
    case constant
    /// A rounding rule replaced by another (`.rounded()`, `.down`, `.up`, `.towardZero`,
    /// `.toNearestOrEven`; `floor`, `ceil`, `round`, `trunc`).
    case roundingRule = "rounding rule"
    /// A value's trip through `Float` removed, or added before a rounding.
    case floatConversion = "float conversion"
    /// `min` and `max` swapped.
    case minMax = "min/max swap"
    /// `min(a, b)` or `max(a, b)` replaced by one of its arguments: a clamp removed.
    case clampRemoved = "clamp removed"
    /// A call or assignment statement removed.
    case removedStatement = "removed statement"

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One mutant: one change at one place of one file, switched on at run time by its ID.
public struct Mutant: Sendable, Codable, Hashable, Identifiable {
    /// 1 and up; 0 is the original program, negative IDs record coverage.
    public var id: Int
    /// Relative to the package root, e.g. `Sources/PopoverGeometry/StageLength.swift`.
    public var file: String
    public var module: String
    public var line: Int
    public var column: Int
    public var mutationOperator: MutationOperator
    /// The replaced source text and what replaces it.
    public var original: String
    public var replacement: String
    /// The whole source line before and after the change (first line of a longer span).
    public var originalLine: String
    public var mutatedLine: String
    /// The schemata construct that holds the mutant (its coverage is the construct's).
    public var construct: Int
    /// UTF-8 offsets of the replaced range in the file.
    public var start: Int
    public var end: Int
}

/// A place the finder saw a mutation point but did not mutate, and why.
public struct UnmutatedPlace: Sendable, Codable, Hashable {
    public var file: String
    public var line: Int
    public var text: String
    public var reason: String
    /// How many mutants the place would have held.
    public var points: Int
}
