import PopoverImage

/// Writes PNG files without libpng: the layout (`PNGSampleLayout`), row filters
/// (`PNGRowFilters`), one zlib stream (`ZlibCompressor`), and the chunks
/// (`PNGChunkWriter`): IHDR, PLTE and tRNS for
/// palette images, one IDAT, IEND. Nothing depends on time or the machine, so the same
/// pixels give the same bytes with the same libdeflate.
///
/// `PNGFile.encode` is the interface; this type's settings are open (as SPI) to tests
/// and to PopoverBench, which measures the alternatives behind `PNGCompression`.
@_spi(CodecTuning) public enum PNGEncoder {
    /// What each `PNGCompression` does. The choices were measured on the 2080 committed
    /// goldens (see PopoverBench's PNGCodecFigures and `PNGCompression`).
    public struct Settings: Sendable {
        /// Store images in the smallest colour type that holds them exactly.
        public var reduceColours: Bool
        /// libdeflate's level (1 fastest ... 12 smallest).
        public var level: Int32
        /// Filters for grey, grey-alpha, RGB and RGBA rows.
        public var filters: PNGFilterChoice
        /// Filters for palette indices (which are labels, not intensities: predicting
        /// one from its neighbours rarely helps, so `.none` is the usual best).
        public var paletteFilters: PNGFilterChoice

        public init(reduceColours: Bool, level: Int32, filters: PNGFilterChoice, paletteFilters: PNGFilterChoice) {
            self.reduceColours = reduceColours
            self.level = level
            self.filters = filters
            self.paletteFilters = paletteFilters
        }
    }

    public static func encode(_ image: RGBAImage, settings: Settings) -> [UInt8] {
        let layout = PNGSampleLayout.choose(for: image, reduce: settings.reduceColours)
        var writer = PNGChunkWriter()
        writer.addHeader(width: image.width, height: image.height, bitDepth: 8, colourType: layout.kind.rawValue)
        if layout.kind == .palette { addPalette(layout.palette, to: &writer) }
        let filters = layout.kind == .palette ? settings.paletteFilters : settings.filters
        let data = layout.kind == .rgba ? image.pixels : layout.samples
        let idat = data.withUnsafeBufferPointer { samples in
            compressRows(samples.baseAddress!, width: image.width, height: image.height,
                         bytesPerPixel: layout.kind.bytesPerPixel, filters: filters, level: settings.level)
        }
        writer.add(PNGChunks.IDAT, idat)
        return writer.bytes()
    }

    /// An 8-bit palette image (see `PNGFile.encodeIndexed`).
    public static func encodeIndexed(width: Int, height: Int, indices: UnsafeBufferPointer<UInt8>,
                                     palette: [PNGPaletteEntry], settings: Settings) -> [UInt8] {
        var writer = PNGChunkWriter()
        writer.addHeader(width: width, height: height, bitDepth: 8, colourType: PNGSampleLayout.Kind.palette.rawValue)
        addPalette(palette.map(\.packed), to: &writer)
        writer.add(PNGChunks.IDAT, compressRows(indices.baseAddress!, width: width, height: height, bytesPerPixel: 1,
                                                filters: settings.paletteFilters, level: settings.level))
        return writer.bytes()
    }

    /// PLTE, and tRNS up to the last entry that is not opaque (entries past the end of
    /// tRNS are opaque), left out when every entry is opaque.
    private static func addPalette(_ palette: [UInt32], to writer: inout PNGChunkWriter) {
        precondition((1...256).contains(palette.count), "a PNG palette holds 1 to 256 entries, not \(palette.count)")
        writer.add(PNGChunks.PLTE, palette.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8),
                                                      UInt8(truncatingIfNeeded: $0 >> 16)] })
        var alphas = palette.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        while alphas.last == 255 { alphas.removeLast() }
        if !alphas.isEmpty { writer.add(PNGChunks.tRNS, alphas) }
    }

    /// Filters the rows and compresses them as one zlib stream: IDAT's content.
    private static func compressRows(_ samples: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerPixel: Int,
                                     filters: PNGFilterChoice, level: Int32) -> [UInt8] {
        let rowBytes = width * bytesPerPixel
        let (filteredCount, overflow) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        precondition(!overflow, "a \(width) x \(height) image is too large to encode")
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredCount)
        defer { filtered.deallocate() }
        PNGRowFilters.filter(samples, rowBytes: rowBytes, height: height, bytesPerPixel: bytesPerPixel,
                             choice: filters, into: filtered)
        return ZlibCompressor.compress(UnsafeRawBufferPointer(start: filtered, count: filteredCount), level: level)
    }
}
