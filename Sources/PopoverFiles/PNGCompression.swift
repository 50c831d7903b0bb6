import CLibSPNG

/// How hard the encoder works. Both store pixels in the smallest exact colour type and
/// leave palette rows unfiltered (palette indices are labels, not intensities).
public enum PNGCompression: Sendable {
    /// For goldens, which are committed and live in the repository's history: zlib level
    /// 6 through libspng, each row's filter chosen by libspng among None, Sub and Up
    /// (Average and Paeth made these mostly transparent images larger).
    case smallest
    /// For report images, which nobody keeps: zlib's fastest level, rows filtered Up; the
    /// files are larger than `.smallest`'s.
    case fast

    /// zlib's level (1 fastest ... 9 smallest).
    @_spi(CodecTuning) public var level: Int32 { self == .smallest ? 6 : 1 }

    /// The filters libspng chooses among for each row, by the smallest sum of absolute
    /// differences.
    @_spi(CodecTuning) public var filters: [PNGFilter] { self == .smallest ? [.none, .sub, .up] : [.up] }

    var filterChoice: Int32 { filters.reduce(0) { $0 | Int32($1.choice.rawValue) } }
}

/// The PNG row filters an encoder may choose among.
@_spi(CodecTuning) public enum PNGFilter: CaseIterable, Sendable {
    case none, sub, up

    var choice: spng_filter_choice {
        switch self {
        case .none: SPNG_FILTER_CHOICE_NONE
        case .sub: SPNG_FILTER_CHOICE_SUB
        case .up: SPNG_FILTER_CHOICE_UP
        }
    }
}
