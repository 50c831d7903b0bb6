/// The perceptual part of a comparison, used only when a tolerance sets a threshold: a
/// pixel is counted or excused exactly as pixelmatch 6.0.0 counts it or not with the
/// same `threshold`, and `Tolerance.countAntiAliasing` is its `includeAA`.
///
/// The colour distance is the YIQ-based metric of Kotsarenko & Ramos, "Measuring
/// perceived color difference using YIQ NTSC transmission color space in mobile
/// applications" (2010), with pixelmatch's weights:
///
///     a pixel with alpha < 255 is blended over white:  c' = 255 + (c - 255) * (alpha / 255)
///     Y = 0.29889531 R' + 0.58662247 G' + 0.11448223 B'
///     I = 0.59597799 R' - 0.27417610 G' - 0.32180189 B'
///     Q = 0.21147017 R' - 0.52261711 G' + 0.31114694 B'
///     delta = 0.5053 dY^2 + 0.299 dI^2 + 0.1957 dQ^2,  dY = Y1 - Y2 and so on
///
/// `delta` is 35215 for black against white, its largest value, and a pixel is within
/// threshold `t` when `delta <= 35215 * t * t`. The arithmetic is done in the same
/// order as pixelmatch's, so a pixel on the boundary falls on the same side.
///
/// Anti-aliasing is pixelmatch's neighbourhood rule. A pixel is anti-aliasing in
/// image A (compared with image B) when, among its up to 8 neighbours in A:
/// at most two have the same brightness (Y) as it, counting the image's edge as one
/// such neighbour when the pixel is on it; at least one is darker and at least one is
/// brighter; and the darkest or the brightest of them "has many siblings" in both A and
/// B: more than two of *its* neighbours hold exactly its four bytes (the edge again
/// counting as one). The darkest and brightest are the first found with that
/// brightness, walking the neighbours column by column (x outer, y inner). A pixel is
/// excused as anti-aliasing when this holds in either image.
struct PerceptualJudge: ExcuseJudge {
    let expected: UnsafeRawPointer
    let actual: UnsafeRawPointer
    let width: Int
    let height: Int
    /// 35215 * threshold * threshold.
    let maxDelta: Double
    /// pixelmatch's `includeAA`: anti-aliased pixels are counted, not excused.
    let countsAntiAliasing: Bool

    static let largestDelta = 35215.0

    init(threshold: Double, countsAntiAliasing: Bool,
         expected: UnsafeRawPointer, actual: UnsafeRawPointer, width: Int, height: Int) {
        self.expected = expected
        self.actual = actual
        self.width = width
        self.height = height
        self.maxDelta = PerceptualJudge.largestDelta * threshold * threshold
        self.countsAntiAliasing = countsAntiAliasing
    }

    /// Why a pixel whose bytes differ (`e` expected, `a` actual) is excused, or nil
    /// when it counts.
    func excuse(x: Int, y: Int, expected e: UInt32, actual a: UInt32) -> Excuse? {
        if PerceptualJudge.yiqDelta(e, a) <= maxDelta { return .withinThreshold }
        if countsAntiAliasing { return nil }
        if isAntialiased(x: x, y: y, in: expected, comparedWith: actual)
            || isAntialiased(x: x, y: y, in: actual, comparedWith: expected) {
            return .antiAliasing
        }
        return nil
    }

    // MARK: Colour

    /// R, G, B as Doubles 0...255, blended over white when the pixel is not opaque.
    /// pixelmatch 6.0.0 blends over white (later versions blend translucent pixels over
    /// other backgrounds): a transparent pixel is white whatever its colour bytes.
    @inline(__always)
    static func blended(_ p: UInt32) -> (r: Double, g: Double, b: Double) {
        let r = Double(p & 0xFF), g = Double((p >> 8) & 0xFF), b = Double((p >> 16) & 0xFF)
        let alpha = p >> 24
        if alpha == 255 { return (r, g, b) }
        let a = Double(alpha) / 255
        return (255 + (r - 255) * a, 255 + (g - 255) * a, 255 + (b - 255) * a)
    }

    @inline(__always)
    static func luma(_ c: (r: Double, g: Double, b: Double)) -> Double {
        c.r * 0.29889531 + c.g * 0.58662247 + c.b * 0.11448223
    }

    @inline(__always)
    static func inPhase(_ c: (r: Double, g: Double, b: Double)) -> Double {
        c.r * 0.59597799 - c.g * 0.27417610 - c.b * 0.32180189
    }

    @inline(__always)
    static func quadrature(_ c: (r: Double, g: Double, b: Double)) -> Double {
        c.r * 0.21147017 - c.g * 0.52261711 + c.b * 0.31114694
    }

    /// The squared YIQ distance described above, 0...35215.
    static func yiqDelta(_ p: UInt32, _ q: UInt32) -> Double {
        if p == q { return 0 }
        let c1 = blended(p), c2 = blended(q)
        let dy = luma(c1) - luma(c2)
        let di = inPhase(c1) - inPhase(c2)
        let dq = quadrature(c1) - quadrature(c2)
        return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    }

    // MARK: Neighbourhoods

    @inline(__always)
    func pixel(_ image: UnsafeRawPointer, _ x: Int, _ y: Int) -> UInt32 {
        UInt32(littleEndian: image.loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self))
    }

    func isAntialiased(x: Int, y: Int, in image: UnsafeRawPointer, comparedWith other: UnsafeRawPointer) -> Bool {
        let x0 = max(x - 1, 0), x1 = min(x + 1, width - 1)
        let y0 = max(y - 1, 0), y1 = min(y + 1, height - 1)
        var sameBrightness = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        let centre = PerceptualJudge.luma(PerceptualJudge.blended(pixel(image, x, y)))
        // Brightness differences, centre minus neighbour: negative for a brighter one.
        var brightest = 0.0, darkest = 0.0
        var brightestAt = (x: 0, y: 0), darkestAt = (x: 0, y: 0)
        // Column by column, and only a strictly larger difference replaces the one kept,
        // so of two equally bright (or dark) neighbours the first in this order is the
        // one whose siblings are looked at, as in pixelmatch: the order decides the count.
        for nx in x0...x1 {
            for ny in y0...y1 where nx != x || ny != y {
                let delta = centre - PerceptualJudge.luma(PerceptualJudge.blended(pixel(image, nx, ny)))
                if delta == 0 {
                    sameBrightness += 1
                    if sameBrightness > 2 { return false }
                } else if delta < brightest {
                    brightest = delta
                    brightestAt = (nx, ny)
                } else if delta > darkest {
                    darkest = delta
                    darkestAt = (nx, ny)
                }
            }
        }
        guard brightest < 0, darkest > 0 else { return false }
        return (hasManySiblings(brightestAt.x, brightestAt.y, in: image)
                && hasManySiblings(brightestAt.x, brightestAt.y, in: other))
            || (hasManySiblings(darkestAt.x, darkestAt.y, in: image)
                && hasManySiblings(darkestAt.x, darkestAt.y, in: other))
    }

    /// More than two of the pixel's neighbours hold exactly its bytes (the edge counting
    /// as one). Byte for byte, as pixelmatch compares: two transparent pixels with
    /// different colour bytes are not siblings.
    func hasManySiblings(_ x: Int, _ y: Int, in image: UnsafeRawPointer) -> Bool {
        let x0 = max(x - 1, 0), x1 = min(x + 1, width - 1)
        let y0 = max(y - 1, 0), y1 = min(y + 1, height - 1)
        var same = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        let centre = pixel(image, x, y)
        for nx in x0...x1 {
            for ny in y0...y1 where nx != x || ny != y {
                if pixel(image, nx, ny) == centre {
                    same += 1
                    if same > 2 { return true }
                }
            }
        }
        return false
    }
}
