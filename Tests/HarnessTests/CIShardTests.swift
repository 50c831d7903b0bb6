import PopoverHarness
import Testing

/// `--shard auto`: each CI's variables, as that CI documents them, mapped to the shard
/// they name; what does not add up is refused naming the variables.
@Suite("Shards from a CI's own variables")
struct CIShardTests {
    static let named: [([String: String], index: Int, count: Int, from: String)] = [
        (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"], 2, 3, "GitLab CI's CI_NODE_INDEX=2 and CI_NODE_TOTAL=3"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "1"], 1, 1, "GitLab CI's CI_NODE_INDEX=1 and CI_NODE_TOTAL=1"),
        (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "4"], 1, 4, "CircleCI's CIRCLE_NODE_INDEX=0 and CIRCLE_NODE_TOTAL=4"),
        (["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "4"], 4, 4, "CircleCI's CIRCLE_NODE_INDEX=3 and CIRCLE_NODE_TOTAL=4"),
        (["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "2"], 2, 2,
         "Buildkite's BUILDKITE_PARALLEL_JOB=1 and BUILDKITE_PARALLEL_JOB_COUNT=2"),
        // Two CIs that agree (a CI image that sets both): the first named.
        (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2", "CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2", "OTHER": "x"], 2, 2,
         "GitLab CI's CI_NODE_INDEX=2 and CI_NODE_TOTAL=2"),
    ]

    @Test("each CI's variables name the right shard, 0- and 1-based", arguments: named)
    func mapped(_ environment: [String: String], index: Int, count: Int, from: String) throws {
        let found = try CIShard.from(environment: environment)
        #expect(found.shard.index == index && found.shard.count == count)
        #expect(found.source == from)
    }

    static let refused: [([String: String], String)] = [
        ([:], "no CI parallelism variables are set (looked for CI_NODE_INDEX/CI_NODE_TOTAL, CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, "
            + "BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT)"),
        (["CI_NODE_INDEX": "2"], "GitLab CI's CI_NODE_INDEX is set but CI_NODE_TOTAL is not"),
        (["CIRCLE_NODE_TOTAL": "3"], "CircleCI's CIRCLE_NODE_TOTAL is set but CIRCLE_NODE_INDEX is not"),
        (["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "3"], "CIRCLE_NODE_INDEX=3 and CIRCLE_NODE_TOTAL=3 name no shard (the index counts from 0)"),
        (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"], "CI_NODE_INDEX=0 and CI_NODE_TOTAL=3 name no shard (the index counts from 1)"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "0"], "name no shard"),
        (["BUILDKITE_PARALLEL_JOB": "one", "BUILDKITE_PARALLEL_JOB_COUNT": "2"], "are not whole numbers"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "2"],
         "GitLab CI's CI_NODE_INDEX=1 and CI_NODE_TOTAL=2 and Buildkite's BUILDKITE_PARALLEL_JOB=1 and "
            + "BUILDKITE_PARALLEL_JOB_COUNT=2 name different shards"),
    ]

    @Test("partial, conflicting, out-of-range or missing variables are refused, naming them", arguments: refused)
    func refusedVariables(_ environment: [String: String], says: String) {
        #expect { try CIShard.from(environment: environment) } throws: { error in
            "\(error)".contains(says) && "\(error)".hasPrefix("--shard auto")
        }
    }
}
