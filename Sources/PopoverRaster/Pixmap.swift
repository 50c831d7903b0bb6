import PopoverImage

/// A bitmap: RGBA, 8 bits a channel, colour premultiplied by alpha, rows top to bottom.
///
/// `scale` says how many pixels make a point, as a screen's scale factor does; drawing
/// APIs take points, and a `Canvas` over the pixmap starts with that scale in force.
public struct Pixmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let scale: Double
    /// `width * height * 4` bytes, premultiplied.
    public var data: [UInt8]

    /// A transparent bitmap of `width` x `height` pixels.
    public init(width: Int, height: Int, scale: Double = 1) {
        precondition(width >= 0 && height >= 0, "negative bitmap size \(width) x \(height)")
        precondition(scale > 0 && scale.isFinite, "bitmap scale must be positive, got \(scale)")
        self.width = width
        self.height = height
        self.scale = scale
        data = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// A transparent bitmap for `size` points at `scale`, rounding each side up to whole
    /// pixels (as a graphics context does for a fractional size).
    public init(pointWidth: Double, pointHeight: Double, scale: Double) {
        self.init(width: Int((pointWidth * scale - 1e-9).rounded(.up)),
                  height: Int((pointHeight * scale - 1e-9).rounded(.up)), scale: scale)
    }

    /// Size in points.
    public var pointWidth: Double { Double(width) / scale }
    public var pointHeight: Double { Double(height) / scale }

    public subscript(x: Int, y: Int) -> PremultipliedPixel {
        get {
            let i = (y * width + x) * 4
            return PremultipliedPixel(r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            data[i] = newValue.r
            data[i + 1] = newValue.g
            data[i + 2] = newValue.b
            data[i + 3] = newValue.a
        }
    }

    init(storage: [UInt8], width: Int, height: Int, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
        data = storage
    }

    /// Fills every pixel with `pixel`.
    public mutating func fill(_ pixel: PremultipliedPixel) {
        let word = UInt32(pixel.r) | UInt32(pixel.g) << 8 | UInt32(pixel.b) << 16 | UInt32(pixel.a) << 24
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for i in words.indices { words[i] = word.littleEndian }
        }
    }
}

// MARK: - Conversion to and from the straight pixels that files hold

extension Pixmap {
    /// Converts straight RGBA (as a PNG holds it) to premultiplied pixels, rounding each
    /// channel to nearest.
    public init(_ image: RGBAImage, scale: Double = 1) {
        var storage = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { src in
            storage.withUnsafeMutableBufferPointer { dst in
                var i = 0
                while i < src.count {
                    let a = Int(src[i + 3])
                    if a == 255 {
                        dst[i] = src[i]; dst[i + 1] = src[i + 1]; dst[i + 2] = src[i + 2]; dst[i + 3] = 255
                    } else if a != 0 {
                        dst[i] = UInt8(div255(Int(src[i]) * a))
                        dst[i + 1] = UInt8(div255(Int(src[i + 1]) * a))
                        dst[i + 2] = UInt8(div255(Int(src[i + 2]) * a))
                        dst[i + 3] = UInt8(a)
                    }
                    i += 4
                }
            }
        }
        self.init(storage: storage, width: image.width, height: image.height, scale: scale)
    }

    /// The straight RGBA image for writing to a file: each colour channel divided by
    /// alpha and rounded to nearest; fully transparent pixels become (0, 0, 0, 0).
    public var straightImage: RGBAImage {
        guard !data.isEmpty else { return RGBAImage(width: width, height: height) }
        var out = [UInt8](repeating: 0, count: data.count)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                Unpremultiply.table.withUnsafeBufferPointer { table in
                    let words = UnsafeRawPointer(src.baseAddress!), outWords = UnsafeMutableRawPointer(dst.baseAddress!)
                    var i = 0
                    while i < src.count {
                        // Most pixels are clear or opaque: move them as whole words.
                        let word = words.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                        let a = Int(src[i + 3])
                        if word == 0 {
                            i += 4
                            continue
                        }
                        if a == 255 {
                            outWords.storeBytes(of: word, toByteOffset: i, as: UInt32.self)
                        } else if a != 0 {
                            let row = a << 8
                            dst[i] = table[row | Int(src[i])]
                            dst[i + 1] = table[row | Int(src[i + 1])]
                            dst[i + 2] = table[row | Int(src[i + 2])]
                            dst[i + 3] = UInt8(a)
                        }
                        i += 4
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}

/// min(255, round(c * 255 / a)) for every alpha a and premultiplied channel c, looked up
/// rather than divided: unpremultiplying every rendered image sits on the check's hot path.
enum Unpremultiply {
    static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 {
                t[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a))
            }
        }
        return t
    }()
}
