import CLibSPNG
import PopoverImage

/// PNG bytes -> 8-bit straight RGBA through libspng, held strictly: every chunk's CRC is
/// checked (libspng would skip an ancillary chunk with a bad one) and the file is read to
/// IEND, so a damaged or cut file is an error naming it, never an image decoded from part
/// of it. libspng gives RGBA itself for 8-bit and lower images (tRNS applied, no gamma);
/// one conversion is ours: 16-bit images come as 16-bit RGBA and scale here as
/// `(v + 128) / 257`, the accurate rounding (libspng's 8-bit output keeps the high byte:
/// 0x0081 -> 0, not 1).
enum PNGDecoder {
    /// What decides the pixels a file decodes to: the loaded libspng's version and the
    /// number of the conversions here. Raise the number with any change to this file that
    /// can change a decoded pixel, so that caches of pixels decoded before are not used.
    static let version = "libspng \(String(cString: spng_version_string())), conversion 1"

    /// Ancillary chunks libspng keeps in memory (text, profiles) stay under this, each
    /// and together; image data is streamed, not held.
    private static let chunkLimit = 4 << 20
    /// The IEND chunk, as every PNG file ends: what the writer puts after the last chunk.
    private static let end: [UInt8] = {
        var writer = PNGChunkWriter()
        return Array(writer.finish().dropFirst(PNGChunkWriter.signature.count))
    }()

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, limits: PNGLimits) throws(PNGError) -> RGBAImage {
        guard bytes.count > 0 else { throw .empty(file: name) }
        let signature = PNGChunkWriter.signature
        guard bytes.prefix(signature.count).elementsEqual(signature.prefix(bytes.count)) else { throw .notPNG(file: name) }
        guard let context = spng_ctx_new(0) else {
            throw .decoderFailure(file: name, reason: "out of memory creating a libspng context")
        }
        defer { spng_ctx_free(context) }
        try check(spng_set_png_buffer(context, bytes.baseAddress, bytes.count), name: name)
        try check(spng_set_chunk_limits(context, chunkLimit, chunkLimit), name: name)
        try check(spng_set_crc_action(context, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_ERROR.rawValue)), name: name)
        // IHDR as libspng validates it (each side 1 to 2^31 - 1), then our limits, before
        // any pixel memory is allocated.
        var header = spng_ihdr()
        try check(spng_get_ihdr(context, &header), name: name)
        let width = Int(header.width), height = Int(header.height)
        guard limits.admits(width: width, height: height) else {
            throw .tooLarge(file: name, width: width, height: height, limits: limits)
        }
        let byteCount = width * height * 4
        var failure: PNGError?
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            do throws(PNGError) {
                let out = UnsafeMutableRawBufferPointer(buffer)
                if header.bit_depth == 16 {
                    try decodeSixteenBit(context, into: out, name: name)
                } else {
                    try check(spng_decode_image(context, out.baseAddress, byteCount, format(SPNG_FMT_RGBA8),
                                                Int32(SPNG_DECODE_TRNS.rawValue)), name: name)
                }
                // The chunks after the image data, to IEND: their CRCs, and a file cut after its last row.
                try check(spng_decode_chunks(context), name: name)
                initialized = byteCount
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        // libspng stops at IEND's type; its CRC, the file's last four bytes, must be there too.
        guard bytes.suffix(end.count).elementsEqual(end) else {
            throw .corrupt(file: name, reason: "the file does not end with a whole IEND chunk (cut short, or data after it)")
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Decodes as 16-bit RGBA (a tRNS colour key compared at 16 bits) and scales each
    /// sample to 8 bits into `out`.
    private static func decodeSixteenBit(_ context: OpaquePointer, into out: UnsafeMutableRawBufferPointer,
                                         name: String) throws(PNGError) {
        let samples = out.count
        let wide = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: samples)
        defer { wide.deallocate() }
        try check(spng_decode_image(context, wide.baseAddress, samples * 2, format(SPNG_FMT_RGBA16),
                                    Int32(SPNG_DECODE_TRNS.rawValue)), name: name)
        for i in 0..<samples { out[i] = UInt8((UInt32(wide[i]) + 128) / 257) }
    }

    private static func format(_ format: spng_format) -> Int32 { Int32(format.rawValue) }

    /// libspng's status as a `PNGError`: its message, or "truncated" where the data ran out.
    private static func check(_ status: Int32, name: String) throws(PNGError) {
        guard status != 0 else { return }
        if status == SPNG_IO_EOF.rawValue { throw .truncated(file: name) }
        if status == SPNG_EMEM.rawValue { throw .decoderFailure(file: name, reason: "out of memory") }
        throw .corrupt(file: name, reason: String(cString: spng_strerror(status)))
    }
}
