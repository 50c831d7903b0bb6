#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibSPNG
import PopoverImage

/// Writes PNG files through libspng: IHDR, PLTE and tRNS for palette images, the rows
/// filtered by libspng's choice among `compression`'s filters and compressed by its zlib,
/// IEND. No time, text or gamma chunk is written, so the same pixels give the same bytes
/// with the same libspng and zlib. The colour type is ours (`PNGSampleLayout`).
enum PNGEncoder {
    static func encode(_ image: RGBAImage, compression: PNGCompression) -> [UInt8] {
        let layout = PNGSampleLayout.choose(for: image)
        let samples = layout.kind == .rgba ? image.pixels : layout.samples
        return encode(width: image.width, height: image.height, kind: layout.kind, samples: samples,
                      palette: layout.palette, compression: compression)
    }

    /// `samples`: rows of `width` pixels of `kind`, as the file stores them; `palette`:
    /// for `.palette`, each entry's r, g, b, a packed little-endian (r in the low byte).
    static func encode(width: Int, height: Int, kind: PNGSampleLayout.Kind, samples: [UInt8], palette: [UInt32],
                       compression: PNGCompression) -> [UInt8] {
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            fatalError("out of memory creating a libspng encoder")
        }
        defer { spng_ctx_free(context) }
        var header = spng_ihdr(width: UInt32(width), height: UInt32(height), bit_depth: 8, color_type: kind.rawValue,
                               compression_method: 0, filter_method: 0, interlace_method: 0)
        // Palette indices are labels, not intensities: predicting one from its neighbours
        // rarely helps, so palette rows are not filtered.
        let filters = kind == .palette ? Int32(SPNG_FILTER_CHOICE_NONE.rawValue) : compression.filterChoice
        var status = spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
        for (option, value) in [(SPNG_IMG_COMPRESSION_LEVEL, compression.level), (SPNG_FILTER_CHOICE, filters)]
        where status == 0 {
            status = spng_set_option(context, option, value)
        }
        if status == 0 { status = spng_set_ihdr(context, &header) }
        if status == 0, kind == .palette {
            // PLTE, and tRNS up to the last entry that is not opaque (entries past its end
            // are opaque), left out when every entry is opaque.
            var plte = spng_plte(), trns = spng_trns()
            plte.n_entries = UInt32(palette.count)
            withUnsafeMutableBytes(of: &plte.entries) { entries in
                withUnsafeMutableBytes(of: &trns.type3_alpha) { alphas in
                    for (i, entry) in palette.enumerated() {
                        for channel in 0..<3 { entries[i * 4 + channel] = UInt8(truncatingIfNeeded: entry >> (8 * channel)) }
                        alphas[i] = UInt8(truncatingIfNeeded: entry >> 24)
                        if alphas[i] != 255 { trns.n_type3_entries = UInt32(i + 1) }
                    }
                }
            }
            status = spng_set_plte(context, &plte)
            if status == 0, trns.n_type3_entries > 0 { status = spng_set_trns(context, &trns) }
        }
        if status == 0 {
            status = samples.withUnsafeBytes {
                spng_encode_image(context, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue),
                                  Int32(SPNG_ENCODE_FINALIZE.rawValue))
            }
        }
        var length = 0
        var error: Int32 = 0
        // The callers have checked the size, palette and samples: a refusal is a bug here.
        guard status == 0, let buffer = spng_get_png_buffer(context, &length, &error) else {
            fatalError("libspng could not encode a \(width) x \(height) image: \(String(cString: spng_strerror(status == 0 ? error : status)))")
        }
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
