/// Harness failures that stop a run or a command; messages name the file or value.
public enum HarnessError: Error, Equatable, CustomStringConvertible {
    case invalidRecordMode(String, source: String)
    case noCaseMatches(String, closest: [String])
    case goldensFolderMissing(String)
    case goldensFolderUnreadable(String, reason: String)
    case io(String)
    case invalidTolerances(file: String, reason: String)
    case unknownCase(String)
    case invalidShard(String, reason: String)
    /// Another writer replaced the golden between this one's look and its write.
    case goldenChanged(String)

    public var description: String {
        switch self {
        case .invalidRecordMode(let value, let source):
            "\(source): '\(value)' is not a record mode (never, missing, failed, all)"
        case .noCaseMatches(let filter, let closest):
            "the filter '\(filter)' matches no case"
                + (closest.isEmpty ? " (see `popover-goldens list`)" : "; the closest IDs: " + closest.joined(separator: ", "))
        case .goldensFolderMissing(let path):
            "\(path): the goldens folder does not exist (record goldens with scripts/regenerate-goldens)"
        case .goldensFolderUnreadable(let path, let reason):
            "\(path): cannot read the goldens folder: \(reason)"
        case .io(let message):
            message
        case .invalidTolerances(let file, let reason):
            "\(file): \(reason)"
        case .unknownCase(let id):
            "unknown case '\(id)' (see `popover-goldens list`)"
        case .invalidShard(let value, let reason):
            value == CIShard.word ? "--shard auto: \(reason)" : "--shard: '\(value)' \(reason)"
        case .goldenChanged(let path):
            "\(path) changed while this run had it in hand (another record, accept or undo at once?); not overwritten: run again"
        }
    }
}
