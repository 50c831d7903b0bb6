import Foundation

/// Everything a check found: a result per case, goldens no case owns, run-level
/// problems, and what the run was (mode, tolerance, shard, identity).
///
/// A finished run is plain data: the report writes it as `summary.json` and reads it
/// back, so accepting cases later, or merging the runs of several CI machines, works
/// from the files a run left behind.
public struct RunRecord: Sendable {
    public var results: [CaseResult]
    /// Golden IDs present in the goldens folder that no case owns.
    public var orphans: [String] = []
    /// Orphans this run deleted (record --prune).
    public var pruned: [String] = []
    /// Problems that are not one case's (an unreadable tolerances file, a goldens folder
    /// that cannot be written, a skin folder with a mistake...): the check exits 2.
    public var errors: [String] = []
    /// Things worth saying that change no verdict (a digest cache that had to be rebuilt).
    public var notes: [String] = []
    public var recordMode: RecordMode
    public var filter: String?
    public var goldensFolder: String
    /// The suite-wide tolerance, described.
    public var tolerance: String
    public var started: Date
    public var seconds: Double = 0
    /// The threads the run's cases were judged on (a merged run: its shards' together).
    public var jobs: Int
    /// When the run was one shard of several: which, and what it belongs to.
    public var shard: ShardRecord?
    /// The failing and new cases grouped by cause, in the order the page's index shows
    /// them (see `groupChanges`).
    public var changes: [Change] = []
    /// The skins and report folders the run used: every command it prints carries them
    /// when they are not the defaults.
    public var skinsFolder = RunRecord.defaultSkins
    public var reportsFolder = RunRecord.defaultReports
    public static let defaultSkins = "Skins"
    public static let defaultReports = "Reports"
    public static let defaultGoldens = "Goldens"

    public init(results: [CaseResult], recordMode: RecordMode, filter: String?, goldensFolder: String,
                tolerance: String, started: Date, jobs: Int) {
        self.results = results
        self.recordMode = recordMode
        self.filter = filter
        self.goldensFolder = goldensFolder
        self.tolerance = tolerance
        self.started = started
        self.jobs = jobs
    }

    /// The most threads one check may run on (`--jobs`); a record's `jobs` is read up to
    /// this many for each of at most 1000 shards.
    public static let mostJobs = 4_096

    public func count(_ status: CaseStatus) -> Int { results.reduce(0) { $0 + ($1.status == status ? 1 : 0) } }

    /// Cases a reviewer accepted after the run.
    public var acceptedCount: Int { results.reduce(0) { $0 + ($1.accepted == nil ? 0 : 1) } }

    /// 0 when everything passed (new goldens recorded count as passing), 1 when a case
    /// failed or lacks its golden, 2 when anything could not be judged or written.
    /// Cases accepted after the run count as they were judged: the run stays what it was.
    public var exitCode: Int32 {
        if !errors.isEmpty || results.contains(where: { $0.status == .error }) { return 2 }
        if results.contains(where: { $0.status.isFailure }) { return 1 }
        return 0
    }

    public var failures: [CaseResult] { results.filter { $0.status.isFailure } }

    /// How long each case took, by ID: what `Shard.costs` shares cases out by.
    public var caseSeconds: [String: Double] {
        Dictionary(results.map { ($0.id, $0.seconds) }, uniquingKeysWith: { first, _ in first })
    }

    /// Counts by status (`passed`, `failed`, ...), plus `total`, `orphaned`, `pruned`,
    /// `accepted` and `runErrors`.
    public var counts: [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: CaseStatus.allCases.map { ($0.rawValue, count($0)) })
        counts["total"] = results.count
        counts["orphaned"] = orphans.count
        counts["pruned"] = pruned.count
        counts["accepted"] = acceptedCount
        counts["runErrors"] = errors.count
        return counts
    }
}
