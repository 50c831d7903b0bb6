import Foundation
import PopoverDiff

/// What a check (or record) run does.
public struct CheckOptions: Sendable {
    public var goldensFolder = "Goldens"
    /// The skins and report folders, as given: what the commands a run prints carry.
    public var skinsFolder = RunRecord.defaultSkins
    public var reportsFolder = RunRecord.defaultReports
    /// A case filter (see `CaseFilter`); nil runs every case.
    public var filter: String?
    /// Only this shard of the selected cases (see `Shard`).
    public var shard: Shard?
    /// Where the shard came from when a CI's variables named it (see `CIShard`): said in
    /// the run's notes.
    public var shardSource: String?
    /// How long each case took in a previous run (seconds by ID), to share cases out by
    /// (see `Shard.costs`); nil shares them out by their pixels.
    public var shardTimings: [String: Double]?
    public var recordMode: RecordMode = .never
    /// Write the facts of goldens whose pixels are unchanged, never a golden image
    /// (`record --facts-only`); with `prune`, also delete orphans.
    public var factsOnly = false
    /// Delete goldens no case owns (within the filter).
    public var prune = false
    /// Prune even more than `pruneShare` of the goldens.
    public var forcePrune = false
    /// The largest share of the goldens pruning deletes without `forcePrune`.
    public static let pruneShare = 0.25
    /// Worker threads; every core by default.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Replaces the suite-wide default of `tolerances.json` when set; skin and case
    /// entries there still apply on top.
    public var suiteTolerance: Tolerance?
    /// Keep the images of passing cases too (they are seldom looked at and cost time).
    public var keepsImagesOfPassingCases = false
    /// Where facts learned by decoding goldens are kept between runs; nil keeps them in
    /// memory for this run only.
    public var cacheFolder: String? = GoldenDigestCache.defaultFolder()

    public init() {}
}
