#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a comparison measured, in the JSON shape reports store:
///
/// ```json
/// {"width": 336, "height": 365, "differentPixels": 12, "excusedPixels": 40,
///  "excusedWithinThreshold": 25, "excusedAntiAliasing": 15, "excusedIgnored": 0,
///  "maxChannelDelta": 3, "meanAbsoluteError": 0.0123, "psnr": 71.2, "pass": true,
///  "tolerance": "max channel delta 0-3, different pixels 0-20, perceptual 0.1"}
/// ```
///
/// Throughout, a channel difference is |expected - actual| of one of R, G, B, A on the
/// 0-255 scale, and a pixel that is transparent (alpha 0) in both images has all four
/// differences 0. N = width * height.
public struct ComparisonMetrics: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int
    /// Pixels counted as different: their bytes differ (and they are not transparent in
    /// both images) and they were not excused.
    public var differentPixels: Int
    /// Pixels whose bytes differ but which were not counted: the sum of the three
    /// reasons below (in documents written before the reasons were recorded, the total
    /// alone, the reasons then 0).
    public var excusedPixels: Int
    /// Excused because their YIQ distance is within the perceptual threshold; 0 without one.
    public var excusedWithinThreshold: Int
    /// Excused because they look like anti-aliasing; 0 without a perceptual threshold or
    /// when the tolerance counts anti-aliasing.
    public var excusedAntiAliasing: Int
    /// Excused because they lie in the comparison's ignore mask; 0 without one.
    public var excusedIgnored: Int
    /// max over counted pixels p and channels c of |e(p,c) - a(p,c)|; 0 when none is counted.
    public var maxChannelDelta: Int
    /// (1 / 4N) * sum over all pixels p and channels c of |e(p,c) - a(p,c)|, 0...255.
    /// Includes excused pixels; 0 for an empty image.
    public var meanAbsoluteError: Double
    /// 10 * log10(255^2 / MSE) dB, where MSE = (1 / 4N) * sum of (e(p,c) - a(p,c))^2 over
    /// all pixels and channels (excused included). nil (JSON null) when MSE = 0, that is
    /// when the images are identical up to invisible pixels.
    public var psnr: Double?
    /// The verdict, see ``ImageComparison``.
    public var pass: Bool
    /// The tolerance's description, e.g. "exact".
    public var tolerance: String

    /// Metrics with `excusedPixels` the sum of the three reasons.
    public init(
        width: Int, height: Int, differentPixels: Int,
        excusedWithinThreshold: Int = 0, excusedAntiAliasing: Int = 0, excusedIgnored: Int = 0,
        maxChannelDelta: Int, meanAbsoluteError: Double, psnr: Double?, pass: Bool, tolerance: String
    ) {
        self.width = width
        self.height = height
        self.differentPixels = differentPixels
        self.excusedPixels = excusedWithinThreshold + excusedAntiAliasing + excusedIgnored
        self.excusedWithinThreshold = excusedWithinThreshold
        self.excusedAntiAliasing = excusedAntiAliasing
        self.excusedIgnored = excusedIgnored
        self.maxChannelDelta = maxChannelDelta
        self.meanAbsoluteError = meanAbsoluteError
        self.psnr = psnr
        self.pass = pass
        self.tolerance = tolerance
    }

    init(width: Int, height: Int, tally: ImageComparison.Tally, tolerance: Tolerance) {
        let channels = Double(width * height * 4)
        var psnr: Double? = nil
        if tally.squaredSum > 0 {
            let mse = Double(tally.squaredSum) / channels
            psnr = 10 * log10(255.0 * 255.0 / mse)
        }
        self.init(
            width: width, height: height,
            differentPixels: tally.differentPixels,
            excusedWithinThreshold: tally.excusedWithinThreshold,
            excusedAntiAliasing: tally.excusedAntiAliasing,
            excusedIgnored: tally.excusedIgnored,
            maxChannelDelta: tally.maxChannelDelta,
            meanAbsoluteError: channels > 0 ? Double(tally.absoluteSum) / channels : 0,
            psnr: psnr,
            pass: false,
            tolerance: tolerance.description)
    }

    enum CodingKeys: String, CodingKey {
        case width, height, differentPixels, excusedPixels, excusedWithinThreshold, excusedAntiAliasing, excusedIgnored
        case maxChannelDelta, meanAbsoluteError, psnr, pass, tolerance
    }

    /// Reads documents written before the excused pixels were split by reason too: the
    /// reasons are then 0 and `excusedPixels` keeps the total written.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try c.decode(Int.self, forKey: .width),
            height: try c.decode(Int.self, forKey: .height),
            differentPixels: try c.decode(Int.self, forKey: .differentPixels),
            excusedWithinThreshold: try c.decodeIfPresent(Int.self, forKey: .excusedWithinThreshold) ?? 0,
            excusedAntiAliasing: try c.decodeIfPresent(Int.self, forKey: .excusedAntiAliasing) ?? 0,
            excusedIgnored: try c.decodeIfPresent(Int.self, forKey: .excusedIgnored) ?? 0,
            maxChannelDelta: try c.decode(Int.self, forKey: .maxChannelDelta),
            meanAbsoluteError: try c.decode(Double.self, forKey: .meanAbsoluteError),
            psnr: try c.decodeIfPresent(Double.self, forKey: .psnr),
            pass: try c.decode(Bool.self, forKey: .pass),
            tolerance: try c.decode(String.self, forKey: .tolerance))
        excusedPixels = try c.decode(Int.self, forKey: .excusedPixels)
    }

    /// Writes every key, `psnr` as null when there is no error to measure.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(differentPixels, forKey: .differentPixels)
        try c.encode(excusedPixels, forKey: .excusedPixels)
        try c.encode(excusedWithinThreshold, forKey: .excusedWithinThreshold)
        try c.encode(excusedAntiAliasing, forKey: .excusedAntiAliasing)
        try c.encode(excusedIgnored, forKey: .excusedIgnored)
        try c.encode(maxChannelDelta, forKey: .maxChannelDelta)
        try c.encode(meanAbsoluteError, forKey: .meanAbsoluteError)
        if let psnr { try c.encode(psnr, forKey: .psnr) } else { try c.encodeNil(forKey: .psnr) }
        try c.encode(pass, forKey: .pass)
        try c.encode(tolerance, forKey: .tolerance)
    }
}
