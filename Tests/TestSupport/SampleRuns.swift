import Foundation
import PopoverDiff
import PopoverGeometry
import PopoverHarness

// Hand-built runs, for tests of the report and of what reads finished runs.
//
// A check builds its cases from the catalog, which only admits safe IDs. The report
// must still hold up whatever an ID contains (a skin is anyone's value), so its tests
// need cases no catalog would make.

extension CaseInfo {
    /// A case with any skin ID and label; its ID is `skin/direction/label@<scale>x` as a
    /// catalog's would be.
    public static func sample(skin: String, direction: ArrowDirection, scale: Int = 1, family: CaseFamily = .scene,
                              label: String, anchor: String? = nil, orientation: Orientation? = nil,
                              sweepSize: String? = nil, offset: Double = 0, keyboardTime: Double? = nil) -> CaseInfo {
        CaseInfo(id: "\(skin)/\(direction.rawValue)/\(label)@\(scale)x", skin: skin, direction: direction, scale: scale,
                 family: family, label: label, anchor: anchor, orientation: orientation, sweepSize: sweepSize,
                 offset: offset, keyboardTime: keyboardTime)
    }
}

extension CaseResult {
    /// A verdict built by hand. The golden path defaults to `Goldens/<id>.png`.
    public static func sample(_ info: CaseInfo, status: CaseStatus, message: String,
                              metrics: ComparisonMetrics? = nil, tolerance: String = "exact",
                              goldenPath: String? = nil, width: Int = 0, height: Int = 0) -> CaseResult {
        var result = CaseResult(info: info, status: status, message: message, tolerance: tolerance,
                                goldenPath: goldenPath ?? "Goldens/" + info.goldenFile, metrics: metrics)
        result.width = width
        result.height = height
        return result
    }
}

extension RunRecord {
    /// A run built by hand from its results.
    public static func sample(results: [CaseResult], orphans: [String] = [], errors: [String] = [],
                              recordMode: RecordMode = .never, filter: String? = nil,
                              goldensFolder: String = "Goldens", tolerance: String = "exact",
                              seconds: Double = 1, jobs: Int = 1) -> RunRecord {
        var run = RunRecord(results: results, recordMode: recordMode, filter: filter, goldensFolder: goldensFolder,
                           tolerance: tolerance, started: Date(timeIntervalSince1970: 1_800_000_000), jobs: jobs)
        run.orphans = orphans
        run.errors = errors
        run.seconds = seconds
        return run
    }
}
