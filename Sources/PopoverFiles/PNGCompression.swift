/// How hard the encoder works; both store pixels in the smallest exact colour type. The
/// choices, and why, are in docs/goldens.md; PopoverBench's `PNGCodecFigures` measures them.
public enum PNGCompression: Sendable {
    /// For goldens, committed and kept in history: libdeflate level 7, each row's filter
    /// chosen among None, Sub and Up by the smallest sum of absolute differences.
    case smallest
    /// For report images, which nobody keeps: libdeflate's fastest level, rows filtered Up.
    case fast

    @_spi(CodecTuning) public var settings: PNGEncoder.Settings {
        switch self {
        case .smallest: PNGEncoder.Settings(level: 7, filters: .minimumSum([.none, .sub, .up]))
        case .fast: PNGEncoder.Settings(level: 1, filters: .fixed(.up))
        }
    }
}
