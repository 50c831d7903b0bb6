/// The pixels a comparison ignores: one flag per pixel, rows top to bottom like
/// ``PopoverImage/RGBAImage``. A pixel that differs inside the mask is excused (counted
/// in `excusedIgnored`), not counted as different; see ``ImageComparison``.
///
/// One byte per pixel rather than one bit: the comparison reads the flag of every
/// differing pixel, and a byte needs no shifting; a mask is the size of one plane of a
/// ``DiffMap``.
public struct PixelMask: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// 1 where ignored, 0 where compared; `width * height` entries.
    let flags: [UInt8]

    /// A mask whose pixel (x, y) is ignored when `isIgnored(x, y)` is true.
    public init(width: Int, height: Int, ignoring isIgnored: (_ x: Int, _ y: Int) -> Bool) {
        precondition(width >= 0 && height >= 0, "negative mask size \(width) x \(height)")
        var flags = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where isIgnored(x, y) { flags[y * width + x] = 1 }
        }
        self.width = width
        self.height = height
        self.flags = flags
    }

    /// A mask from one byte per pixel, rows top to bottom: any byte but 0 means ignored.
    /// `bytes` must hold `width * height` entries.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative mask size \(width) x \(height)")
        precondition(bytes.count == width * height,
                     "a \(width) x \(height) mask needs \(width * height) bytes, got \(bytes.count)")
        self.width = width
        self.height = height
        self.flags = bytes.map { $0 == 0 ? 0 : 1 }
    }

    /// Whether the pixel at column `x`, row `y` is ignored.
    public subscript(x: Int, y: Int) -> Bool {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside \(width) x \(height)")
        return flags[y * width + x] != 0
    }

    /// How many pixels are ignored.
    public var ignoredCount: Int { flags.reduce(0) { $0 + Int($1) } }
}

/// An ignore mask whose size is not the size of the images it was given with.
public struct PixelMaskSizeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let maskWidth: Int
    public let maskHeight: Int
    public let imageWidth: Int
    public let imageHeight: Int

    /// "the ignore mask is 4 x 3 pixels but the images are 5 x 3".
    public var description: String {
        "the ignore mask is \(maskWidth) x \(maskHeight) pixels but the images are \(imageWidth) x \(imageHeight)"
    }
}
