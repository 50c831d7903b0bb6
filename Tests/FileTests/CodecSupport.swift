import CLibDeflate
import PopoverFiles
import PopoverImage
import TestSupport

/// Images of each kind the encoder stores differently, drawn from a seeded generator so a
/// failure replays.
enum CodecImages {
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        /// Opaque, r = g = b: stored as grey.
        case opaqueGrey
        /// At most 256 distinct colours, some translucent: stored as a palette.
        case fewColours
        /// r = g = b, varying alpha, more than 256 colours: grey with alpha.
        case greyAlpha
        /// Opaque colour, more than 256 colours: RGB.
        case opaqueColour
        /// Anything: RGBA.
        case noise
        /// Like a golden: transparent margin, a soft black shadow, a flat and a graded fill.
        case popoverLike

        var description: String { rawValue }

        /// The colour type the encoder must choose (a small image may have too few
        /// colours for its kind; `image` makes sure it does not).
        var colourType: PNGColourType {
            switch self {
            case .opaqueGrey: .grey
            case .fewColours: .palette
            case .greyAlpha: .greyAlpha
            case .opaqueColour: .rgb
            case .noise, .popoverLike: .rgba
            }
        }
    }

    static func image(_ kind: Kind, width: Int, height: Int, seed: UInt64) -> RGBAImage {
        var random = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let palette = (0..<7).map { _ in UInt32(truncatingIfNeeded: random.next()) }
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let r = random.next()
                let p: (UInt8, UInt8, UInt8, UInt8)
                switch kind {
                case .opaqueGrey:
                    let g = UInt8(truncatingIfNeeded: (x * 3 + y) ^ Int(r & 3))
                    p = (g, g, g, 255)
                case .fewColours:
                    let c = palette[Int(r % 7)]
                    p = (UInt8(truncatingIfNeeded: c), UInt8(truncatingIfNeeded: c >> 8),
                         UInt8(truncatingIfNeeded: c >> 16), UInt8(truncatingIfNeeded: c >> 24))
                case .greyAlpha:
                    let g = UInt8(truncatingIfNeeded: r)
                    p = (g, g, g, UInt8(truncatingIfNeeded: r >> 8))
                case .opaqueColour:
                    p = (UInt8(truncatingIfNeeded: r), UInt8(truncatingIfNeeded: r >> 8),
                         UInt8(truncatingIfNeeded: r >> 16), 255)
                case .noise:
                    p = (UInt8(truncatingIfNeeded: r), UInt8(truncatingIfNeeded: r >> 8),
                         UInt8(truncatingIfNeeded: r >> 16), UInt8(truncatingIfNeeded: r >> 24))
                case .popoverLike:
                    let inset = min(x, y, width - 1 - x, height - 1 - y)
                    if inset < 2 {
                        p = (0, 0, 0, 0)
                    } else if inset < 6 {
                        p = (0, 0, 0, UInt8((inset - 1) * 20))  // the shadow
                    } else if y < height / 2 {
                        p = (0x2F, 0x5D, 0x9E, 0xFF)  // a flat fill
                    } else {
                        let v = UInt8(truncatingIfNeeded: 0x80 + y + x / 7)  // a graded one
                        p = (v, v &+ 9, v &+ 17, 0xF0 &+ UInt8(truncatingIfNeeded: r & 1))
                    }
                }
                (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = p
            }
        }
        var image = RGBAImage(width: width, height: height, pixels: pixels)
        // Tiny images of the rich kinds: make sure there are more than 256 colours (or
        // the encoder would rightly pick a palette) by adding a strip of distinct ones.
        if [.greyAlpha, .opaqueColour, .noise, .popoverLike].contains(kind), width * height > 257 {
            for j in 0..<257 {
                let i = j * 4
                switch kind {
                case .greyAlpha: (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3])
                    = (UInt8(j % 256), UInt8(j % 256), UInt8(j % 256), UInt8(j / 256))
                case .opaqueColour: (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3])
                    = (UInt8(j % 256), UInt8(j / 256), 7, 255)
                default: (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3])
                    = (UInt8(j % 256), UInt8(j / 256), 7, 100)
                }
            }
        }
        return image
    }

    /// Sizes from the smallest PNG to a few thousand pixels, odd and even, one row and
    /// one column; every one has room for the 257 colours of the rich kinds.
    static let sizes = [(17, 16), (300, 1), (1, 300), (33, 29), (64, 64), (129, 40)]
}

/// The outcome of decoding, comparable whether it is pixels or an error.
enum DecodeOutcome: Equatable, CustomStringConvertible {
    case image(RGBAImage)
    case error(PNGError)

    init(_ body: () throws(PNGError) -> RGBAImage) {
        do {
            self = .image(try body())
        } catch {
            self = .error(error)
        }
    }

    var description: String {
        switch self {
        case .image(let image): "\(image.width) x \(image.height) image"
        case .error(let error): "error: \(error)"
        }
    }
}

/// The chunks of a PNG as (type, data), read independently of the code under test.
func chunks(_ bytes: [UInt8]) -> [(type: String, data: [UInt8])] {
    var out: [(String, [UInt8])] = []
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        guard offset + 12 + length <= bytes.count else { break }
        out.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self),
                    Array(bytes[offset + 8..<offset + 8 + length])))
        offset += 12 + length
    }
    return out
}

/// `bytes` with the chunk of `type` replaced by `data` (its CRC recomputed).
func replacingChunk(_ bytes: [UInt8], type: String, with data: [UInt8]) -> [UInt8] {
    HandPNG.signature + chunks(bytes).flatMap { $0.type == type ? HandPNG.chunk(type, data) : HandPNG.chunk($0.type, $0.data) }
}

/// `bytes` with `chunk` inserted before the chunk of type `before`.
func insertingChunk(_ bytes: [UInt8], _ chunk: [UInt8], before: String) -> [UInt8] {
    HandPNG.signature + chunks(bytes).flatMap { ($0.type == before ? chunk : []) + HandPNG.chunk($0.type, $0.data) }
}

/// Inflates a zlib stream with libdeflate into exactly `size` bytes, or nil. Tests use it
/// to look inside what the encoder wrote (libdeflate's decompressor is not under test).
func inflate(_ stream: [UInt8], size: Int) -> [UInt8]? {
    guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
    defer { libdeflate_free_decompressor(decompressor) }
    var out = [UInt8](repeating: 0, count: size)
    let result = out.withUnsafeMutableBytes { o in
        stream.withUnsafeBytes { libdeflate_zlib_decompress(decompressor, $0.baseAddress, $0.count, o.baseAddress, size, nil) }
    }
    return result == LIBDEFLATE_SUCCESS ? out : nil
}
