import PopoverFiles
import PopoverImage

/// PNG files built byte by byte: chunks with their CRCs, zlib "stored" blocks (no
/// compression needed to make a valid file), Adam7 passes. Used to make goldens in forms
/// the harness itself never writes, and headers no encoder would write.
public enum HandPNG {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// How pixels are stored.
    public enum Form: String, CaseIterable, CustomStringConvertible, Sendable {
        case rgba8, rgba16, rgb8, grey8, greyAlpha8, grey16, palette8
        public var description: String { rawValue }

        public var colourType: PNGColourType {
            switch self {
            case .rgba8, .rgba16: .rgba
            case .rgb8: .rgb
            case .grey8, .grey16: .grey
            case .greyAlpha8: .greyAlpha
            case .palette8: .palette
            }
        }

        public var bitDepth: Int { self == .rgba16 || self == .grey16 ? 16 : 8 }
    }

    /// `image` stored as `form`, or nil when that form cannot hold it without loss (a
    /// colour pixel in a grey form, a translucent pixel in an opaque form, more than 256
    /// colours in a palette).
    public static func encode(_ image: RGBAImage, as form: Form, interlaced: Bool = false) -> [UInt8]? {
        let pixels = (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } }
        let opaque = pixels.allSatisfy { $0.a == 255 }
        let grey = pixels.allSatisfy { $0.r == $0.g && $0.g == $0.b }
        var palette: [UInt32: UInt8] = [:]
        var paletteOrder: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)] = []
        switch form {
        case .rgb8 where !opaque, .grey8 where !opaque || !grey, .grey16 where !opaque || !grey,
             .greyAlpha8 where !grey:
            return nil
        case .palette8:
            for p in pixels {
                let key = UInt32(p.r) << 24 | UInt32(p.g) << 16 | UInt32(p.b) << 8 | UInt32(p.a)
                if palette[key] == nil {
                    guard paletteOrder.count < 256 else { return nil }
                    palette[key] = UInt8(paletteOrder.count)
                    paletteOrder.append(p)
                }
            }
        default:
            break
        }

        func sample(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> [UInt8] {
            switch form {
            case .rgba8: [p.r, p.g, p.b, p.a]
            case .rgba16: [p.r, p.r, p.g, p.g, p.b, p.b, p.a, p.a]  // v * 257 = v in both bytes
            case .rgb8: [p.r, p.g, p.b]
            case .grey8: [p.r]
            case .grey16: [p.r, p.r]
            case .greyAlpha8: [p.r, p.a]
            case .palette8:
                [palette[UInt32(p.r) << 24 | UInt32(p.g) << 16 | UInt32(p.b) << 8 | UInt32(p.a)]!]
            }
        }

        // Scanlines with filter 0, pass by pass when interlaced (empty passes are left out).
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: image.width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: image.height, by: pass.dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                raw.append(0)
                for x in xs { raw += sample(image[x, y]) }
            }
        }

        var chunks = [chunk("IHDR", ihdr(width: image.width, height: image.height, bitDepth: form.bitDepth,
                                         colourType: form.colourType.rawValue, interlaced: interlaced))]
        if form == .palette8 {
            chunks.append(chunk("PLTE", paletteOrder.flatMap { [$0.r, $0.g, $0.b] }))
            var alphas = paletteOrder.map(\.a)
            while alphas.last == 255 { alphas.removeLast() }
            if !alphas.isEmpty { chunks.append(chunk("tRNS", alphas)) }
        }
        chunks.append(chunk("IDAT", zlibStored(raw)))
        chunks.append(chunk("IEND", []))
        return signature + chunks.flatMap { $0 }
    }

    /// A file whose IHDR claims `width` x `height` (RGBA, 8-bit) over a little image data.
    public static func claiming(width: Int, height: Int) -> [UInt8] {
        signature + chunk("IHDR", ihdr(width: width, height: height, bitDepth: 8, colourType: 6, interlaced: false))
            + chunk("IDAT", zlibStored([0, 0, 0, 0, 0])) + chunk("IEND", [])
    }

    public static func ihdr(width: Int, height: Int, bitDepth: Int, colourType: Int, interlaced: Bool) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height))
            + [UInt8(bitDepth), UInt8(colourType), 0, 0, interlaced ? 1 : 0]
    }

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The offset of the data of the first chunk of `type`.
    public static func chunkData(_ bytes: [UInt8], type: String) -> Range<Int>? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
                return offset + 8..<offset + 8 + length
            }
            offset += 12 + length
        }
        return nil
    }
}


/// What a PNG's IHDR says, read straight from the bytes: how tests see the form a file
/// was written in (the tool itself only ever decodes to RGBA).
public struct PNGHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Bits per sample (per palette index for `.palette`): 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    public var colourType: PNGColourType
    /// Adam7 interlacing.
    public var interlaced: Bool

    public init(width: Int, height: Int, bitDepth: Int, colourType: PNGColourType, interlaced: Bool) {
        (self.width, self.height, self.bitDepth, self.colourType, self.interlaced) = (width, height, bitDepth, colourType, interlaced)
    }

    /// The IHDR of `bytes`, which must be the first chunk after the signature; nil when it
    /// is not there or names an unknown colour type. Nothing else is checked.
    public init?(_ bytes: [UInt8]) {
        guard let data = HandPNG.chunkData(bytes, type: "IHDR"), data.lowerBound == 16, data.count == 13,
              data.upperBound <= bytes.count, let type = PNGColourType(rawValue: Int(bytes[25])) else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        self.init(width: number(16), height: number(20), bitDepth: Int(bytes[24]), colourType: type, interlaced: bytes[28] == 1)
    }
}

/// PNG colour types, with their numbers in the file.
public enum PNGColourType: Int, Sendable, CaseIterable {
    case grey = 0
    case rgb = 2
    case palette = 3
    case greyAlpha = 4
    case rgba = 6
}
