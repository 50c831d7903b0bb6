import Foundation
import PopoverDiff
import PopoverFiles
import PopoverImage
import Synchronization

/// Re-derives, before a merge, the verdicts a shard's summary.json claims, from what the
/// merging checkout holds: its goldens, its tolerances, and the images the shard saved;
/// and hands over the pictures it verified, for the merged report to draw its own from.
///
/// A shard is a file from another machine, and a file can be edited. What each case
/// carries (the SHA-256 of the golden it compared against, the digest of the pixels it
/// drew, its metrics) must add up here:
/// - the golden it names is this checkout's `Goldens/<id>.png`, byte for byte; a case
///   said to be missing has no golden here;
/// - drawn pixels equal to the golden's pass exactly when an identical pair passes, with
///   metrics of no difference;
/// - drawn pixels that differ: the verdict must be what the metrics give under this
///   checkout's tolerance, and a failed case's saved actual image must be those pixels,
///   compared again here with the same counts (when no part is ignored: the ignore
///   mask needs the skins);
/// - any saved actual image, whatever the case's status, decodes to the pixels the case
///   says it drew.
///
/// What it cannot see: a shard that lies about what it drew, consistently (its drawn
/// digest set to its golden's, its metrics to "identical"). Only drawing the case again
/// can tell that, which is what `check` does.
public struct ShardVerdicts: Sendable {
    public let store: GoldenStore
    public let tolerances: TolerancePolicy

    public init(store: GoldenStore, tolerances: TolerancePolicy) {
        self.store = store
        self.tolerances = tolerances
    }

    /// What does not add up in the shard `run` read from `source`, one line each, naming
    /// the case. `actualImage` reads a case's saved actual image from the shard: nil when
    /// it has none; it throws when the image cannot be read. Each case that adds up and
    /// for which the shard kept pictures is handed to `keep` (from several threads) with
    /// the pictures verified here: this checkout's golden (file and pixels) for a passed
    /// or failed case, the shard's actual image once its pixels are the ones the case
    /// drew, and where the two differ, compared here (not when parts are ignored).
    public func problems(in run: RunRecord, source: String,
                         actualImage: @Sendable (CaseResult) throws -> RGBAImage?,
                         keep: (@Sendable (CaseResult, CaseImages) -> Void)? = nil) -> [String] {
        if let shard = run.shard, shard.identity.tolerances != tolerances.digest {
            return ["\(source): was checked with other tolerances than this checkout's \(store.folder)/"
                + "\(GoldenStore.toleranceFile) and options (give merge-reports the tolerance options the shards had)"]
        }
        let results = run.results
        let found = Mutex([String?](repeating: nil, count: results.count))
        DispatchQueue.concurrentPerform(iterations: results.count) { i in
            let result = results[i]
            var images = CaseImages()
            if let problem = problem(result, actualImage: actualImage, images: &images, wantsDiff: keep != nil) {
                found.withLock { $0[i] = "\(source): \(result.id): \(problem)" }
            } else if let keep, !result.artifacts.isEmpty {
                keep(result, images)
            }
        }
        return found.withLock { $0.compactMap { $0 } }
    }

    private func problem(_ result: CaseResult, actualImage: (CaseResult) throws -> RGBAImage?,
                         images: inout CaseImages, wantsDiff: Bool) -> String? {
        let golden = store.path(for: result.id)
        let actual: RGBAImage?
        do {
            actual = try actualImage(result)
        } catch {
            return "its actual image cannot be read: \(error)"
        }
        if let actual {
            guard let drawn = result.drawnDigest else {
                return "has an actual image but not the digest of what it drew (a shard of an older version?): check it again"
            }
            guard XXH64.hex(actual.pixelDigest()) == drawn else { return "its actual image is not what it drew" }
            images.actual = actual
        }
        switch result.status {
        case .missing:
            if case .found = store.read(result.id) { return "said to have no golden, but \(golden) is here" }
            return nil
        case .passed, .failed:
            break
        case .new, .recorded, .error:
            // Their golden, if any, is the shard's own doing or could not be read: only the
            // actual image, verified above, is shown.
            return nil
        }
        guard let drawn = result.drawnDigest, let claimed = result.goldenDigest else {
            return "\(result.status.rawValue) without the digests of its golden and its drawing (a shard of an older "
                + "version?): check it again"
        }
        let bytes: [UInt8]
        switch store.read(result.id) {
        case .found(let found): bytes = found
        case .missing: return "judged against a golden, but \(golden) is not here"
        case .unreadable(let error): return "\(error)"
        }
        guard SHA256.hex(bytes) == claimed else { return "judged against another golden than \(golden) here" }
        guard let expected = try? PNGFile.decode(bytes, name: golden) else { return "\(golden) cannot be decoded" }
        images.expected = expected
        images.expectedFile = bytes
        let tolerance = tolerances.tolerance(forCase: result.id, skin: result.info.skin)
        let passes: Bool
        if XXH64.hex(expected.pixelDigest()) == drawn {
            let identical = ImageComparison.identical(width: expected.width, height: expected.height, tolerance: tolerance)
            if let m = result.metrics, m.differentPixels != 0 || m.excusedPixels != 0 || m.maxChannelDelta != 0 {
                return "drew exactly its golden's pixels, yet its metrics count differences"
            }
            passes = identical.pass
        } else {
            // (Its metrics may count no difference: pixels transparent in both images count as equal.)
            guard let metrics = result.metrics else { return "drew other pixels than its golden's, yet has no metrics" }
            passes = ImageComparison.failures(metrics, tolerance: tolerance).isEmpty
            // A saved actual image, whatever the status, must give the metrics again; a
            // failed case must have one.
            if let actual {
                if result.ignoredParts.isEmpty {
                    let again = ImageComparison.compare(expected: expected, actual: actual, tolerance: tolerance,
                                                        wantsDiffMap: wantsDiff)
                    guard again.metrics?.differentPixels == metrics.differentPixels,
                          again.metrics?.maxChannelDelta == metrics.maxChannelDelta else {
                        return "compared again here, its actual image does not give the metrics it claims"
                    }
                    images.diff = again.diffMap
                }
            } else if result.status == .failed {
                return "failed, but its actual image is not in the shard"
            }
        }
        let derived: CaseStatus = passes ? .passed : .failed
        guard derived == result.status else {
            return "claims \(result.status.rawValue), but its digests and metrics give \(derived.rawValue) under "
                + "this checkout's tolerance (\(tolerance.description))"
        }
        return nil
    }
}
