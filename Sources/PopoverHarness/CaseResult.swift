import PopoverDiff

/// How one case came out.
public enum CaseStatus: String, Sendable, Codable, CaseIterable {
    /// Matches its golden within tolerance.
    case passed
    /// Differs beyond tolerance.
    case failed
    /// Has no golden, and this run does not record one.
    case missing
    /// Had no golden; this run recorded one.
    case new
    /// Differed; this run rewrote its golden (record modes failed and all).
    case recorded
    /// Could not be judged: drawing failed or the golden could not be read.
    case error

    /// Whether the case makes a check fail.
    public var isFailure: Bool { self == .failed || self == .missing || self == .error }
}

/// Images kept for the report, as paths relative to the report folder.
public struct CaseArtifacts: Sendable, Equatable, Codable {
    public var expected: String?
    public var actual: String?
    public var heatmap: String?
}

/// The verdict on one case, with what the report shows of it.
public struct CaseResult: Sendable {
    public let goldenCase: GoldenCase
    public var status: CaseStatus
    /// Nil when nothing was compared (missing, new, error, size mismatch).
    public var metrics: ComparisonMetrics?
    /// One line: why it failed, or "identical", or what was recorded.
    public var message: String
    public var tolerance: String
    public var artifacts = CaseArtifacts()
    /// Confirmed by digests without decoding the golden.
    public var matchedByDigest = false
    /// The golden's path as given to the run.
    public var goldenPath: String
    /// Pixel size of the rendered image (0 when drawing failed).
    public var width = 0
    public var height = 0
    public var seconds = 0.0

    public var id: String { goldenCase.id }
}
