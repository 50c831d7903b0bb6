import PopoverDiff
import PopoverImage

typealias RGBA = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

/// A `width` x `height` image filled with one colour.
func solid(_ width: Int, _ height: Int, _ c: RGBA) -> RGBAImage {
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 4)
    for _ in 0..<(width * height) { pixels += [c.r, c.g, c.b, c.a] }
    return RGBAImage(width: width, height: height, pixels: pixels)
}

/// An image whose pixel (x, y) is given by `colour`.
func image(_ width: Int, _ height: Int, _ colour: (Int, Int) -> RGBA) -> RGBAImage {
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let c = colour(x, y)
            pixels += [c.r, c.g, c.b, c.a]
        }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
}

extension RGBAImage {
    /// A copy with pixel (x, y) replaced.
    func setting(_ x: Int, _ y: Int, _ c: RGBA) -> RGBAImage {
        var copy = self
        let i = (y * width + x) * 4
        copy.pixels[i] = c.r
        copy.pixels[i + 1] = c.g
        copy.pixels[i + 2] = c.b
        copy.pixels[i + 3] = c.a
        return copy
    }
}

/// A validated tolerance for tests (all values used here are valid).
func tolerance(_ channel: ClosedRange<Int>, _ pixels: ClosedRange<Int>, perceptual: Double? = nil) -> Tolerance {
    var t = Tolerance.exact
    t.maxChannelDelta = channel
    t.differentPixels = pixels
    t.perceptualThreshold = perceptual
    return t
}

func compare(_ expected: RGBAImage, _ actual: RGBAImage, _ t: Tolerance = .exact, map: Bool = false) -> ComparisonResult {
    ImageComparison.compare(expected: expected, actual: actual, tolerance: t, wantsDiffMap: map)
}

/// A hard vertical edge: black in columns < `edge`, white from `edge` on.
func hardEdge(_ width: Int, _ height: Int, edge: Int) -> RGBAImage {
    image(width, height) { x, _ in x < edge ? (0, 0, 0, 255) : (255, 255, 255, 255) }
}
