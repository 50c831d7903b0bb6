import PopoverImage

/// PNG files in and out.
///
/// Encoding is ours, through libdeflate (`PNGEncoder`): files hold only the chunks the
/// image needs, in the smallest 8-bit colour type that keeps every pixel exact.
///
/// Decoding goes through libspng (`PNGDecoder`), held strictly where it is lenient: a bad
/// CRC in any chunk is an error, not a skipped chunk, and a file is read to the end of
/// IEND, so one cut anywhere is an error naming it. Decoding accepts every PNG colour type, bit depth and interlace method and
/// always yields 8-bit straight RGBA:
/// - grey and palette images become RGB; images without alpha get alpha 255;
/// - a tRNS chunk becomes alpha: per palette entry, or 0 for exactly the colour key
///   (16-bit keys are compared at 16 bits, before scaling);
/// - 16-bit samples scale accurately: `v8 = (v16 + 128) / 257`, i.e. round(v16 * 255 / 65535),
///   so 0x8080 -> 128, 0x01FF -> 2, 0x0080 -> 0, 0x0081 -> 1;
/// - 1-, 2- and 4-bit grey scale by repetition (2-bit 1 -> 0x55, 4-bit 0xA -> 0xAA).
///
/// Gamma (gAMA), chromaticities (cHRM) and colour profiles (sRGB, iCCP) are not applied:
/// samples are taken as stored, which is what a pixel comparison wants.
public enum PNGFile {
    /// What decides the pixels a file decodes to, for caches of decoded pixels:
    /// "libspng 0.7.3, conversion 1", the loaded libspng's version and the number of
    /// `PNGDecoder`'s own conversions. The same bytes decode to the same pixels wherever
    /// this is the same, whatever build of this tool decodes them.
    public static let decoderVersion = PNGDecoder.version

    // MARK: Decoding

    /// Decodes PNG bytes; `name` (usually the path) is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String, limits: PNGLimits = .default) throws(PNGError) -> RGBAImage {
        // Array's withUnsafeBytes rethrows untyped: the typed error travels in a Result.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PNGError) in try PNGDecoder.decode(buffer, name: name, limits: limits) }
        }
        do {
            return try result.get()
        } catch .notPNG where isGitLFSPointer(bytes) {
            throw .gitLFSPointer(file: name)
        }
    }

    /// Reads and decodes the PNG file at `path`.
    public static func read(path: String, limits: PNGLimits = .default) throws(PNGError) -> RGBAImage {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: path)
        } catch {
            throw .unreadable(file: path, reason: error.reason)
        }
        return try decode(bytes, name: path, limits: limits)
    }

    /// Whether `bytes` are a Git LFS pointer file (its first line names the LFS spec).
    static func isGitLFSPointer(_ bytes: [UInt8]) -> Bool {
        let header = Array("version https://git-lfs.github.com/spec/".utf8)
        return bytes.count >= header.count && bytes.prefix(header.count).elementsEqual(header)
    }

    // MARK: Encoding

    /// Encodes as a PNG holding only IHDR, (for palette images) PLTE and tRNS, one IDAT
    /// and IEND, through libdeflate (see `PNGEncoder`). The pixels are stored in the
    /// smallest 8-bit colour type that holds them exactly (grey, palette, grey with
    /// alpha, RGB or RGBA; see `PNGSampleLayout`), so any decoder gives back exactly
    /// `image`'s RGBA bytes. Identical pixels give identical bytes on every run (with the
    /// same libdeflate and compression), since no time or text chunk is written.
    ///
    /// The image must be at least 1 x 1 (PNG cannot hold an empty image); running out of
    /// memory stops the program, as it would for any Swift allocation.
    public static func encode(_ image: RGBAImage, compression: PNGCompression = .smallest) -> [UInt8] {
        checkEncodable(width: image.width, height: image.height)
        return PNGEncoder.encode(image, settings: compression.settings)
    }

    /// Encodes an 8-bit palette image: `indices` holds one palette index per pixel, row
    /// by row (`width * height` of them, each below `palette.count`); `palette` holds 1
    /// to 256 entries. Entries that are not opaque go into a tRNS chunk. Decoding gives
    /// each pixel its entry's RGBA. For images of few colours, such as heatmaps, this
    /// skips the search for colours `encode` makes.
    public static func encodeIndexed(width: Int, height: Int, indices: [UInt8], palette: [PNGPaletteEntry],
                                     compression: PNGCompression = .smallest) -> [UInt8] {
        checkEncodable(width: width, height: height)
        precondition(indices.count == width * height,
                     "\(indices.count) palette indices do not make a \(width) x \(height) image")
        precondition((1...256).contains(palette.count), "a PNG palette holds 1 to 256 entries, not \(palette.count)")
        return indices.withUnsafeBufferPointer { indices in
            // An index past the palette would not decode.
            var largest: UInt8 = 0
            for index in indices { largest = max(largest, index) }
            precondition(Int(largest) < palette.count, "palette index \(largest) with \(palette.count) entries")
            return PNGEncoder.encodeIndexed(width: width, height: height, indices: indices,
                                            palette: palette, settings: compression.settings)
        }
    }

    /// Encodes and writes atomically (see `FileIO.writeAtomically`): a reader sees either
    /// the previous file or the complete new one.
    public static func write(_ image: RGBAImage, to path: String,
                             compression: PNGCompression = .smallest) throws(FileError) {
        try FileIO.writeAtomically(encode(image, compression: compression), to: path)
    }

    private static func checkEncodable(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a PNG cannot hold a \(width) x \(height) image")
        precondition(width <= 0x7FFF_FFFF && height <= 0x7FFF_FFFF,
                     "\(width) x \(height) is beyond PNG's 2^31 - 1 pixels on a side")
    }
}
