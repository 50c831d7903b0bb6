import Foundation

/// A run as JSON: its settings and findings, then `cases`, one object per result.
extension RunRecord: Codable {
    enum Key: String, CodingKey {
        case started, seconds, jobs, recordMode, filter, tolerance, goldens, shard
        case errors, notes, orphans, pruned, changes, cases, skins, reports, commands
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(results: try c.decode([CaseResult].self, forKey: .cases),
                  recordMode: try c.decode(RecordMode.self, forKey: .recordMode),
                  filter: try c.decodeIfPresent(String.self, forKey: .filter),
                  goldensFolder: try c.decode(String.self, forKey: .goldens),
                  tolerance: try c.decode(String.self, forKey: .tolerance),
                  started: try c.decode(Date.self, forKey: .started),
                  jobs: try c.decode(Int.self, forKey: .jobs))
        seconds = try c.decode(Double.self, forKey: .seconds)
        shard = try c.decodeIfPresent(ShardRecord.self, forKey: .shard)
        errors = try c.decodeIfPresent([String].self, forKey: .errors) ?? []
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        orphans = try c.decodeIfPresent([String].self, forKey: .orphans) ?? []
        pruned = try c.decodeIfPresent([String].self, forKey: .pruned) ?? []
        changes = try c.decodeIfPresent([Change].self, forKey: .changes) ?? []
        skinsFolder = try c.decodeIfPresent(String.self, forKey: .skins) ?? RunRecord.defaultSkins
        reportsFolder = try c.decodeIfPresent(String.self, forKey: .reports) ?? RunRecord.defaultReports
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(started, forKey: .started)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(jobs, forKey: .jobs)
        try c.encode(recordMode, forKey: .recordMode)
        try c.encodeIfPresent(filter, forKey: .filter)
        try c.encode(tolerance, forKey: .tolerance)
        try c.encode(goldensFolder, forKey: .goldens)
        try c.encodeIfPresent(shard, forKey: .shard)
        try c.encode(errors, forKey: .errors)
        try c.encode(notes, forKey: .notes)
        try c.encode(orphans, forKey: .orphans)
        try c.encode(pruned, forKey: .pruned)
        try c.encode(changes, forKey: .changes)
        if skinsFolder != RunRecord.defaultSkins { try c.encode(skinsFolder, forKey: .skins) }
        if reportsFolder != RunRecord.defaultReports { try c.encode(reportsFolder, forKey: .reports) }
        try c.encode(advice, forKey: .commands)
        try c.encode(results, forKey: .cases)
    }
}
