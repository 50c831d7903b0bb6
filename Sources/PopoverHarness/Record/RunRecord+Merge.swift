import Foundation

/// Why shards' results cannot be merged into one run.
public enum MergeRefusal: Error, Equatable, CustomStringConvertible {
    case notASharedRun(source: String)
    case shardCountsDiffer(source: String, count: Int, expected: Int)
    case shardGivenTwice(index: Int, sources: [String])
    case shardMissing(indices: [Int], count: Int)
    case differentRun(source: String, what: String)
    case caseJudgedTwice(id: String, sources: [String])
    case casesNotJudged(ids: [String], total: Int)
    case caseNotInRun(id: String, source: String)
    /// Verdicts a shard claims that its digests, metrics and images do not give (see
    /// `ShardVerdicts`).
    case verdictsDoNotAddUp(problems: [String])

    public var description: String {
        switch self {
        case .notASharedRun(let source):
            "\(source): not the result of a sharded run (check --shard I/N writes one)"
        case .shardCountsDiffer(let source, let count, let expected):
            "\(source): is a shard of \(count), the others of \(expected)"
        case .shardGivenTwice(let index, let sources):
            "shard \(index) is given twice: \(sources.joined(separator: " and "))"
        case .shardMissing(let indices, let count):
            "shard\(indices.count == 1 ? "" : "s") \(indices.map(String.init).joined(separator: ", ")) of \(count) "
                + "\(indices.count == 1 ? "is" : "are") missing"
        case .differentRun(let source, let what):
            "\(source): comes from a different run (its \(what) differ\(what.hasSuffix("s") ? "" : "s"))"
        case .caseJudgedTwice(let id, let sources):
            "\(id) is judged twice: in \(sources.joined(separator: " and "))"
        case .casesNotJudged(let ids, let total):
            "\(total) case\(total == 1 ? " is" : "s are") judged by no shard: "
                + ids.prefix(5).joined(separator: ", ") + (total > 5 ? ", …" : "")
        case .caseNotInRun(let id, let source):
            "\(source): judged \(id), which is not a case of the run"
        case .verdictsDoNotAddUp:
            lines.joined(separator: "\n")
        }
    }

    /// The refusal as lines: one, or for verdicts that do not add up, a first line and one
    /// line per problem (at most ten), indented.
    public var lines: [String] {
        guard case .verdictsDoNotAddUp(let problems) = self else { return [description] }
        return ["\(problems.count) verdict\(problems.count == 1 ? " does" : "s do") not add up:"]
            + problems.prefix(10).map { "  " + $0 } + (problems.count > 10 ? ["  …"] : [])
    }
}

/// Merging: puts the results of a run's shards back together, as if one machine had run every
/// case, refusing anything that does not add up: a shard missing or given twice, a shard
/// of another run (other goldens, tolerances, record mode or case catalog), a case judged
/// twice or by no shard.
extension RunRecord {
    /// `shards` with the name each came from (its folder), in any order. The merged run
    /// lists its cases in the catalog's order, carries no shard record of its own, and
    /// groups its failing cases into changes across the shards.
    public static func merge(_ shards: [(source: String, run: RunRecord)]) throws(MergeRefusal) -> RunRecord {
        guard let first = shards.first else { throw .shardMissing(indices: [1], count: 1) }
        guard let reference = first.run.shard else { throw .notASharedRun(source: first.source) }
        var bySlot: [Int: String] = [:]
        for (source, run) in shards {
            guard let shard = run.shard else { throw .notASharedRun(source: source) }
            guard shard.count == reference.count else {
                throw .shardCountsDiffer(source: source, count: shard.count, expected: reference.count)
            }
            if let other = bySlot[shard.index] { throw .shardGivenTwice(index: shard.index, sources: [other, source]) }
            bySlot[shard.index] = source
            let a = shard.identity, b = reference.identity
            for (what, same) in [("goldens", a.goldens == b.goldens), ("tolerances", a.tolerances == b.tolerances),
                                 ("record mode", a.recordMode == b.recordMode), ("case catalog", a.catalog == b.catalog),
                                 ("shard timings", (a.shareCosts ?? "pixels") == (b.shareCosts ?? "pixels")),
                                 ("cases selected", shard.selection == reference.selection)] where !same {
                throw .differentRun(source: source, what: what)
            }
        }
        let missing = (1...reference.count).filter { bySlot[$0] == nil }
        guard missing.isEmpty else { throw .shardMissing(indices: missing, count: reference.count) }

        let order = Dictionary(uniqueKeysWithValues: reference.selection.enumerated().map { ($1, $0) })
        var judgedBy: [String: String] = [:]
        var results: [CaseResult] = []
        for (source, run) in shards {
            for result in run.results {
                guard order[result.id] != nil else { throw .caseNotInRun(id: result.id, source: source) }
                if let other = judgedBy[result.id] { throw .caseJudgedTwice(id: result.id, sources: [other, source]) }
                judgedBy[result.id] = source
                results.append(result)
            }
        }
        let unjudged = reference.selection.filter { judgedBy[$0] == nil }
        guard unjudged.isEmpty else { throw .casesNotJudged(ids: unjudged, total: unjudged.count) }
        results.sort { order[$0.id]! < order[$1.id]! }

        let runs = shards.map(\.run)
        var merged = RunRecord(results: results, recordMode: first.run.recordMode, filter: first.run.filter,
                              goldensFolder: first.run.goldensFolder, tolerance: first.run.tolerance,
                              started: runs.map(\.started).min() ?? first.run.started,
                              jobs: runs.reduce(0) { $0 + $1.jobs })
        // Each shard lists the orphans and run errors of the whole goldens folder: once each.
        merged.orphans = uniqueInOrder(runs.flatMap(\.orphans)).sorted()
        merged.pruned = uniqueInOrder(runs.flatMap(\.pruned)).sorted()
        merged.errors = uniqueInOrder(runs.flatMap(\.errors))
        merged.notes = uniqueInOrder(runs.flatMap(\.notes))
        // The shards ran side by side: the run took as long as the slowest.
        merged.seconds = runs.map(\.seconds).max() ?? 0
        merged.skinsFolder = first.run.skinsFolder
        merged.goldensFolder = first.run.goldensFolder
        merged.groupChanges()
        return merged
    }

    private static func uniqueInOrder(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
