import CPNGShim
import PopoverImage

/// PNG files in and out, through libpng.
///
/// Decoding accepts every PNG colour type, bit depth and interlace method and always
/// yields 8-bit straight RGBA:
/// - grey and palette images become RGB; images without alpha get alpha 255;
/// - a tRNS chunk becomes alpha: per palette entry, or 0 for exactly the colour key
///   (16-bit keys are compared at 16 bits, before scaling);
/// - 16-bit samples scale accurately: `v8 = (v16 + 128) / 257`, i.e. round(v16 * 255 / 65535),
///   so 0x8080 -> 128, 0x01FF -> 2, 0x0080 -> 0, 0x0081 -> 1;
/// - 1-, 2- and 4-bit grey scale by repetition (2-bit 1 -> 0x55, 4-bit 0xA -> 0xAA).
///
/// Gamma (gAMA), chromaticities (cHRM) and colour profiles (sRGB, iCCP) are ignored and
/// skipped: samples are taken as stored, which is what a pixel comparison wants. Every
/// chunk's CRC is checked, ancillary ones included.
public enum PNGFile {
    /// What decodes golden files into pixels, named for caches of decoded facts: a
    /// different libpng (or a change to how this shim converts) may decode the same
    /// bytes differently, so facts learned by another decoder are not reused.
    public static let decoderIdentity = "libpng " + String(cString: pngshim_libpng_version()) + ", straight RGBA8 v1"

    // MARK: Decoding

    /// Decodes PNG bytes; `name` (usually the path) is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String, limits: PNGLimits = .default) throws(PNGError) -> RGBAImage {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PNGError) -> RGBAImage in try decode(buffer, name: name, limits: limits) }
        }
        return try result.get()
    }

    /// Decodes PNG bytes in place, without copying them.
    public static func decode(_ bytes: UnsafeRawBufferPointer, name: String, limits: PNGLimits = .default) throws(PNGError) -> RGBAImage {
        // First the header alone, so the limits are checked and the pixel buffer can be
        // allocated at its final size; then libpng decodes straight into that buffer.
        let cLimits = PNGShimBridge.cLimits(limits)
        var header = pngshim_header()
        var (status, message) = PNGShimBridge.call { text, capacity in
            pngshim_probe(bytes.baseAddress, bytes.count, cLimits, &header, text, capacity)
        }
        guard status == PNGSHIM_OK else {
            throw PNGShimBridge.error(status: status, message: message, header: header, name: name, limits: limits)
        }
        let width = Int(header.width), height = Int(header.height)
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount <= Int.max / 4 else {
            throw .tooLarge(file: name, width: width, height: height, limits: limits)
        }
        let byteCount = pixelCount * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            (status, message) = PNGShimBridge.call { text, capacity in
                pngshim_decode_rgba(bytes.baseAddress, bytes.count, cLimits, buffer.baseAddress, byteCount,
                                    &header, text, capacity)
            }
            initialized = status == PNGSHIM_OK ? byteCount : 0
        }
        guard status == PNGSHIM_OK else {
            throw PNGShimBridge.error(status: status, message: message, header: header, name: name, limits: limits)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
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

    /// Reads IHDR (and checks the chunks before the image data) without decoding pixels.
    /// No size limit applies: a header is small whatever it claims.
    public static func header(_ bytes: [UInt8], name: String) throws(PNGError) -> PNGHeader {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PNGError) -> PNGHeader in try header(buffer, name: name) }
        }
        return try result.get()
    }

    /// Reads IHDR from bytes in place.
    public static func header(_ bytes: UnsafeRawBufferPointer, name: String) throws(PNGError) -> PNGHeader {
        var raw = pngshim_header()
        let (status, message) = PNGShimBridge.call { text, capacity in
            pngshim_probe(bytes.baseAddress, bytes.count, PNGShimBridge.unlimited, &raw, text, capacity)
        }
        guard status == PNGSHIM_OK else {
            let limits = PNGLimits(maxSide: 0x7FFF_FFFF, maxPixels: .max)
            throw PNGShimBridge.error(status: status, message: message, header: raw, name: name, limits: limits)
        }
        return try PNGShimBridge.header(from: raw, name: name)
    }

    // MARK: Encoding

    /// Encodes as an 8-bit RGBA PNG holding only IHDR, IDAT and IEND, by default at zlib
    /// level 9 with every row filter tried (see `PNGCompression`). Identical pixels give
    /// identical bytes on every run (with the same libpng, zlib and compression), since no
    /// time or text chunk is written.
    ///
    /// The image must be at least 1 x 1 (PNG cannot hold an empty image); running out of
    /// memory stops the program, as it would for any Swift allocation.
    public static func encode(_ image: RGBAImage, compression: PNGCompression = .smallest) -> [UInt8] {
        precondition(image.width > 0 && image.height > 0,
                     "a PNG cannot hold a \(image.width) x \(image.height) image")
        precondition(image.width <= 0x7FFF_FFFF && image.height <= 0x7FFF_FFFF,
                     "\(image.width) x \(image.height) is beyond PNG's 2^31 - 1 pixels on a side")
        var output = pngshim_output()
        let (status, message) = image.pixels.withUnsafeBufferPointer { pixels in
            PNGShimBridge.call { text, capacity in
                pngshim_encode_rgba(pixels.baseAddress, UInt32(image.width), UInt32(image.height),
                                    compression.zlibLevel, &output, text, capacity)
            }
        }
        defer { pngshim_output_free(&output) }
        guard status == PNGSHIM_OK, let bytes = output.bytes else {
            fatalError("PNG encoding of a \(image.width) x \(image.height) image failed: \(message)")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }

    /// Encodes and writes atomically (see `FileIO.writeAtomically`): a reader sees either
    /// the previous file or the complete new one.
    public static func write(_ image: RGBAImage, to path: String,
                             compression: PNGCompression = .smallest) throws(FileError) {
        try FileIO.writeAtomically(encode(image, compression: compression), to: path)
    }
}

/// How hard the encoder works.
public enum PNGCompression: Sendable {
    /// zlib level 9 and every row filter: for goldens, which are committed.
    case smallest
    /// zlib level 1 and one row filter, several times faster: for report images,
    /// which nobody keeps.
    case fast

    var zlibLevel: Int32 {
        switch self {
        case .smallest: 9
        case .fast: 1
        }
    }
}
