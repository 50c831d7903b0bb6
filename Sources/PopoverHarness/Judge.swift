import Foundation
import PopoverDiff
import PopoverImage
import Synchronization

/// Judges one case at a time; shared by the worker threads.
final class JudgeContext: Sendable {
    let store: GoldenStore
    let manifest: GoldenManifest
    let tolerances: ToleranceConfig
    let options: CheckOptions
    let staging: ReportStaging
    let folderProblem: String?
    let draw: @Sendable (GoldenCase) throws -> DrawnImage
    private let recorded = Mutex<[String: GoldenManifest.Entry]>([:])

    init(store: GoldenStore, manifest: GoldenManifest, tolerances: ToleranceConfig, options: CheckOptions,
         staging: ReportStaging, folderProblem: String?, draw: @escaping @Sendable (GoldenCase) throws -> DrawnImage) {
        self.store = store
        self.manifest = manifest
        self.tolerances = tolerances
        self.options = options
        self.staging = staging
        self.folderProblem = folderProblem
        self.draw = draw
    }

    func recordedEntries() -> [String: GoldenManifest.Entry] { recorded.withLock { $0 } }

    func judge(_ c: GoldenCase) -> CaseResult {
        let clock = ContinuousClock.now
        var result = judgeUntimed(c)
        result.seconds = (ContinuousClock.now - clock).seconds
        return result
    }

    private func judgeUntimed(_ c: GoldenCase) -> CaseResult {
        let tolerance = tolerances.tolerance(forCase: c.id, skin: c.skinID)
        var result = CaseResult(goldenCase: c, status: .error, message: "", tolerance: tolerance.description,
                                goldenPath: store.path(for: c.id))

        let drawn: DrawnImage
        do {
            drawn = try draw(c)
        } catch {
            result.message = "cannot draw: \(error)"
            return result
        }
        result.width = drawn.width
        result.height = drawn.height
        let pixels = drawn.digest
        if let folderProblem {
            result.message = folderProblem
            result.artifacts.actual = staging.save(drawn.straight(), for: c.id, as: "actual")
            return result
        }

        let bytes: [UInt8]
        switch store.read(c.id) {
        case .unreadable(let error):
            result.message = "\(error)"
            result.artifacts.actual = staging.save(drawn.straight(), for: c.id, as: "actual")
            return result
        case .missing:
            let actual = drawn.straight()
            if options.recordMode.records(.missing) {
                record(actual, pixels: pixels, for: c, into: &result, status: .new,
                       message: "no golden yet: recorded \(result.goldenPath)")
            } else {
                result.status = .missing
                result.message = "no golden at \(result.goldenPath); record it with "
                    + "`scripts/regenerate-goldens '\(c.id)'` (or GOLDEN_RECORD=missing)"
            }
            result.artifacts.actual = staging.save(actual, for: c.id, as: "actual")
            return result
        case .found(let found):
            bytes = found
        }

        // Unchanged case: the golden's bytes are the ones recorded with these pixels.
        if let entry = manifest.goldens[c.id], entry.pixels == pixels, entry.width == drawn.width,
           entry.height == drawn.height, entry.file == GoldenManifest.digest(bytes) {
            result.matchedByDigest = true
            return judgeIdentical(c, drawn, tolerance, &result)
        }

        let actual = drawn.straight()
        let expected: RGBAImage
        do {
            expected = try PNGFile.decode(bytes, name: result.goldenPath)
        } catch {
            // A golden that is not a usable PNG (truncated, corrupt, absurd header) cannot
            // be compared: an error, unless this run rewrites failing goldens anyway, in
            // which case it is replaced like any other failing one.
            if options.recordMode.records(.failed) {
                record(actual, pixels: pixels, for: c, into: &result, status: .recorded,
                       message: "\(error): re-recorded")
            } else {
                result.message = "\(error)"
            }
            result.artifacts.actual = staging.save(actual, for: c.id, as: "actual")
            return result
        }
        let comparison = ImageComparison.compare(expected: expected, actual: actual, tolerance: tolerance,
                                                 wantsDiffMap: true)
        result.metrics = comparison.metrics
        // No error at all, excused pixels included (PSNR is undefined only then).
        let identical = comparison.metrics != nil && comparison.metrics?.psnr == nil
        if comparison.pass {
            result.status = .passed
            result.message = comparison.summary
            let rewrite = options.recordMode == .all && !identical
            if rewrite {
                record(actual, pixels: pixels, for: c, into: &result, status: .recorded,
                       message: "changed within tolerance (\(comparison.summary)): re-recorded")
            } else if options.recordMode != .never && identical {
                // The golden is right but its digest entry is stale or absent: refresh it
                // so the next check need not decode.
                remember(c.id, file: GoldenManifest.digest(bytes), pixels: pixels, actual)
            }
            if options.reportImagesForPassingCases || rewrite {
                saveComparison(expected, actual, comparison.diffMap, for: c.id, into: &result)
            }
            return result
        }
        result.message = comparison.summary
        if options.recordMode.records(.failed) {
            record(actual, pixels: pixels, for: c, into: &result, status: .recorded,
                   message: "\(comparison.summary): re-recorded")
        } else {
            result.status = .failed
        }
        saveComparison(expected, actual, comparison.diffMap, for: c.id, into: &result)
        return result
    }

    /// The verdict for pixels known to equal the golden's (by digests): no decoding.
    private func judgeIdentical(_ c: GoldenCase, _ drawn: DrawnImage, _ tolerance: Tolerance,
                                _ result: inout CaseResult) -> CaseResult {
        let comparison = ImageComparison.identical(width: drawn.width, height: drawn.height, tolerance: tolerance)
        result.metrics = comparison.metrics
        result.message = comparison.summary
        result.status = comparison.pass ? .passed : .failed
        if !comparison.pass || options.reportImagesForPassingCases {
            result.artifacts.actual = staging.save(drawn.straight(), for: c.id, as: "actual")
        }
        return result
    }

    private func record(_ actual: RGBAImage, pixels: String, for c: GoldenCase, into result: inout CaseResult,
                        status: CaseStatus, message: String) {
        let png = PNGFile.encode(actual)
        do {
            try store.write(c.id, png: png)
            remember(c.id, file: GoldenManifest.digest(png), pixels: pixels, actual)
            result.status = status
            result.message = message
        } catch {
            result.status = .error
            result.message = "cannot record the golden: \(error)"
        }
    }

    private func remember(_ id: String, file: String, pixels: String, _ image: RGBAImage) {
        let entry = GoldenManifest.Entry(file: file, pixels: pixels, width: image.width, height: image.height)
        recorded.withLock { $0[id] = entry }
    }

    private func saveComparison(_ expected: RGBAImage, _ actual: RGBAImage, _ diff: DiffMap?, for id: String,
                                into result: inout CaseResult) {
        result.artifacts.expected = staging.save(expected, for: id, as: "expected")
        result.artifacts.actual = staging.save(actual, for: id, as: "actual")
        if let diff {
            result.artifacts.heatmap = staging.save(Heatmap.render(expected: expected, diff: diff), for: id, as: "heatmap")
        }
    }
}

extension Duration {
    var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) * 1e-18
    }
}
