import CLibSPNG
import PopoverImage

/// PNG bytes -> 8-bit straight RGBA through libspng, after `PNGChunkCheck`. libspng gives
/// RGBA itself for 8-bit and lower grey and colour images (tRNS applied, no gamma); two
/// conversions are ours, where its own would not do:
/// - 16-bit images come as 16-bit RGBA and scale here as `(v + 128) / 257`, the accurate
///   rounding (libspng's 8-bit output keeps the high byte: 0x0081 -> 0, not 1);
/// - palette images come as their indices and are looked up here, so an index past the
///   palette is an error naming it (libspng's RGBA gives such an index opaque black).
enum PNGDecoder {
    /// What decides the pixels a file decodes to: the loaded libspng's version and the
    /// number of the conversions here. Raise the number with any change to this file that
    /// can change a decoded pixel, so that caches of pixels decoded before are not used.
    static let version = "libspng \(String(cString: spng_version_string())), conversion 1"

    /// Ancillary chunks libspng keeps in memory (text, profiles) stay under this, each
    /// and together; image data is streamed, not held.
    private static let chunkLimit = 4 << 20

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, limits: PNGLimits) throws(PNGError) -> RGBAImage {
        try PNGChunkCheck.checkStart(bytes, name: name)
        let endsWithIEND = try PNGChunkCheck.checkChunks(bytes, name: name)
        guard let context = spng_ctx_new(0) else {
            throw .decoderFailure(file: name, reason: "out of memory creating a libspng context")
        }
        defer { spng_ctx_free(context) }
        try check(spng_set_png_buffer(context, bytes.baseAddress, bytes.count), name: name)
        try check(spng_set_chunk_limits(context, chunkLimit, chunkLimit), name: name)
        // IHDR as libspng validates it (each side at most 2^31 - 1), then our limits, before
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
                switch (header.color_type, header.bit_depth) {
                case (3, _): try decodePalette(context, into: out, header: header, name: name)
                case (_, 16): try decodeSixteenBit(context, into: out, name: name)
                case (4, _): try decodeGreyAlpha(context, into: out, name: name)
                default: try check(spng_decode_image(context, out.baseAddress, byteCount, format(SPNG_FMT_RGBA8),
                                                     Int32(SPNG_DECODE_TRNS.rawValue)), name: name)
                }
                initialized = byteCount
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        let image = RGBAImage(width: width, height: height, pixels: pixels)
        // Every row is there; a file without IEND lacks only that if its image data is
        // whole too (libspng stops reading once it has the last row).
        guard endsWithIEND else {
            guard PNGChunkCheck.imageDataIsWhole(bytes, width: image.width, height: image.height) else {
                throw .truncated(file: name)
            }
            throw .corrupt(file: name, reason: "no IEND chunk (the file ends after its last complete chunk)")
        }
        return image
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

    /// Decodes 8-bit grey with alpha as stored, two bytes a pixel, into the start of `out`
    /// and spreads each to RGBA from the last pixel back (its pair at byte 2i, its RGBA at
    /// 4i). libspng's own conversion of these images took a quarter longer (bench).
    private static func decodeGreyAlpha(_ context: OpaquePointer, into out: UnsafeMutableRawBufferPointer,
                                        name: String) throws(PNGError) {
        let pixels = out.count / 4
        try check(spng_decode_image(context, out.baseAddress, pixels * 2, format(SPNG_FMT_PNG), 0), name: name)
        let bytes = out.bindMemory(to: UInt8.self).baseAddress!
        for i in stride(from: pixels - 1, through: 0, by: -1) {
            let grey = UInt32(bytes[2 * i]), alpha = UInt32(bytes[2 * i + 1])
            let rgba = grey | grey << 8 | grey << 16 | alpha << 24
            UnsafeMutableRawPointer(bytes).storeBytes(of: rgba.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
        }
    }

    /// Decodes a palette image's indices (1, 2, 4 or 8 bits each, rows whole bytes) into
    /// the start of `out`, then replaces them with their entries' RGBA, from the last pixel
    /// back, so that no index is overwritten before it is read: pixel i's index lies at
    /// or before byte i, its colour at byte 4i.
    private static func decodePalette(_ context: OpaquePointer, into out: UnsafeMutableRawBufferPointer,
                                      header: spng_ihdr, name: String) throws(PNGError) {
        var size = 0
        try check(spng_decoded_image_size(context, format(SPNG_FMT_PNG), &size), name: name)
        guard size <= out.count else {
            throw .decoderFailure(file: name, reason: "libspng needs \(size) bytes for the indices of \(out.count / 4) pixels")
        }
        // libspng ORs the packed indices of each Adam7 pass into place: start from zeros.
        out.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        try check(spng_decode_image(context, out.baseAddress, size, format(SPNG_FMT_PNG), 0), name: name)
        var plte = spng_plte()
        try check(spng_get_plte(context, &plte), name: name)
        var trns = spng_trns()
        let alphaCount = spng_get_trns(context, &trns) == 0 ? Int(trns.n_type3_entries) : 0
        let entries = Int(plte.n_entries)
        var table = [UInt32](repeating: 0, count: 256)
        withUnsafeBytes(of: plte.entries) { colours in
            withUnsafeBytes(of: trns.type3_alpha) { alphas in
                for i in 0..<entries {
                    let alpha = i < alphaCount ? UInt32(alphas[i]) : 255
                    table[i] = UInt32(colours[i * 4]) | UInt32(colours[i * 4 + 1]) << 8
                        | UInt32(colours[i * 4 + 2]) << 16 | alpha << 24
                }
            }
        }
        let width = Int(header.width), height = Int(header.height), depth = Int(header.bit_depth)
        let rowBytes = (width * depth + 7) / 8
        let mask = (1 << depth) - 1
        let bytes = out.bindMemory(to: UInt8.self).baseAddress!
        var past: Int?
        table.withUnsafeBufferPointer { table in
            for y in stride(from: height - 1, through: 0, by: -1) {
                let row = bytes + y * rowBytes
                let colours = UnsafeMutableRawPointer(bytes + y * width * 4)
                for x in stride(from: width - 1, through: 0, by: -1) {
                    let index: Int
                    if depth == 8 {
                        index = Int(row[x])
                    } else {
                        let bit = x * depth
                        index = Int(row[bit / 8]) >> (8 - depth - bit % 8) & mask
                    }
                    guard index < entries else { past = index; return }
                    colours.storeBytes(of: table[index].littleEndian, toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
        if let past {
            throw .corrupt(file: name, reason: "palette index \(past) is past the end of the palette "
                + "(\(entries) entr\(entries == 1 ? "y" : "ies"))")
        }
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
