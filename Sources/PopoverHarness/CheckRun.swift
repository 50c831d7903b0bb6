import Foundation

/// Everything a check found: a result per case, goldens no case owns, run-level
/// problems, and timing.
public struct CheckRun: Sendable {
    public var results: [CaseResult]
    /// Golden IDs present in the goldens folder that no case owns.
    public var orphans: [String]
    /// Orphans this run deleted (record --prune).
    public var pruned: [String] = []
    /// Problems that are not one case's: an unreadable tolerances file, a goldens
    /// folder that cannot be written, a report that cannot be written...
    public var errors: [String]
    public var recordMode: RecordMode
    public var filter: String?
    public var goldensFolder: String
    public var reportsFolder: String
    /// The suite-wide tolerance, described.
    public var tolerance: String
    public var started: Date
    public var seconds: Double
    public var jobs: Int
    /// Where the report's index.html was written, when it was.
    public var reportPath: String?

    public func count(_ status: CaseStatus) -> Int { results.filter { $0.status == status }.count }

    /// 0 when everything passed (new goldens recorded count as passing), 1 when a case
    /// failed or lacks its golden, 2 when anything could not be judged or written.
    public var exitCode: Int32 {
        if !errors.isEmpty || results.contains(where: { $0.status == .error }) { return 2 }
        if results.contains(where: { $0.status.isFailure }) { return 1 }
        return 0
    }

    public var failures: [CaseResult] { results.filter { $0.status.isFailure } }
}
