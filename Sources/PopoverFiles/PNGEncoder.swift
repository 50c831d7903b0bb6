import CLibDeflate
import PopoverImage

/// Writes PNG files without libpng: the layout (`PNGSampleLayout`), row filters
/// (`PNGRowFilters`), one zlib stream compressed by libdeflate in one call, and the chunks
/// (`PNGChunkWriter`): IHDR, PLTE and tRNS for palette images, one IDAT, IEND. Nothing
/// depends on time or the machine, so the same pixels give the same bytes with the same
/// libdeflate.
///
/// `PNGFile.encode` is the interface; this type's settings are open (as SPI) to tests
/// and to PopoverBench, which measures the alternatives behind `PNGCompression`.
@_spi(CodecTuning) public enum PNGEncoder {
    /// What each `PNGCompression` does (see it, and PopoverBench's PNGCodecFigures).
    public struct Settings: Sendable {
        /// libdeflate's level (1 fastest ... 12 smallest).
        public var level: Int32
        /// Filters for grey, grey-alpha, RGB and RGBA rows. Palette rows are never
        /// filtered: indices are labels, not intensities, and filtering made them larger.
        public var filters: PNGFilterChoice

        public init(level: Int32, filters: PNGFilterChoice) {
            self.level = level
            self.filters = filters
        }
    }

    public static func encode(_ image: RGBAImage, settings: Settings) -> [UInt8] {
        let layout = PNGSampleLayout.choose(for: image)
        return (layout.kind == .rgba ? image.pixels : layout.samples).withUnsafeBufferPointer {
            file(width: image.width, height: image.height, kind: layout.kind, samples: $0, palette: layout.palette,
                 settings: settings)
        }
    }

    /// An 8-bit palette image (see `PNGFile.encodeIndexed`).
    public static func encodeIndexed(width: Int, height: Int, indices: UnsafeBufferPointer<UInt8>,
                                     palette: [PNGPaletteEntry], settings: Settings) -> [UInt8] {
        file(width: width, height: height, kind: .palette, samples: indices, palette: palette.map(\.packed),
             settings: settings)
    }

    private static func file(width: Int, height: Int, kind: PNGSampleLayout.Kind, samples: UnsafeBufferPointer<UInt8>,
                             palette: [UInt32], settings: Settings) -> [UInt8] {
        var writer = PNGChunkWriter()
        writer.addHeader(width: width, height: height, colourType: kind.rawValue)
        if kind == .palette {
            // PLTE, and tRNS up to the last entry that is not opaque (entries past its end are opaque).
            precondition((1...256).contains(palette.count), "a PNG palette holds 1 to 256 entries, not \(palette.count)")
            writer.add("PLTE", palette.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8),
                                                  UInt8(truncatingIfNeeded: $0 >> 16)] })
            var alphas = palette.map { UInt8(truncatingIfNeeded: $0 >> 24) }
            while alphas.last == 255 { alphas.removeLast() }
            if !alphas.isEmpty { writer.add("tRNS", alphas) }
        }
        // The rows filtered, then compressed as one zlib stream: IDAT's content.
        let rowBytes = width * kind.bytesPerPixel
        let (count, overflow) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        precondition(!overflow, "a \(width) x \(height) image is too large to encode")
        let filtered = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            PNGRowFilters.filter(samples.baseAddress!, rowBytes: rowBytes, height: height, bytesPerPixel: kind.bytesPerPixel,
                                 choice: kind == .palette ? .fixed(.none) : settings.filters, into: out.baseAddress!)
            initialized = count
        }
        // A compressor holds the match finder's tables (a few hundred KiB); allocating one
        // per image costs far less than compressing even a small image.
        guard let compressor = libdeflate_alloc_compressor(settings.level) else { fatalError("no libdeflate compressor") }
        defer { libdeflate_free_compressor(compressor) }
        let idat = [UInt8](unsafeUninitializedCapacity: libdeflate_zlib_compress_bound(compressor, count)) { out, initialized in
            // The bound is libdeflate's own worst case, so this cannot fail.
            initialized = libdeflate_zlib_compress(compressor, filtered, count, out.baseAddress, out.count)
        }
        precondition(!idat.isEmpty, "libdeflate could not compress \(count) bytes into its own bound")
        writer.add("IDAT", idat)
        return writer.finish()
    }
}
