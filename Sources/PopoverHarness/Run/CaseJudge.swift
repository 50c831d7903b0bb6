import Foundation
import PopoverDiff
import PopoverFiles
import PopoverGeometry
import PopoverImage
import PopoverRaster
import PopoverSkins

/// Judges one case at a time; shared by the worker threads of a check.
///
/// A case's verdict is reached on straight pixels, what a golden file holds: the drawn
/// image is confirmed through the digest cache (when the golden's bytes are ones this
/// machine decoded before, and an earlier drawing with the same premultiplied pixels
/// converted to them), or converted and confirmed, or converted and compared with the
/// decoded golden. Either way the same pixels decide.
final class CaseJudge: Sendable {
    let store: GoldenStore
    let cache: GoldenDigestCache
    let tolerances: TolerancePolicy
    let options: CheckOptions
    let sink: any CaseArtifactSink
    let folderProblem: String?
    let drawer: Drawer
    let facts: @Sendable (GoldenCase) throws -> DrawingFacts

    /// How cases are drawn: by their skins (premultiplied, converted when needed), or by a
    /// replacement that gives straight images.
    enum Drawer: Sendable {
        case skin(CaseCatalog)
        case replaced(@Sendable (GoldenCase) throws -> RGBAImage)
    }

    init(store: GoldenStore, cache: GoldenDigestCache, tolerances: TolerancePolicy, options: CheckOptions,
         sink: any CaseArtifactSink, folderProblem: String?, drawer: Drawer,
         facts: @escaping @Sendable (GoldenCase) throws -> DrawingFacts) {
        self.store = store
        self.cache = cache
        self.tolerances = tolerances
        self.options = options
        self.sink = sink
        self.folderProblem = folderProblem
        self.drawer = drawer
        self.facts = facts
    }

    func judge(_ c: GoldenCase) -> CaseResult {
        let clock = ContinuousClock.now
        var compared: Compared?
        var result = judgeUntimed(c, compared: &compared)
        explain(c, &result, compared: compared)
        result.seconds = (ContinuousClock.now - clock).seconds
        return result
    }

    /// What a comparison had in hand, for explaining a failure.
    struct Compared {
        var expected: RGBAImage
        var actual: RGBAImage
        var diff: DiffMap
    }

    /// The verdict; `compared` receives the two images and where they differ when they
    /// were compared pixel by pixel.
    private func judgeUntimed(_ c: GoldenCase, compared: inout Compared?) -> CaseResult {
        let tolerance = tolerances.tolerance(forCase: c.id, skin: c.skinID)
        var result = CaseResult(info: c.info, status: .error, message: "", tolerance: tolerance.description,
                                goldenPath: store.path(for: c.id))
        result.ignoredParts = tolerances.ignoredParts(forCase: c.id, skin: c.skinID)
        // The premultiplied pixels as drawn, when the skin drew them: converted to straight
        // colour (`actual`) only when the cache cannot confirm them as they are.
        let premultiplied: Pixmap?
        let replaced: RGBAImage?
        do {
            switch drawer {
            case .skin(let catalog): (premultiplied, replaced) = (try catalog.drawing(c), nil)
            case .replaced(let draw): (premultiplied, replaced) = (nil, try draw(c))
            }
        } catch {
            result.message = "cannot draw: \(error)"
            return result
        }
        lazy var actual: RGBAImage = replaced ?? premultiplied!.straightImage
        let premultipliedPixels = premultiplied.map { RGBAImage(width: $0.width, height: $0.height, pixels: $0.data) }
        result.width = premultiplied?.width ?? replaced!.width
        result.height = premultiplied?.height ?? replaced!.height
        // Only a merge reads it, so only shards spend a pass over the pixels on it.
        if options.shard != nil { result.drawnDigest = XXH64.hex(actual.pixelDigest()) }
        if let folderProblem {
            result.message = folderProblem
            keep(CaseImages(actual: actual), into: &result)
            return result
        }

        let bytes: [UInt8]
        switch store.read(c.id) {
        case .unreadable(let error):
            result.message = "\(error)"
            keep(CaseImages(actual: actual), into: &result)
            return result
        case .missing:
            if options.recordMode.records(.missing) {
                record(actual, of: c, into: &result, status: .new, message: "no golden yet: recorded \(result.goldenPath)")
            } else {
                result.status = .missing
                result.message = "no golden at \(result.goldenPath); look at it in the report, then accept it with `"
                    + RunRecord.command(["accept", c.id], goldens: options.goldensFolder, reports: options.reportsFolder,
                                        skins: options.skinsFolder) + "`"
            }
            keep(CaseImages(actual: actual), into: &result)
            return result
        case .found(let found):
            bytes = found
        }
        let fileDigest = SHA256.hex(bytes)
        result.goldenDigest = fileDigest

        // These exact bytes were decoded here before, to these exact pixels: what this drawing
        // converts to (known without converting when an earlier one drew the same).
        let confirmedAsDrawn = premultipliedPixels.map { cache.confirms(premultiplied: $0, asFile: fileDigest) } ?? false
        if confirmedAsDrawn || cache.confirms(actual, asFile: fileDigest) {
            if !confirmedAsDrawn, let premultipliedPixels {
                cache.learn(file: fileDigest, drawn: actual, premultiplied: premultipliedPixels)
            }
            result.confirmedFromCache = true
            let comparison = ImageComparison.identical(width: result.width, height: result.height, tolerance: tolerance)
            result.metrics = comparison.metrics
            result.message = comparison.summary
            result.status = comparison.pass ? .passed : .failed
            if !comparison.pass || options.keepsImagesOfPassingCases {
                keep(CaseImages(expected: actual, expectedFile: bytes, actual: actual), into: &result)
            }
            return result
        }

        let expected: RGBAImage
        do {
            expected = try PNGFile.decode(bytes, name: result.goldenPath)
        } catch {
            // A golden that is not a usable PNG (truncated, corrupt, absurd header) cannot
            // be compared: an error, unless this run rewrites failing goldens anyway, in
            // which case it is replaced like any other failing one.
            if options.recordMode.records(.failed) {
                record(actual, of: c, into: &result, status: .recorded, message: "\(error): re-recorded")
            } else {
                result.message = "\(error)"
            }
            keep(CaseImages(actual: actual), into: &result)
            return result
        }
        let comparison: PopoverDiff.ComparisonResult
        do {
            comparison = try ImageComparison.compare(expected: expected, actual: actual, tolerance: tolerance,
                                                     ignoring: try ignoreMask(c, parts: result.ignoredParts,
                                                                              expected: expected, actual: actual),
                                                     wantsDiffMap: true)
        } catch {
            result.message = "cannot tell where the ignored parts (\(result.ignoredParts.map(\.rawValue).joined(separator: ", "))) "
                + "lie: \(error)"
            keep(CaseImages(expected: expected, expectedFile: bytes, actual: actual), into: &result)
            return result
        }
        // Only a golden this drawing matched byte for byte is learned (GoldenDigestCache).
        if expected == actual { cache.learn(file: fileDigest, drawn: actual, premultiplied: premultipliedPixels) }
        result.metrics = comparison.metrics
        result.changedRegion = comparison.diffMap?.changedRegion
        if let diff = comparison.diffMap { compared = Compared(expected: expected, actual: actual, diff: diff) }
        let images = CaseImages(expected: expected, expectedFile: bytes, actual: actual, diff: comparison.diffMap)
        // No error at all, excused pixels included (PSNR is undefined only then).
        let identical = comparison.metrics != nil && comparison.metrics?.psnr == nil
        if comparison.pass {
            result.status = .passed
            result.message = comparison.summary
            let rewrite = options.recordMode == .all && !identical
            if rewrite, case .alreadyThere(let png) = record(actual, of: c, into: &result, status: .recorded,
                                                             message: "changed within tolerance (\(comparison.summary)): re-recorded") {
                keepOnlyIfAsked(actual, png, into: &result)
                return result
            }
            if options.keepsImagesOfPassingCases || rewrite { keep(images, into: &result) }
            return result
        }
        result.message = comparison.summary
        result.changedRegions = comparison.diffMap?.changedRegions() ?? []
        if options.recordMode.records(.failed) {
            if case .alreadyThere(let png) = record(actual, of: c, into: &result, status: .recorded,
                                                    message: "\(comparison.summary): re-recorded") {
                keepOnlyIfAsked(actual, png, into: &result)
                return result
            }
        } else {
            result.status = .failed
        }
        keep(images, into: &result)
        return result
    }

    /// A case another run recorded meanwhile passes against the golden now on disk: the
    /// comparison with the one this run read is no longer what the case is, so its images
    /// are kept only as a passing case's are.
    private func keepOnlyIfAsked(_ actual: RGBAImage, _ png: [UInt8], into result: inout CaseResult) {
        if options.keepsImagesOfPassingCases {
            keep(CaseImages(expected: actual, expectedFile: png, actual: actual), into: &result)
        }
    }

    private enum Recorded {
        case written
        /// Another run had written these very bytes since this one looked (`GoldenWriter`).
        case alreadyThere(png: [UInt8])
        case failed
    }

    /// Writes `actual` as the case's golden, with its facts. The bytes written are decoded
    /// again and must give back the drawn pixels; that decode is also what lets the next
    /// check trust them.
    @discardableResult
    private func record(_ actual: RGBAImage, of c: GoldenCase, into result: inout CaseResult, status: CaseStatus,
                        message: String) -> Recorded {
        do {
            let drawn = try facts(c)
            let written = try GoldenWriter.write(actual, as: result.id, in: store, cache: cache, facts: drawn.facts,
                                                 replacing: result.goldenDigest)
            result.factsStanding = .recorded
            result.goldenDigest = SHA256.hex(written.png)
            switch written.outcome {
            case .written:
                result.status = status
                result.message = message
                return .written
            case .alreadyThere:
                // Said as what is on disk: this run wrote nothing, and the golden it would
                // have written is there, so the case passes against it, pixel for pixel.
                result.status = .passed
                result.message = "another run recorded the same golden meanwhile"
                result.metrics = ImageComparison.identical(width: result.width, height: result.height,
                                                           tolerance: tolerances.tolerance(forCase: c.id, skin: c.skinID)).metrics
                result.changedRegion = nil
                result.changedRegions = []
                return .alreadyThere(png: written.png)
            }
        } catch {
            result.status = .error
            result.message = "cannot record the golden: \(error)"
            return .failed
        }
    }

    /// The pixels a comparison excuses for the case's ignored parts: exactly those the part
    /// map gives to an ignored part. The map gives a pixel to the arrow, the border and the
    /// body before the shadow, so ignoring the shadow excuses only pixels where the shadow
    /// is what is drawn, never one where it shows through the popover's own paint (a
    /// translucent body, an anti-aliased edge): a change there is a change to the popover.
    /// Nil when nothing is ignored or the images are equal or of different sizes (then no
    /// pixel is excused anyway).
    private func ignoreMask(_ c: GoldenCase, parts: [PopoverPart], expected: RGBAImage,
                            actual: RGBAImage) throws -> PixelMask? {
        guard !parts.isEmpty, expected.width == actual.width, expected.height == actual.height,
              expected.pixels != actual.pixels else { return nil }
        let outline = try facts(c).outline
        let ignored = Set(parts)
        return PixelMask(width: actual.width, height: actual.height) { x, y in ignored.contains(outline.part(atPixel: x, y)) }
    }

    /// Failing and new cases: the facts this run drew them from (for an acceptance to
    /// check against) and why they failed. Passing cases: only how their golden's facts
    /// stand, and with `record` (mode all) facts written where they are missing, stale
    /// or no longer what this build draws the golden from.
    private func explain(_ c: GoldenCase, _ result: inout CaseResult, compared: Compared?) {
        if result.status == .passed {
            guard result.factsStanding == nil else { return }
            let recorded = store.facts(for: c.id, goldenDigest: result.goldenDigest)
            result.factsStanding = recorded.standing
            guard options.recordMode == .all || options.factsOnly, let golden = result.goldenDigest, let drawn = try? facts(c) else { return }
            if recorded.facts != drawn.facts, let written = writeFacts(drawn.facts, of: c.id, golden: golden) {
                result.factsStanding = .recorded
                result.factsWritten = written
            }
            return
        }
        guard result.status.isFailure || result.status == .new else { return }
        let drawn: DrawingFacts
        do {
            drawn = try facts(c)
        } catch {
            result.explain()
            return
        }
        result.factsDigest = GoldenFacts.digest(drawn.facts)
        result.outline = drawn.outline
        if result.status == .failed {
            let recorded = store.facts(for: c.id, goldenDigest: result.goldenDigest)
            result.factsStanding = recorded.standing
            let parts = compared.map { CaseCause.parts(of: $0.diff, on: drawn.outline) } ?? (main: [], few: [])
            result.cause = CaseCause(facts: recorded.standing,
                                     geometry: recorded.facts.map { CaseCause.deltas(expected: $0, actual: drawn.facts) } ?? [],
                                     parts: parts.main, fewPixelsIn: parts.few,
                                     colour: compared.flatMap { CaseCause.colour(expected: $0.expected, actual: $0.actual, diff: $0.diff) },
                                     image: drawn.facts["image"].flatMap { if case .text(let t) = $0 { t } else { nil } })
        }
        result.explain()
    }

    /// Writes the facts of a golden the run judged, under the goldens folder's lock and
    /// only while the golden is still the one with SHA-256 `golden` (another writer may
    /// have replaced it since, and written its own facts). Returns whether the table was
    /// written (the same facts again change nothing), or nil when nothing could be.
    private func writeFacts(_ drawn: Facts, of id: String, golden: String) -> Bool? {
        try? store.locked { () throws -> Bool? in
            guard let current = try? store.currentDigest(of: id), current == golden else { return nil }
            return try store.writeFactsHoldingLock(GoldenFacts(caseID: id, golden: golden, facts: drawn))
        }
    }

    private func keep(_ images: CaseImages, into result: inout CaseResult) {
        result.artifacts = sink.keep(images, of: result.info)
    }
}

extension Duration {
    var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) * 1e-18
    }
}
