import Foundation

/// When goldens are (re)written, in the manner of snapshot-testing's record modes.
public enum RecordMode: String, Sendable, CaseIterable, Codable {
    /// Never write: a missing golden fails, saying how to record it.
    case never
    /// Write goldens that do not exist yet; compare the rest.
    case missing
    /// Also rewrite goldens whose comparison fails.
    case failed
    /// Rewrite every golden whose pixels changed (unchanged files are left alone).
    case all

    /// The mode a run uses when none is given: `GOLDEN_RECORD` if set, else never on
    /// CI (the `CI` variable is set) and missing on a workstation.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(HarnessError) -> RecordMode {
        if let value = environment["GOLDEN_RECORD"], !value.isEmpty {
            guard let mode = RecordMode(rawValue: value.lowercased()) else {
                throw .invalidRecordMode(value, source: "GOLDEN_RECORD")
            }
            return mode
        }
        if let ci = environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" { return .never }
        return .missing
    }

    func records(_ status: CaseStatus) -> Bool {
        switch (self, status) {
        case (.never, _): false
        case (_, .missing): true
        case (.failed, .failed), (.all, .failed): true
        default: false
        }
    }
}

/// Harness failures that stop a run or a command; messages name the file or value.
public enum HarnessError: Error, Equatable, CustomStringConvertible {
    case invalidRecordMode(String, source: String)
    case noCaseMatches(String)
    case goldensFolderMissing(String)
    case goldensFolderUnreadable(String, reason: String)
    case io(String)
    case invalidTolerances(file: String, reason: String)
    case unknownCase(String)

    public var description: String {
        switch self {
        case .invalidRecordMode(let value, let source):
            "\(source): '\(value)' is not a record mode (never, missing, failed, all)"
        case .noCaseMatches(let filter):
            "the filter '\(filter)' matches no case (see `popover-goldens list`)"
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
        }
    }
}
