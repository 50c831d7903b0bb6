/// What became of a mutant.
public enum MutantStatus: String, Sendable, Codable, CaseIterable {
    /// A case's pixels differ from its golden (or it cannot be drawn): the suite fails.
    case killed
    /// Every case that runs its code draws its golden exactly.
    case survived
    /// The search found no input of the shipped skins that tells it from the original.
    case equivalent
    /// The driver died by a signal (a trap, an overflow, memory) before any case failed.
    case crashed
    /// A case went over its time limit (1.25 x the original's time for it + 4 s) before any case failed.
    case timedOut = "timed out"
    /// Did not compile; outside the score.
    case notBuilt = "not built"
    /// Code no drawing runs for any input (facts, the part map, other commands): the goldens'
    /// pixels cannot see it by construction; outside the score, held by unit tests instead.
    case notOnDrawingPath = "not on the drawing path"
    /// Left out of this run (a --file, --line or --sample run).
    case notRun = "not run"
}

/// A survivor's classification (part 2): what the search found.
public struct Classification: Sendable, Codable, Hashable {
    public enum Kind: String, Sendable, Codable {
        /// An input of the shipped skins draws differently: a missing case.
        case missingCase = "missing case"
        /// No shipped input differs (or none runs the code), but other artwork does:
        /// code the shipped skins never exercise.
        case otherArtworkOnly = "other artwork only"
        /// No input, shipped or other artwork, draws differently.
        case likelyEquivalent = "likely equivalent"
        /// No input at all runs the code.
        case unreached
        /// The search itself was stopped: the mutant hung or crashed on an input of the shipped
        /// skins (that input is a missing case). On other artwork's input it is `otherArtworkOnly`.
        case hangsOrCrashes = "hangs or crashes on an input"
        /// Unreached, in code the subject lists as not drawing (`notOnDrawingPath` in its subject.json).
        case notOnDrawingPath = "not on the drawing path"
    }

    public var kind: Kind
    /// The input that tells them apart, as a ready case.
    public var input: String?
    /// Inputs drawn with the mutant, and how many of the space's inputs run its code.
    public var shippedTried: Int
    public var shippedReaching: Int
    /// Of the inputs that run its code, those where it changes a value (all of them for a
    /// mutant no probe watches).
    public var shippedInfecting: Int
    public var artworkTried: Int
    public var artworkReaching: Int
    public var artworkInfecting: Int
    /// The budget the search had (inputs per space).
    public var budget: Int
    public var artworkBudget: Int
    /// In words, with the numbers.
    public var reason: String
    /// Of the shipped inputs tried, those known to draw no difference without being drawn:
    /// a case's own drawing, which the survivor passes.
    public var shippedFromCases: Int?
}

/// One mutant's result.
public struct MutantResult: Sendable, Codable {
    public var mutant: Mutant
    public var status: MutantStatus
    /// Cases that failed, in the order judged (the first few unless every kill was counted).
    public var killedBy: [String] = []
    /// Whether every selected case was judged (otherwise counting stopped at the first few).
    public var killsCounted = false
    /// Cases it was judged on: those it infects (all cases when it changes how they are set up).
    public var selected = 0
    /// Cases that run its construct.
    public var reaching = 0
    /// The case being drawn when the driver crashed or ran out of time.
    public var lastCase: String?
    /// Why it was not built, or how it crashed.
    public var detail: String?
    /// A mutant of the setup: whether the subject set up under it was set up alike (the same
    /// cases, skins that draw alike), so nothing it did while setting up reaches a drawing.
    public var setUpAlike: Bool?
    /// Survivors: what the search found.
    public var classification: Classification?
    /// Killed mutants the tolerance policy would let through (every case that runs it passes).
    public var passesUnderTolerances: Bool?
    public var seconds: Double = 0
}
