import Foundation
import PopoverHarness
import Testing
import TestSupport

/// Merging shards' runs, on runs built by hand: every refusal, and the merged run.
@Suite("Merging the runs of shards")
struct RunMergeTests {
    static let ids = ["s/up/a@1x", "s/up/b@1x", "s/down/c@1x", "s/down/d@2x", "s/left/e@1x"]
    static let identity = RunIdentity(goldens: "g", tolerances: "t", recordMode: .never, catalog: "c")

    /// Shard `index` of `count` judging `ids`.
    func shard(_ index: Int, of count: Int, judging ids: [String], identity: RunIdentity = identity,
               selection: [String] = ids) -> (source: String, run: RunRecord) {
        let results = ids.map { id -> CaseResult in
            let parts = id.split(separator: "/")
            let info = CaseInfo(id: id, skin: String(parts[0]), direction: .up, scale: 1, family: .scene, label: String(parts[2]))
            return CaseResult.sample(info, status: id == "s/down/c@1x" ? .failed : .passed, message: "")
        }
        var run = RunRecord.sample(results: results, orphans: ["s/up/old@1x"], seconds: Double(index))
        run.shard = ShardRecord(index: index, count: count, identity: identity, selection: selection)
        return ("shard\(index)", run)
    }

    @Test("three shards merge into the run one machine would have made, in catalog order")
    func merges() throws {
        let merged = try RunRecord.merge([shard(3, of: 3, judging: ["s/left/e@1x"]),
                                         shard(1, of: 3, judging: ["s/up/b@1x", "s/up/a@1x"]),
                                         shard(2, of: 3, judging: ["s/down/c@1x", "s/down/d@2x"])])
        #expect(merged.results.map(\.id) == Self.ids)
        #expect(merged.count(.failed) == 1 && merged.exitCode == 1)
        #expect(merged.orphans == ["s/up/old@1x"])
        #expect(merged.shard == nil)
        #expect(merged.seconds == 3)
    }

    @Test("refused, naming the problem", arguments: [
        "not sharded", "count differs", "given twice", "missing", "other goldens", "other tolerances",
        "other record mode", "other catalog", "other shard timings", "other selection", "judged twice", "not judged", "not in the run",
    ])
    func refusal(_ kind: String) {
        let a = shard(1, of: 2, judging: ["s/up/a@1x", "s/up/b@1x", "s/down/c@1x"])
        let b = shard(2, of: 2, judging: ["s/down/d@2x", "s/left/e@1x"])
        var other = Self.identity
        var shards = [a, b]
        var expected: MergeRefusal
        switch kind {
        case "not sharded":
            shards[1].run.shard = nil
            expected = .notASharedRun(source: "shard2")
        case "count differs":
            shards[1] = shard(2, of: 3, judging: ["s/down/d@2x", "s/left/e@1x"])
            expected = .shardCountsDiffer(source: "shard2", count: 3, expected: 2)
        case "given twice":
            shards.append(b)
            expected = .shardGivenTwice(index: 2, sources: ["shard2", "shard2"])
        case "missing":
            shards = [a]
            expected = .shardMissing(indices: [2], count: 2)
        case "other goldens", "other tolerances", "other record mode", "other catalog", "other shard timings":
            switch kind {
            case "other goldens": other.goldens = "g2"
            case "other tolerances": other.tolerances = "t2"
            case "other record mode": other.recordMode = .all
            case "other shard timings": other.shareCosts = "timings 1234"
            default: other.catalog = "c2"
            }
            shards[1] = shard(2, of: 2, judging: ["s/down/d@2x", "s/left/e@1x"], identity: other)
            expected = .differentRun(source: "shard2", what: ["other goldens": "goldens", "other tolerances": "tolerances",
                                                              "other record mode": "record mode",
                                                              "other shard timings": "shard timings"][kind] ?? "case catalog")
        case "other selection":
            shards[1] = shard(2, of: 2, judging: ["s/down/d@2x", "s/left/e@1x"], selection: Self.ids.reversed())
            expected = .differentRun(source: "shard2", what: "cases selected")
        case "judged twice":
            shards[1] = shard(2, of: 2, judging: ["s/down/c@1x", "s/down/d@2x", "s/left/e@1x"])
            expected = .caseJudgedTwice(id: "s/down/c@1x", sources: ["shard1", "shard2"])
        case "not judged":
            shards[1] = shard(2, of: 2, judging: ["s/down/d@2x"])
            expected = .casesNotJudged(ids: ["s/left/e@1x"], total: 1)
        default:
            shards[1] = shard(2, of: 2, judging: ["s/down/d@2x", "s/left/e@1x", "s/right/z@1x"])
            expected = .caseNotInRun(id: "s/right/z@1x", source: "shard2")
        }
        #expect(throws: expected) { try RunRecord.merge(shards) }
    }
}
