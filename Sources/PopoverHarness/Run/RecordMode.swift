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
        return isCI(environment) ? .never : .missing
    }

    /// Whether `CI` is set to anything but empty, 0 or false.
    public static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let ci = environment["CI"], !ci.isEmpty else { return false }
        return ci != "0" && ci.lowercased() != "false"
    }

    /// Whether a case that came out `status` gets a golden written.
    func records(_ status: CaseStatus) -> Bool {
        switch (self, status) {
        case (.never, _): false
        case (_, .missing): true
        case (.failed, .failed), (.all, .failed): true
        default: false
        }
    }

    /// What the mode does, in a few words, for a report's tooltip.
    public var meaning: String {
        switch self {
        case .never: "never writes goldens: a missing golden fails"
        case .missing: "records goldens that do not exist yet, compares the rest"
        case .failed: "also re-records goldens whose comparison fails"
        case .all: "re-records every golden whose pixels changed"
        }
    }
}
