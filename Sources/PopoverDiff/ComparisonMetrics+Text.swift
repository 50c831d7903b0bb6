#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way measurements are written for people: the command line, JUnit XML, the
/// report page and the golden suite's messages all show the same digits.
extension ComparisonMetrics {
    /// `meanAbsoluteError` to four decimals, e.g. "0.0123".
    public var meanAbsoluteErrorText: String { Self.fixed(meanAbsoluteError, decimals: 4) }

    /// `psnr` to two decimals with its unit, e.g. "71.20 dB"; "inf" when there is no error
    /// to measure (nil).
    public var psnrText: String { psnr.map { Self.fixed($0, decimals: 2) + " dB" } ?? "inf" }

    /// The four numbers a failure is judged by, in one line with their JSON names, e.g.
    /// "differentPixels 12, maxChannelDelta 3, meanAbsoluteError 0.0123, psnr 71.20 dB".
    public var line: String {
        "differentPixels \(differentPixels), maxChannelDelta \(maxChannelDelta), "
            + "meanAbsoluteError \(meanAbsoluteErrorText), psnr \(psnrText)"
    }

    /// `value` with `decimals` digits after the point, rounded as printf's %f rounds.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let written = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(decimals)f", $0) }
        guard written >= 0, Int(written) < buffer.count else { return "\(value)" }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
