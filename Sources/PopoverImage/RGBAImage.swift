/// An image as PNG files hold it: 8 bits a channel, red, green, blue, alpha in that
/// order, colour channels straight (not multiplied by alpha), rows top to bottom with no
/// padding between them.
///
/// This is the currency between layers that never draw: PNG files, the comparison and
/// the harness. The raster core draws into its own premultiplied bitmap and converts at
/// the edge.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// Wraps `pixels`, which must hold exactly `width * height * 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size \(width) x \(height)")
        precondition(pixels.count == width * height * 4,
                     "\(pixels.count) bytes do not make a \(width) x \(height) RGBA image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    public var pixelCount: Int { width * height }

    /// XXH64 of the pixels, seeded with `seed` mixed with the size (so equal bytes of
    /// another shape differ). Seed 0 is the digest records carry and the digest cache keeps.
    public func pixelDigest(seed: UInt64 = 0) -> UInt64 {
        XXH64.digest(pixels, seed: seed ^ (UInt64(width) << 32 | UInt64(height)))
    }

    /// The four channels of the pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
