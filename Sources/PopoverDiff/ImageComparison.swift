#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PopoverImage

/// Compares a rendered image with its golden.
///
/// One algorithm, in this order:
/// 1. Different sizes fail at once, with a message naming both sizes.
/// 2. If the two pixel buffers are byte-for-byte equal (one `memcmp`), the images are
///    identical and no pixel is visited.
/// 3. Otherwise each row is compared with `memcmp` and equal rows are skipped. In the
///    other rows each pixel is loaded as one 32-bit word; equal words are skipped, as
///    are pixels whose alpha is 0 in both images (invisible, so equal whatever their
///    colour channels hold, as ImageMagick's `compare` treats them).
/// 4. A remaining pixel's magnitude is its largest channel difference. It is excused,
///    for the first of these reasons that holds, or else counted as different:
///    - it lies in the ignore mask (`excusedIgnored`);
///    - a perceptual threshold is set and its YIQ distance is within it
///      (`excusedWithinThreshold`);
///    - a perceptual threshold is set, `countAntiAliasing` is not, and it is
///      anti-aliasing in either image (`excusedAntiAliasing`); see ``Tolerance``.
/// 5. The verdict: pass iff the sizes match, `differentPixels` lies in the tolerance's
///    `differentPixels` range and `maxChannelDelta` in its `maxChannelDelta` range.
public enum ImageComparison {
    public static func compare(
        expected: RGBAImage,
        actual: RGBAImage,
        tolerance: Tolerance,
        wantsDiffMap: Bool = false
    ) -> ComparisonResult {
        compare(expected, actual, tolerance, mask: nil, wantsDiffMap: wantsDiffMap)
    }

    /// `compare` with the pixels of `mask` ignored: where they differ they are excused
    /// (`excusedIgnored`, and `.ignored` in the diff map), so they count towards neither
    /// `differentPixels` nor `maxChannelDelta`, but they still count in
    /// `meanAbsoluteError` and `psnr` like every excused pixel. A nil mask ignores
    /// nothing. Throws when the images have one size and the mask another; images of
    /// different sizes fail as they do without a mask.
    public static func compare(
        expected: RGBAImage,
        actual: RGBAImage,
        tolerance: Tolerance,
        ignoring mask: PixelMask?,
        wantsDiffMap: Bool = false
    ) throws(PixelMaskSizeError) -> ComparisonResult {
        if let mask, expected.width == actual.width, expected.height == actual.height,
           mask.width != expected.width || mask.height != expected.height {
            throw PixelMaskSizeError(maskWidth: mask.width, maskHeight: mask.height,
                                     imageWidth: expected.width, imageHeight: expected.height)
        }
        return compare(expected, actual, tolerance, mask: mask, wantsDiffMap: wantsDiffMap)
    }

    private static func compare(
        _ expected: RGBAImage, _ actual: RGBAImage, _ tolerance: Tolerance, mask: PixelMask?, wantsDiffMap: Bool
    ) -> ComparisonResult {
        guard expected.width == actual.width, expected.height == actual.height else {
            return ComparisonResult(
                pass: false,
                metrics: nil,
                diffMap: nil,
                failures: ["size differs: expected \(expected.width) x \(expected.height), "
                           + "actual \(actual.width) x \(actual.height)"],
                tolerance: tolerance)
        }
        let width = expected.width, height = expected.height
        let pixelCount = width * height
        var map = wantsDiffMap ? DiffMap(width: width, height: height) : nil
        let noFlags: [UInt8] = []

        let tally: Tally = expected.pixels.withUnsafeBytes { e in
            actual.pixels.withUnsafeBytes { a in
            (mask?.flags ?? noFlags).withUnsafeBufferPointer { flags in
                guard pixelCount > 0, memcmp(e.baseAddress!, a.baseAddress!, pixelCount * 4) != 0 else {
                    return Tally()
                }
                let (e, a) = (e.baseAddress!, a.baseAddress!)
                // One loop, specialised for each judge: the exact one has no branch to excuse.
                func run(_ judge: some ExcuseJudge) -> Tally {
                    guard map != nil else {
                        // (Per-lane sums of squares fit 32 bits for rows up to 264,000 pixels.)
                        if judge is NoExcuses && width <= 262_144 {
                            return scanCounting(e, a, width: width, height: height)
                        }
                        var unused = MarkedBounds()
                        return scan(e, a, width: width, height: height, judge: judge, magnitudes: nil, classes: nil,
                                    marked: &unused)
                    }
                    var marked = MarkedBounds()
                    let tally = map!.withPlanes { magnitudes, classes in
                        scan(e, a, width: width, height: height, judge: judge, magnitudes: magnitudes, classes: classes,
                             marked: &marked)
                    }
                    map!.changedRegion = marked.region
                    return tally
                }
                let perceptual = tolerance.perceptualThreshold.map {
                    PerceptualJudge(threshold: $0, countsAntiAliasing: tolerance.countAntiAliasing,
                                    expected: e, actual: a, width: width, height: height)
                }
                switch (mask == nil ? nil : flags.baseAddress, perceptual) {
                case (nil, nil): return run(NoExcuses())
                case (nil, let judge?): return run(judge)
                case (let ignored?, nil): return run(IgnoringMasked(flags: ignored, width: width, otherwise: NoExcuses()))
                case (let ignored?, let judge?): return run(IgnoringMasked(flags: ignored, width: width, otherwise: judge))
                }
            } }
        }

        return verdict(width: width, height: height, tally: tally, tolerance: tolerance, map: map)
    }

    /// The verdict for two images already known to be identical (equal file bytes, or
    /// equal digests of their pixels), without looking at a pixel: identical images pass
    /// unless the tolerance expects a difference (a lower bound above zero).
    public static func identical(width: Int, height: Int, tolerance: Tolerance) -> ComparisonResult {
        verdict(width: width, height: height, tally: Tally(), tolerance: tolerance, map: nil)
    }

    private static func verdict(width: Int, height: Int, tally: Tally, tolerance: Tolerance,
                                map: DiffMap?) -> ComparisonResult {
        let metrics = ComparisonMetrics(width: width, height: height, tally: tally, tolerance: tolerance)
        let failures = failures(metrics, tolerance: tolerance)
        var final = metrics
        final.pass = failures.isEmpty
        return ComparisonResult(pass: failures.isEmpty, metrics: final, diffMap: map,
                                failures: failures, tolerance: tolerance)
    }

    /// What in `metrics` lies outside `tolerance`, one phrase each; empty: the case passes.
    /// The verdict is decided from the counts alone, so a reader holding only the counts
    /// (a merge re-deriving a shard's verdict) decides it the same way.
    public static func failures(_ metrics: ComparisonMetrics, tolerance: Tolerance) -> [String] {
        [describe(metrics.differentPixels, allowed: tolerance.differentPixels, what: "different pixels"),
         describe(metrics.maxChannelDelta, allowed: tolerance.maxChannelDelta, what: "max channel delta")].compactMap { $0 }
    }

    /// "12 different pixels, above the allowed 0-5", nil when within range.
    static func describe(_ value: Int, allowed: ClosedRange<Int>, what: String) -> String? {
        if allowed.contains(value) { return nil }
        let side = value < allowed.lowerBound ? "below" : "above"
        let subject = what == "different pixels"
            ? "\(value) different pixel\(value == 1 ? "" : "s")"
            : "\(what) \(value)"
        return "\(subject), \(side) the allowed \(Tolerance.format(allowed))"
    }

    /// Sums over the differing pixels.
    struct Tally {
        var differentPixels = 0
        var excusedWithinThreshold = 0
        var excusedAntiAliasing = 0
        var excusedIgnored = 0
        /// Largest channel difference among counted (different) pixels.
        var maxChannelDelta = 0
        /// Sum of |difference| over all channels of all pixels (equal pixels add 0).
        var absoluteSum: UInt64 = 0
        /// Sum of difference^2 over all channels of all pixels.
        var squaredSum: UInt64 = 0
    }

    static func scan<Judge: ExcuseJudge>(
        _ e: UnsafeRawPointer, _ a: UnsafeRawPointer,
        width: Int, height: Int,
        judge: Judge,
        magnitudes: UnsafeMutablePointer<UInt8>?,
        classes: UnsafeMutablePointer<DiffMap.PixelClass>?,
        marked: inout MarkedBounds
    ) -> Tally {
        // Plain locals and wrapping arithmetic keep the inner loop in registers; the sums
        // cannot overflow (at most 4 * 255^2 per pixel into 64 bits).
        var different = 0, withinThreshold = 0, antiAliasing = 0, ignored = 0, maxDelta: UInt32 = 0
        var absoluteSum: UInt64 = 0, squaredSum: UInt64 = 0
        let rowBytes = width &* 4
        for y in 0..<height {
            let rowStart = y &* rowBytes
            if memcmp(e + rowStart, a + rowStart, rowBytes) == 0 { continue }
            let rowE = e + rowStart, rowA = a + rowStart
            var rowAbsolute: UInt64 = 0, rowSquared: UInt64 = 0
            for x in 0..<width {
                let pe = UInt32(littleEndian: rowE.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
                let pa = UInt32(littleEndian: rowA.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
                if pe == pa { continue }
                if (pe | pa) >> 24 == 0 { continue }  // alpha 0 in both: invisible, equal

                let dr = channelDelta(pe, pa), dg = channelDelta(pe >> 8, pa >> 8)
                let db = channelDelta(pe >> 16, pa >> 16), da = channelDelta(pe >> 24, pa >> 24)
                let magnitude = max(max(dr, dg), max(db, da))
                rowAbsolute &+= UInt64(dr &+ dg &+ db &+ da)
                rowSquared &+= UInt64(dr &* dr &+ dg &* dg &+ db &* db &+ da &* da)

                let pixelClass: DiffMap.PixelClass
                switch judge.excuse(x: x, y: y, expected: pe, actual: pa) {
                case nil:
                    pixelClass = .different
                    different &+= 1
                    maxDelta = max(maxDelta, magnitude)
                case .withinThreshold?:
                    pixelClass = .excused
                    withinThreshold &+= 1
                case .antiAliasing?:
                    pixelClass = .excused
                    antiAliasing &+= 1
                case .ignored?:
                    pixelClass = .ignored
                    ignored &+= 1
                }
                if let magnitudes, let classes {
                    let i = y &* width &+ x
                    magnitudes[i] = UInt8(truncatingIfNeeded: magnitude)
                    classes[i] = pixelClass
                    marked.include(x: x, y: y)
                }
            }
            absoluteSum &+= rowAbsolute
            squaredSum &+= rowSquared
        }
        return Tally(differentPixels: different, excusedWithinThreshold: withinThreshold,
                     excusedAntiAliasing: antiAliasing, excusedIgnored: ignored, maxChannelDelta: Int(maxDelta),
                     absoluteSum: absoluteSum, squaredSum: squaredSum)
    }

    /// `scan` without a perceptual threshold, an ignore mask or a diff map, four pixels at
    /// a time: the same tally, computed on 16-byte vectors (the check's path for failing
    /// cases, and `diff` without a heatmap).
    static func scanCounting(_ e: UnsafeRawPointer, _ a: UnsafeRawPointer, width: Int, height: Int) -> Tally {
        var tally = Tally()
        var maxDelta: UInt8 = 0
        let rowBytes = width &* 4
        let quads = width / 4
        for y in 0..<height {
            let rowE = e + y &* rowBytes, rowA = a + y &* rowBytes
            if memcmp(rowE, rowA, rowBytes) == 0 { continue }
            var rowAbsolute: UInt64 = 0, rowSquared: UInt64 = 0, rowDifferent = 0
            // Per-lane accumulators, reduced once per row. Lanes cannot overflow: the caller
            // keeps rows under 65,536 quads, and 65,536 * 255^2 < 2^32.
            var maxes = SIMD16<UInt8>(repeating: 0)
            var absolutes = SIMD16<UInt32>(repeating: 0), squares = SIMD16<UInt32>(repeating: 0)
            var counts = SIMD4<UInt32>(repeating: 0)
            let ones = SIMD4<UInt32>(repeating: 1)
            for q in 0..<quads {
                let pe = rowE.loadUnaligned(fromByteOffset: q &* 16, as: SIMD16<UInt8>.self)
                let pa = rowA.loadUnaligned(fromByteOffset: q &* 16, as: SIMD16<UInt8>.self)
                let same = unsafeBitCast(pe, to: SIMD2<UInt64>.self) &- unsafeBitCast(pa, to: SIMD2<UInt64>.self)
                if same[0] | same[1] == 0 { continue }
                var delta = pointwiseMax(pe, pa) &- pointwiseMin(pe, pa)
                // Pixels with alpha 0 in both images are equal, whatever their colour bytes.
                let alphas = unsafeBitCast(pe | pa, to: SIMD4<UInt32>.self) &>> 24
                var words = unsafeBitCast(delta, to: SIMD4<UInt32>.self)
                words.replace(with: 0, where: alphas .== 0)
                delta = unsafeBitCast(words, to: SIMD16<UInt8>.self)
                counts &+= pointwiseMin(words, ones)
                maxes = pointwiseMax(maxes, delta)
                let wide = SIMD16<UInt32>(truncatingIfNeeded: delta)
                absolutes &+= wide
                squares &+= wide &* wide
            }
            if quads > 0 {
                rowDifferent = Int(counts.wrappedSum())
                for lane in 0..<16 { maxDelta = max(maxDelta, maxes[lane]) }
                for lane in 0..<16 {
                    rowAbsolute &+= UInt64(absolutes[lane])
                    rowSquared &+= UInt64(squares[lane])
                }
            }
            // The last 0-3 pixels of the row, one at a time.
            for x in (quads &* 4)..<width {
                let pe = rowE.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
                let pa = rowA.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
                if pe == pa || (pe | pa) >> 24 == 0 { continue }
                var m: UInt32 = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    let d = channelDelta(pe >> UInt32(shift), pa >> UInt32(shift))
                    m = max(m, d)
                    rowAbsolute &+= UInt64(d)
                    rowSquared &+= UInt64(d &* d)
                }
                rowDifferent &+= 1
                maxDelta = max(maxDelta, UInt8(m))
            }
            tally.differentPixels &+= rowDifferent
            tally.absoluteSum &+= rowAbsolute
            tally.squaredSum &+= rowSquared
        }
        tally.maxChannelDelta = Int(maxDelta)
        return tally
    }

    /// |p - q| of the low bytes.
    @inline(__always)
    static func channelDelta(_ p: UInt32, _ q: UInt32) -> UInt32 {
        let a = p & 0xFF, b = q & 0xFF
        return a > b ? a &- b : b &- a
    }
}

/// Why a pixel whose bytes differ was not counted as different.
enum Excuse {
    /// Its YIQ distance is within the perceptual threshold.
    case withinThreshold
    /// It looks like anti-aliasing in either image.
    case antiAliasing
    /// It lies in the ignore mask.
    case ignored
}

/// Decides whether a pixel whose bytes differ is excused rather than counted.
protocol ExcuseJudge {
    /// Why the pixel at (x, y), `expected` in one image and `actual` in the other, is
    /// excused; nil when it counts as different.
    func excuse(x: Int, y: Int, expected: UInt32, actual: UInt32) -> Excuse?
}

/// Without a perceptual threshold or a mask every differing pixel counts.
struct NoExcuses: ExcuseJudge {
    @inline(__always)
    func excuse(x: Int, y: Int, expected: UInt32, actual: UInt32) -> Excuse? { nil }
}

/// Pixels in the ignore mask are excused; the others are left to `otherwise`.
struct IgnoringMasked<Otherwise: ExcuseJudge>: ExcuseJudge {
    /// One byte per pixel, non-zero where ignored.
    let flags: UnsafePointer<UInt8>
    let width: Int
    let otherwise: Otherwise

    @inline(__always)
    func excuse(x: Int, y: Int, expected: UInt32, actual: UInt32) -> Excuse? {
        if flags[y &* width &+ x] != 0 { return .ignored }
        return otherwise.excuse(x: x, y: y, expected: expected, actual: actual)
    }
}
