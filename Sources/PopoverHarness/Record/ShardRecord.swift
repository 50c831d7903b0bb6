/// What a shard's result says about itself, so that merging the results of several CI
/// machines can refuse anything that does not add up to one run.
public struct ShardRecord: Sendable, Hashable, Codable {
    /// 1-based: shard `index` of `count`.
    public var index: Int
    public var count: Int
    /// What every shard of the same run shares.
    public var identity: RunIdentity
    /// Every case ID of the whole run (all shards), in catalog order: a merge checks that
    /// the shards together judged each exactly once.
    public var selection: [String]

    public init(index: Int, count: Int, identity: RunIdentity, selection: [String]) {
        self.index = index
        self.count = count
        self.identity = identity
        self.selection = selection
    }
}

/// Digests of what makes two runs comparable: the goldens they judged against, the
/// tolerances, the record mode and the case catalog (every case ID and what it draws),
/// and how its cases were shared out ("pixels", or a digest of the timings given).
public struct RunIdentity: Sendable, Hashable, Codable {
    public var goldens: String
    public var tolerances: String
    public var recordMode: RecordMode
    public var catalog: String
    /// nil in shard records written before timings existed: those shared out by pixels.
    public var shareCosts: String?

    public init(goldens: String, tolerances: String, recordMode: RecordMode, catalog: String, shareCosts: String = "pixels") {
        self.goldens = goldens
        self.tolerances = tolerances
        self.recordMode = recordMode
        self.catalog = catalog
        self.shareCosts = shareCosts
    }
}
