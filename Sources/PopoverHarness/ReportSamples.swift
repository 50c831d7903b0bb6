import Foundation
import PopoverDiff
import PopoverGeometry
import PopoverSkins

// Hand-built runs, for tests of the report and tools that re-render one.
//
// A check builds its cases from the catalog, which only admits safe IDs. The report
// must still hold up whatever an ID contains (a skin is anyone's value), so its tests
// need cases no catalog would make: these constructors skip that check on purpose.

extension GoldenCase {
    /// A case with any skin ID and label; its ID is `skin/direction/label@<scale>x` as
    /// always. Not for checks: the catalog makes their cases.
    public static func reportSample(skinID: String, direction: ArrowDirection, scale: Int = 1,
                                    family: CaseFamily = .scene, label: String, anchor: String? = nil,
                                    orientation: Orientation? = nil, sweepSize: String? = nil, offset: Double = 0,
                                    keyboardTime: Double? = nil) -> GoldenCase {
        GoldenCase(skinID: skinID, direction: direction, scale: scale, family: family, label: label,
                   request: PopoverRequest(bounds: Size(width: 100, height: 100), direction: direction,
                                           arrowOffset: offset, scale: Double(scale)),
                   anchor: anchor, orientation: orientation, sweepSize: sweepSize, keyboardTime: keyboardTime)
    }
}

extension CaseResult {
    /// A verdict built by hand. The golden path defaults to `Goldens/<id>.png`.
    public static func reportSample(_ goldenCase: GoldenCase, status: CaseStatus, message: String,
                                    metrics: ComparisonMetrics? = nil, tolerance: String = "exact",
                                    goldenPath: String? = nil, width: Int = 0, height: Int = 0) -> CaseResult {
        var result = CaseResult(goldenCase: goldenCase, status: status, metrics: metrics, message: message,
                                tolerance: tolerance, goldenPath: goldenPath ?? "Goldens/" + goldenCase.goldenFile)
        result.width = width
        result.height = height
        return result
    }
}

extension CheckRun {
    /// A run built by hand from its results.
    public static func reportSample(results: [CaseResult], orphans: [String] = [], errors: [String] = [],
                                    recordMode: RecordMode = .never, filter: String? = nil,
                                    goldensFolder: String = "Goldens", reportsFolder: String,
                                    tolerance: String = "exact", seconds: Double = 1, jobs: Int = 1) -> CheckRun {
        CheckRun(results: results, orphans: orphans, errors: errors, recordMode: recordMode, filter: filter,
                 goldensFolder: goldensFolder, reportsFolder: reportsFolder, tolerance: tolerance, started: Date(),
                 seconds: seconds, jobs: jobs)
    }
}
