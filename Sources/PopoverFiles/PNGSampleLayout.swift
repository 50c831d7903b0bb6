import PopoverImage

/// Which PNG colour type an RGBA image is written as: the smallest 8-bit one that holds
/// its pixels exactly, so that every decoder (libpng's conversion to RGBA included)
/// gives back the same RGBA bytes.
///
/// Why bother: goldens are mostly grey shadows, or a few hundred colours at most. Fewer
/// bytes per pixel means less for the compressor to search, so encoding is faster and
/// the files smaller than as 8-bit RGBA at the same level.
///
/// In order of preference:
/// - grey (type 0), 1 byte a pixel: every pixel opaque and r = g = b;
/// - palette (type 3) with PLTE and tRNS, 1 byte a pixel: at most 256 distinct RGBA
///   values, entries in order of first appearance (row by row);
/// - grey with alpha (type 4), 2 bytes: r = g = b everywhere;
/// - RGB (type 2), 3 bytes: every pixel opaque;
/// - RGBA (type 6), 4 bytes: anything else.
struct PNGSampleLayout {
    enum Kind: UInt8 {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        var bytesPerPixel: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    var kind: Kind
    /// Rows of `width * kind.bytesPerPixel` bytes; empty for `.rgba`, which uses the
    /// image's own pixels.
    var samples: [UInt8]
    /// For `.palette`: each entry's r, g, b, a packed little-endian (r in the low byte).
    var palette: [UInt32]

    /// The layout for `image`.
    static func choose(for image: RGBAImage) -> PNGSampleLayout {
        let rgba = PNGSampleLayout(kind: .rgba, samples: [], palette: [])
        guard image.pixelCount > 0 else { return rgba }
        return image.pixels.withUnsafeBytes { raw -> PNGSampleLayout in
            let pixels = raw.baseAddress!
            let count = image.pixelCount
            let (grey, opaque) = greyAndOpaque(pixels, count)
            if grey && opaque {
                return PNGSampleLayout(kind: .grey, samples: extract(pixels, count, channels: [0]), palette: [])
            }
            if let (indices, palette) = paletteIndices(pixels, count) {
                return PNGSampleLayout(kind: .palette, samples: indices, palette: palette)
            }
            if grey {
                return PNGSampleLayout(kind: .greyAlpha, samples: extract(pixels, count, channels: [0, 3]), palette: [])
            }
            if opaque {
                return PNGSampleLayout(kind: .rgb, samples: extract(pixels, count, channels: [0, 1, 2]), palette: [])
            }
            return rgba
        }
    }

    @inline(__always)
    private static func pixel(_ pixels: UnsafeRawPointer, _ i: Int) -> UInt32 {
        UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
    }

    /// Whether r = g = b in every pixel, and whether every alpha is 255. Branch-free
    /// accumulation, so the loop vectorises.
    private static func greyAndOpaque(_ pixels: UnsafeRawPointer, _ count: Int) -> (grey: Bool, opaque: Bool) {
        var colourBits: UInt32 = 0  // any bit set: some pixel has r != g or g != b
        var alphaBits: UInt32 = 0xFFFF_FFFF  // AND of all pixels; top byte 0xFF iff all opaque
        for i in 0..<count {
            let p = pixel(pixels, i)
            colourBits |= (p ^ (p >> 8)) & 0xFFFF
            alphaBits &= p
        }
        return (colourBits == 0, alphaBits >> 24 == 0xFF)
    }

    /// The chosen channels of every pixel, packed.
    private static func extract(_ pixels: UnsafeRawPointer, _ count: Int, channels: [Int]) -> [UInt8] {
        let n = channels.count
        let source = pixels.assumingMemoryBound(to: UInt8.self)
        return [UInt8](unsafeUninitializedCapacity: count * n) { out, initialized in
            let o = out.baseAddress!
            switch n {
            case 1:
                for i in 0..<count { o[i] = source[i * 4] }
            case 2:
                for i in 0..<count {
                    o[i * 2] = source[i * 4]
                    o[i * 2 + 1] = source[i * 4 + 3]
                }
            default:
                for i in 0..<count {
                    o[i * 3] = source[i * 4]
                    o[i * 3 + 1] = source[i * 4 + 1]
                    o[i * 3 + 2] = source[i * 4 + 2]
                }
            }
            initialized = count * n
        }
    }

    /// Palette indices and entries, or nil once a 257th distinct colour turns up.
    /// An open-addressing table of 1024 slots (at most a quarter full) finds each colour;
    /// runs of equal pixels, the common case, skip even that.
    private static func paletteIndices(_ pixels: UnsafeRawPointer, _ count: Int) -> ([UInt8], [UInt32])? {
        let slots = 1024
        var keys = [UInt32](repeating: 0, count: slots)
        var values = [Int16](repeating: -1, count: slots)
        var palette: [UInt32] = []
        palette.reserveCapacity(256)
        var overflow = false
        let indices = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            keys.withUnsafeMutableBufferPointer { keys in
                values.withUnsafeMutableBufferPointer { values in
                    var last = pixel(pixels, 0) ^ 1  // differs from the first pixel
                    var lastIndex: UInt8 = 0
                    for i in 0..<count {
                        let p = pixel(pixels, i)
                        if p != last {
                            var slot = Int((p &* 0x9E37_79B1) >> 22)
                            while true {
                                let v = values[slot]
                                if v < 0 {
                                    if palette.count == 256 { overflow = true; return }
                                    values[slot] = Int16(palette.count)
                                    keys[slot] = p
                                    lastIndex = UInt8(palette.count)
                                    palette.append(p)
                                    break
                                }
                                if keys[slot] == p {
                                    lastIndex = UInt8(v)
                                    break
                                }
                                slot = (slot + 1) & (slots - 1)
                            }
                            last = p
                        }
                        out[i] = lastIndex
                    }
                }
            }
            initialized = overflow ? 0 : count
        }
        return overflow ? nil : (indices, palette)
    }
}
