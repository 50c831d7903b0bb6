import Foundation
import PopoverDiff

/// What a check (or record) run does.
public struct CheckOptions: Sendable {
    public var goldensFolder = "Goldens"
    public var reportsFolder = "Reports"
    /// A case filter (see `CaseFilter`); nil runs every case.
    public var filter: String?
    public var recordMode: RecordMode = .never
    /// Delete goldens no case owns (within the filter).
    public var prune = false
    /// Worker threads; every core by default.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Replaces the suite-wide default of `tolerances.json` when set; skin and case
    /// entries there still apply on top.
    public var suiteTolerance: Tolerance?
    /// Copy expected and actual images of passing cases into the report too.
    public var reportImagesForPassingCases = false
    /// Write the report at all (the golden test suite writes its own once).
    public var writesReport = true
    /// Print a progress line on a terminal.
    public var showsProgress = false

    public init() {}
}
