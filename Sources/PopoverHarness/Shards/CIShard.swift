/// `--shard auto`: the shard a CI's own parallelism variables name, so a pipeline file
/// need not spell the index out. Each CI is read as it documents its variables:
///
/// | CI | index | count | index counts from |
/// |---|---|---|---|
/// | GitLab CI (`parallel:`) | `CI_NODE_INDEX` | `CI_NODE_TOTAL` | 1 |
/// | CircleCI (`parallelism:`) | `CIRCLE_NODE_INDEX` | `CIRCLE_NODE_TOTAL` | 0 |
/// | Buildkite (`parallelism:`) | `BUILDKITE_PARALLEL_JOB` | `BUILDKITE_PARALLEL_JOB_COUNT` | 0 |
///
/// A CI's pair half set, values that are not whole numbers in range, or two CIs naming
/// different shards are refused, naming the variables: a wrong guess would silently
/// judge the wrong cases, and the merge would only find out later.
public struct CIShard: Sendable, Equatable {
    public let shard: Shard
    /// "GitLab CI's CI_NODE_INDEX=2 and CI_NODE_TOTAL=3".
    public let source: String

    public static let word = "auto"

    struct Provider {
        var name: String
        var index: String
        var count: String
        var firstIndex: Int
    }

    static let providers = [
        Provider(name: "GitLab CI", index: "CI_NODE_INDEX", count: "CI_NODE_TOTAL", firstIndex: 1),
        Provider(name: "CircleCI", index: "CIRCLE_NODE_INDEX", count: "CIRCLE_NODE_TOTAL", firstIndex: 0),
        Provider(name: "Buildkite", index: "BUILDKITE_PARALLEL_JOB", count: "BUILDKITE_PARALLEL_JOB_COUNT", firstIndex: 0),
    ]

    /// The shard `environment` names, or why it names none.
    public static func from(environment: [String: String]) throws(HarnessError) -> CIShard {
        var found: [CIShard] = []
        for p in providers {
            let index = environment[p.index].flatMap { $0.isEmpty ? nil : $0 }
            let count = environment[p.count].flatMap { $0.isEmpty ? nil : $0 }
            switch (index, count) {
            case (nil, nil): continue
            case (_?, nil), (nil, _?):
                let (set, missing) = index != nil ? (p.index, p.count) : (p.count, p.index)
                throw .invalidShard(Self.word, reason: "\(p.name)'s \(set) is set but \(missing) is not")
            case (let index?, let count?):
                guard let i = Int(index), let n = Int(count) else {
                    throw .invalidShard(Self.word, reason: "\(p.name)'s \(p.index)=\(index) and \(p.count)=\(count) are not whole numbers")
                }
                let source = "\(p.name)'s \(p.index)=\(index) and \(p.count)=\(count)"
                guard n >= 1, i >= p.firstIndex, i < n + p.firstIndex else {
                    throw .invalidShard(Self.word, reason: "\(source) name no shard (the index counts from \(p.firstIndex))")
                }
                found.append(CIShard(shard: try Shard(index: i - p.firstIndex + 1, count: n), source: source))
            }
        }
        guard let first = found.first else {
            throw .invalidShard(Self.word, reason: "no CI parallelism variables are set (looked for "
                + providers.map { "\($0.index)/\($0.count)" }.joined(separator: ", ") + "); give the shard as I/N")
        }
        if let other = found.first(where: { $0.shard != first.shard }) {
            throw .invalidShard(Self.word, reason: "\(first.source) and \(other.source) name different shards")
        }
        return first
    }
}
