/// The perceptual part of a comparison, used only when a tolerance sets a threshold.
///
/// The colour distance is the YIQ-based metric of Kotsarenko & Ramos, "Measuring
/// perceived color difference using YIQ NTSC transmission color space in mobile
/// applications" (2010), with the weights pixelmatch uses, so thresholds mean the same
/// as pixelmatch's `threshold` option:
///
///     each channel blended over white:  c' = 255 + (c - 255) * alpha / 255
///     Y = 0.29889531 R' + 0.58662247 G' + 0.11448223 B'
///     I = 0.59597799 R' - 0.27417610 G' - 0.32180189 B'
///     Q = 0.21147017 R' - 0.52261711 G' + 0.31114694 B'
///     delta = 0.5053 dY^2 + 0.299 dI^2 + 0.1957 dQ^2
///
/// `delta` is 35215 for black against white, its largest value, and a pixel is within
/// threshold `t` when `delta <= 35215 * t^2`.
///
/// Anti-aliasing follows pixelmatch's neighbourhood rule. A pixel is anti-aliasing in
/// image A (compared with image B) when, among its up to 8 neighbours in A:
/// at most two (counting the image border as one) have the same brightness (Y) as it,
/// at least one is darker and at least one is brighter, and the darkest or the
/// brightest of them "has many siblings" in both A and B: more than two of *its*
/// neighbours (again counting the border as one) are identical to it. That is, the
/// pixel sits between two flat regions, as an edge pixel does. A pixel is excused as
/// anti-aliasing when this holds in either image.
struct PerceptualJudge: ExcuseJudge {
    let expected: UnsafeRawPointer
    let actual: UnsafeRawPointer
    let width: Int
    let height: Int
    /// 35215 * threshold^2.
    let maxDelta: Double

    static let largestDelta = 35215.0

    init(threshold: Double, expected: UnsafeRawPointer, actual: UnsafeRawPointer, width: Int, height: Int) {
        self.expected = expected
        self.actual = actual
        self.width = width
        self.height = height
        self.maxDelta = PerceptualJudge.largestDelta * threshold * threshold
    }

    /// Whether a pixel whose bytes differ (`e` expected, `a` actual) is excused.
    func excuses(x: Int, y: Int, expected e: UInt32, actual a: UInt32) -> Bool {
        if PerceptualJudge.yiqDelta(e, a) <= maxDelta { return true }
        return isAntialiased(x: x, y: y, in: expected, comparedWith: actual)
            || isAntialiased(x: x, y: y, in: actual, comparedWith: expected)
    }

    // MARK: Colour

    /// Channels blended over white, as Doubles 0...255.
    @inline(__always)
    static func overWhite(_ p: UInt32) -> (r: Double, g: Double, b: Double) {
        let alpha = Double(p >> 24) / 255
        return (255 + (Double(p & 0xFF) - 255) * alpha,
                255 + (Double((p >> 8) & 0xFF) - 255) * alpha,
                255 + (Double((p >> 16) & 0xFF) - 255) * alpha)
    }

    @inline(__always)
    static func brightness(_ p: UInt32) -> Double {
        let c = overWhite(p)
        return c.r * 0.29889531 + c.g * 0.58662247 + c.b * 0.11448223
    }

    /// The squared YIQ distance described above, 0...35215.
    static func yiqDelta(_ p: UInt32, _ q: UInt32) -> Double {
        let c1 = overWhite(p), c2 = overWhite(q)
        let dr = c1.r - c2.r, dg = c1.g - c2.g, db = c1.b - c2.b
        let dy = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let di = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let dq = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    }

    // MARK: Neighbourhoods

    @inline(__always)
    func pixel(_ image: UnsafeRawPointer, _ x: Int, _ y: Int) -> UInt32 {
        UInt32(littleEndian: image.loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self))
    }

    /// Transparent pixels are all the same pixel, whatever their colour channels.
    @inline(__always)
    static func canonical(_ p: UInt32) -> UInt32 { p >> 24 == 0 ? 0 : p }

    func isAntialiased(x: Int, y: Int, in image: UnsafeRawPointer, comparedWith other: UnsafeRawPointer) -> Bool {
        let x0 = max(x - 1, 0), x1 = min(x + 1, width - 1)
        let y0 = max(y - 1, 0), y1 = min(y + 1, height - 1)
        var sameBrightness = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        let centre = PerceptualJudge.brightness(pixel(image, x, y))
        var darkest = 0.0, brightest = 0.0
        var darkestAt = (x: 0, y: 0), brightestAt = (x: 0, y: 0)
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                let delta = PerceptualJudge.brightness(pixel(image, nx, ny)) - centre
                if delta == 0 {
                    sameBrightness += 1
                    if sameBrightness > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestAt = (nx, ny)
                } else if delta > brightest {
                    brightest = delta
                    brightestAt = (nx, ny)
                }
            }
        }
        guard darkest < 0, brightest > 0 else { return false }
        return (hasManySiblings(darkestAt.x, darkestAt.y, in: image) && hasManySiblings(darkestAt.x, darkestAt.y, in: other))
            || (hasManySiblings(brightestAt.x, brightestAt.y, in: image) && hasManySiblings(brightestAt.x, brightestAt.y, in: other))
    }

    /// More than two of the pixel's neighbours (the border counting as one) are identical to it.
    func hasManySiblings(_ x: Int, _ y: Int, in image: UnsafeRawPointer) -> Bool {
        let x0 = max(x - 1, 0), x1 = min(x + 1, width - 1)
        let y0 = max(y - 1, 0), y1 = min(y + 1, height - 1)
        var same = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        let centre = PerceptualJudge.canonical(pixel(image, x, y))
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                if PerceptualJudge.canonical(pixel(image, nx, ny)) == centre {
                    same += 1
                    if same > 2 { return true }
                }
            }
        }
        return false
    }
}
