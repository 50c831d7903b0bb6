import ArgumentParser
import Foundation
import PopoverHarness
import PopoverReport

/// Where a finished run tells a CI service about itself, beside its report folder.
enum AnnotationFormat: String, ExpressibleByArgument, CaseIterable {
    /// GitHub Actions workflow commands (`::error ...`).
    case github
    case none
}

/// What `check` and `merge-reports` hand a CI service: annotations on standard output,
/// and the job summary (the report's `summary.md`) appended to `$GITHUB_STEP_SUMMARY`
/// when it is set.
struct CIOutputOptions: ParsableArguments {
    @Option(help: "Print an annotation per failing case: github (::error lines, at most 50) or none. Default: github when GITHUB_ACTIONS is true, else none.")
    var annotations: AnnotationFormat?

    /// The reporters these options and `environment` ask for.
    func reporters(environment: [String: String] = ProcessInfo.processInfo.environment) -> [any RunReporter] {
        let format = annotations ?? (environment["GITHUB_ACTIONS"] == "true" ? .github : AnnotationFormat.none)
        var reporters: [any RunReporter] = []
        if format == .github { reporters.append(GitHubAnnotations()) }
        if let summary = JobSummary.from(environment: environment) { reporters.append(summary) }
        return reporters
    }
}
