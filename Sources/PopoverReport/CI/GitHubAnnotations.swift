import PopoverHarness

/// GitHub Actions workflow commands that put a run's failing cases on the pull request:
/// one `::error file=<golden>,title=<id>::<explanation>` line per failing case, worst
/// first (the order of the job summary's table), at most `limit`, then one line saying
/// how many more there are.
public enum GitHubAnnotations {
    /// GitHub shows at most 50 error annotations of a step; more only bury the first ones.
    public static let limit = 50

    public static func lines(_ run: RunRecord) -> [String] {
        let failures = SummaryMarkdown.worstFailures(run)
        var lines = failures.prefix(limit).map { r in
            "::error file=\(property(r.goldenPath)),title=\(property(r.id))::\(data(r.explanation ?? r.message))"
        }
        if failures.count > limit {
            let more = failures.count - limit
            lines.append("::error title=popover-goldens::" + data("and \(more) more failing case\(more == 1 ? "" : "s"); "
                + "the job summary and the report list them all"))
        }
        return lines
    }

    /// A command's message: `%`, carriage return and line feed percent-encoded, as the
    /// runner decodes them.
    public static func data(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property's value: as `data`, and also `:` and `,`, which would end it.
    public static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
