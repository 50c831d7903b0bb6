import PopoverHarness

/// GitHub Actions workflow commands that put a run's failing cases on the pull request:
/// one `::error file=<golden>,title=<id>::<explanation>` line per failing case, worst
/// first (the order of the job summary's table), at most `limit`, then one line saying
/// how many more there are. Values go through `Escape.githubProperty` and
/// `Escape.githubData`, and each line through the console's terminal escaper.
public struct GitHubAnnotations: RunReporter {
    /// GitHub shows at most 50 error annotations of a step; more only bury the first ones.
    public static let limit = 50

    public init() {}

    public func finished(_ run: RunRecord, report: PublishedReport?, console: Console) {
        for line in Self.lines(run) { console.line(line) }
    }

    public static func lines(_ run: RunRecord) -> [String] {
        let failures = SummaryMarkdown.worstFailures(run)
        var lines = failures.prefix(limit).map { r in
            "::error file=\(Escape.githubProperty(r.goldenPath)),title=\(Escape.githubProperty(r.id))::"
                + Escape.githubData(r.explanation ?? r.message)
        }
        if failures.count > limit {
            let more = failures.count - limit
            lines.append("::error title=popover-goldens::" + Escape.githubData("and \(more) more failing case\(more == 1 ? "" : "s"); "
                + "the job summary and the report list them all"))
        }
        return lines
    }
}
