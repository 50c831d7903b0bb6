/// The outcome of one comparison.
public struct ComparisonResult: Sendable, Equatable {
    /// Sizes match and both measured values lie in their tolerance ranges.
    public var pass: Bool
    /// Measurements; nil only when the sizes differ.
    public var metrics: ComparisonMetrics?
    /// Per-pixel judgements, when asked for and the sizes match.
    public var diffMap: DiffMap?
    /// Why the comparison failed, one sentence each; empty when it passed. E.g.
    /// "size differs: expected 336 x 365, actual 336 x 366",
    /// "12 different pixels, above the allowed 0-5",
    /// "max channel delta 0, below the allowed 1-2".
    public var failures: [String]
    /// The tolerance the verdict was made against.
    public var tolerance: Tolerance

    public init(pass: Bool, metrics: ComparisonMetrics?, diffMap: DiffMap?, failures: [String], tolerance: Tolerance) {
        self.pass = pass
        self.metrics = metrics
        self.diffMap = diffMap
        self.failures = failures
        self.tolerance = tolerance
    }

    /// One line for a log or a report: "identical", "pass: 3 different pixels, max
    /// channel delta 2, 5 excused: 3 within the threshold, 2 anti-aliasing (max channel
    /// delta 0-2, different pixels 0-10, perceptual 0.1)", or "fail: " and the failures
    /// joined with "; ".
    public var summary: String {
        guard pass else { return "fail: " + failures.joined(separator: "; ") }
        guard let metrics else { return "pass" }
        if metrics.differentPixels == 0 && metrics.excusedPixels == 0 && metrics.psnr == nil {
            return "identical"
        }
        var text = "pass: \(metrics.differentPixels) different pixels, max channel delta \(metrics.maxChannelDelta)"
        if metrics.excusedPixels > 0 {
            text += ", \(metrics.excusedPixels) excused"
            let reasons = [(metrics.excusedWithinThreshold, "within the threshold"),
                           (metrics.excusedAntiAliasing, "anti-aliasing"),
                           (metrics.excusedIgnored, "ignored")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
            if !reasons.isEmpty { text += ": " + reasons.joined(separator: ", ") }
        }
        return text + " (\(tolerance))"
    }
}
