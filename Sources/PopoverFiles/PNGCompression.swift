/// How hard the encoder works. Both store pixels in the smallest exact colour type.
///
/// Chosen on the committed goldens; PopoverBench's `PNGCodecFigures` measures each
/// choice against its alternatives, and `popover-goldens bench` prints the figures.
public enum PNGCompression: Sendable {
    /// For goldens, which are committed and live in the repository's history: libdeflate
    /// level 7, each row's filter chosen among None, Sub and Up by the smallest sum of
    /// absolute differences, palette rows unfiltered.
    ///
    /// Why these: higher levels shrank the files little for their time on these mostly
    /// transparent images, lower ones left them larger than libpng's zlib level 9 wrote
    /// them; Average and Paeth made the files larger, as palette indices do when
    /// filtered (they are labels, not intensities).
    case smallest
    /// For report images, which nobody keeps: the Up filter (palette rows unfiltered) and
    /// libdeflate's fastest level; the files are larger than `.smallest`'s.
    case fast

    @_spi(CodecTuning) public var settings: PNGEncoder.Settings {
        switch self {
        case .smallest:
            PNGEncoder.Settings(reduceColours: true, level: 7,
                                filters: .minimumSum([.none, .sub, .up]), paletteFilters: .fixed(.none))
        case .fast:
            PNGEncoder.Settings(reduceColours: true, level: 1, filters: .fixed(.up),
                                paletteFilters: .fixed(.none))
        }
    }
}
