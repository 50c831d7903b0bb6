import PopoverImage
import PopoverRaster

/// Three pictures of a failing case side by side, each under a small label: expected |
/// difference | actual. One file a pull request's viewer shows whole.
///
/// The layout rule (every number in pixels):
/// - A pane is W x H, the largest width and height of the three pictures.
/// - Each picture is scaled by a whole step, the same for all three: up by n, the largest
///   of 1...`largestUpscale` for which the triptych fits `longestSide` both ways; when even
///   n = 1 does not fit, down by d, the smallest d >= 2 that fits, a pane then being
///   ceil(W / d) x ceil(H / d).
/// - A column is the scaled pane's width, at least `narrowestColumn` (room for a label).
///   Columns sit `margin` from the left and right edges and `gap` apart:
///   width = 2 * margin + 3 * column + 2 * gap.
/// - Labels are drawn in `BitmapFont` at `labelScale`, their top at `margin`, their left at
///   their column's; the pictures' top-left corners at (column's left, `paneTop`):
///   height = paneTop + scaled H + margin.
///
/// Whole steps, so that each picture pixel lands on whole triptych pixels: no resampling
/// blur over the very pixels a reviewer is looking for. Scaling up repeats each pixel n x n
/// times; scaling down averages each d x d block (the part of it inside the picture),
/// alpha-weighted. Pictures are copied, not composited:
/// at n >= 1 a pane's pixels are the picture's own, transparency included; the rest of the
/// triptych is opaque `background`.
public enum Triptych {
    /// What a pull request's viewer shows without shrinking, on a common screen.
    public static let longestSide = 1600
    /// Enough to see a 1x case's single pixels; more only makes a small case fill the screen.
    public static let largestUpscale = 4
    public static let margin = 8
    public static let gap = 8
    public static let labelScale = 2
    /// margin, a label's height (7 font pixels at labelScale), 6 pixels of air.
    public static let paneTop = 8 + 14 + 6
    /// Twelve characters of label.
    public static let narrowestColumn = 144
    public static let background = PremultipliedPixel(r: 255, g: 255, b: 255, a: 255)
    public static let ink = Color(red: 36.0 / 255, green: 41.0 / 255, blue: 47.0 / 255)

    /// How the pictures are scaled.
    public enum Scaling: Sendable, Equatable {
        /// Each pixel becomes n x n (n = 1: as it is).
        case up(Int)
        /// Each d x d block becomes one pixel.
        case down(Int)

        /// The scaled length of `length` pixels.
        public func apply(_ length: Int) -> Int {
            switch self {
            case .up(let n): length * n
            case .down(let d): (length + d - 1) / d
            }
        }
    }

    /// Where everything goes, for pictures of at most `width` x `height`.
    public struct Layout: Sendable, Equatable {
        public var scaling: Scaling
        public var column: Int
        /// The triptych's size.
        public var width: Int
        public var height: Int
        /// The left edge of each column, expected, difference, actual.
        public var columnX: [Int]

        public init(width: Int, height: Int) {
            func fits(_ s: Scaling) -> Bool {
                Layout(scaling: s, width: width, height: height).fitsLongestSide
            }
            var scaling = Scaling.up(1)
            if fits(.up(1)) {
                for n in stride(from: largestUpscale, through: 1, by: -1) where fits(.up(n)) {
                    scaling = .up(n)
                    break
                }
            } else {
                var d = 2
                while !fits(.down(d)) { d += 1 }
                scaling = .down(d)
            }
            self.init(scaling: scaling, width: width, height: height)
        }

        private init(scaling: Scaling, width pictureWidth: Int, height pictureHeight: Int) {
            self.scaling = scaling
            let column = max(scaling.apply(pictureWidth), Triptych.narrowestColumn)
            self.column = column
            width = 2 * margin + 3 * column + 2 * gap
            height = paneTop + scaling.apply(pictureHeight) + margin
            columnX = (0..<3).map { margin + $0 * (column + gap) }
        }

        var fitsLongestSide: Bool { width <= longestSide && height <= longestSide }
    }

    /// The triptych of a case's expected picture, its difference map (nil when there is
    /// none, as when the sizes differ: its pane stays blank and its label says so) and
    /// its actual picture.
    public static func render(expected: RGBAImage, difference: RGBAImage?, actual: RGBAImage) -> RGBAImage {
        let pictures = [expected, difference, actual]
        let layout = Layout(width: pictures.compactMap { $0?.width }.max() ?? 0,
                            height: pictures.compactMap { $0?.height }.max() ?? 0)
        // The labels are drawn on a band as tall as the space above the pictures; the rest
        // is background and pictures, written directly.
        var band = Pixmap(width: layout.width, height: paneTop)
        band.fill(background)
        var canvas = Canvas(band)
        var text = Path()
        for (label, x) in zip(labels(hasDifference: difference != nil), layout.columnX) {
            BitmapFont.add(label, to: &text, x: x, y: margin, scale: labelScale)
        }
        canvas.fill(text, with: .solid(ink))
        // The background: one row of it, copied down (the panes are pasted over it).
        let rowBytes = layout.width * 4
        var pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * layout.height) { out, initialized in
            if !out.isEmpty {
                for i in 0..<layout.width {
                    out[i * 4] = background.r; out[i * 4 + 1] = background.g
                    out[i * 4 + 2] = background.b; out[i * 4 + 3] = background.a
                }
                for row in 1..<layout.height {
                    (out.baseAddress! + row * rowBytes).update(from: out.baseAddress!, count: rowBytes)
                }
            }
            initialized = out.count
        }
        let top = canvas.pixmap.straightImage.pixels
        pixels.replaceSubrange(0..<top.count, with: top)
        var out = RGBAImage(width: layout.width, height: layout.height, pixels: pixels)
        for (picture, x) in zip(pictures, layout.columnX) {
            guard let picture else { continue }
            paste(picture, scaled: layout.scaling, into: &out, x: x, y: paneTop)
        }
        return out
    }

    /// The labels over the three panes.
    public static func labels(hasDifference: Bool) -> [String] {
        ["expected", hasDifference ? "difference" : "sizes differ", "actual"]
    }

    /// Copies `picture`, scaled, with its top-left corner at (x, y) of `out`.
    ///
    /// Pixels move as 32-bit words and rows as whole copies, and a block's sums are
    /// gathered row by row into one accumulator per column: the triptychs of a run where
    /// everything fails are as many pixels as all its other images together.
    static func paste(_ picture: RGBAImage, scaled scaling: Scaling, into out: inout RGBAImage, x: Int, y: Int) {
        let w = scaling.apply(picture.width), h = scaling.apply(picture.height)
        guard w > 0, h > 0 else { return }
        let outWidth = out.width, sourceWidth = picture.width, sourceHeight = picture.height
        out.pixels.withUnsafeMutableBufferPointer { dstBytes in
            dstBytes.withMemoryRebound(to: UInt32.self) { dst in
                picture.pixels.withUnsafeBufferPointer { srcBytes in
                    srcBytes.withMemoryRebound(to: UInt32.self) { src in
                        switch scaling {
                        case .up(let n):
                            pasteUp(src, width: sourceWidth, height: sourceHeight, by: n,
                                    into: dst, outWidth: outWidth, x: x, y: y)
                        case .down(let d):
                            pasteDown(src, width: sourceWidth, height: sourceHeight, by: d,
                                      into: dst, outWidth: outWidth, x: x, y: y)
                        }
                    }
                }
            }
        }
    }

    /// Each source row scaled once into its first output row, which is then copied n - 1
    /// times.
    private static func pasteUp(_ src: UnsafeBufferPointer<UInt32>, width: Int, height: Int, by n: Int,
                                into dst: UnsafeMutableBufferPointer<UInt32>, outWidth: Int, x: Int, y: Int) {
        let source = src.baseAddress!, target = dst.baseAddress!
        let scaledWidth = width * n
        for sy in 0..<height {
            let first = target + (y + sy * n) * outWidth + x
            let row = source + sy * width
            if n == 1 {
                first.update(from: row, count: width)
                continue
            }
            var o = first
            for sx in 0..<width {
                let pixel = row[sx]
                for k in 0..<n { o[k] = pixel }
                o += n
            }
            for k in 1..<n { (first + k * outWidth).update(from: first, count: scaledWidth) }
        }
    }

    /// Each output pixel from its block: the block's pixel when all its pixels are one
    /// (most blocks of these pictures: clear surroundings, flat fills, the heatmap's
    /// greys), else the alpha-weighted mean that `Mean` rounds.
    private static func pasteDown(_ src: UnsafeBufferPointer<UInt32>, width: Int, height: Int, by d: Int,
                                  into dst: UnsafeMutableBufferPointer<UInt32>, outWidth: Int, x: Int, y: Int) {
        let w = (width + d - 1) / d, h = (height + d - 1) / d
        let source = src.baseAddress!
        for oy in 0..<h {
            let target = dst.baseAddress! + (y + oy) * outWidth + x
            let top = oy * d, bottom = min(top + d, height)
            for ox in 0..<w {
                let left = ox * d, right = min(left + d, width)
                let first = source[top * width + left]
                var uniform = true
                for sy in top..<bottom {
                    let row = source + sy * width
                    for sx in left..<right where row[sx] != first { uniform = false }
                }
                if uniform {
                    target[ox] = UInt32(littleEndian: first) >> 24 == 0 ? 0 : first
                    continue
                }
                var r = 0, g = 0, b = 0, alpha = 0
                // Wrapping arithmetic: a block's sums stay far below Int's range.
                for sy in top..<bottom {
                    let row = source + sy * width
                    for sx in left..<right {
                        let p = UInt32(littleEndian: row[sx])
                        let a = Int(p >> 24)
                        r &+= Int(p & 0xFF) &* a
                        g &+= Int((p >> 8) & 0xFF) &* a
                        b &+= Int((p >> 16) & 0xFF) &* a
                        alpha &+= a
                    }
                }
                guard alpha > 0 else { target[ox] = 0; continue }
                let byAlpha = Mean(of: alpha), count = (bottom - top) * (right - left)
                let mean = UInt32(byAlpha(r)) | UInt32(byAlpha(g)) << 8 | UInt32(byAlpha(b)) << 16
                    | UInt32(Mean(of: count)(alpha)) << 24
                target[ox] = UInt32(littleEndian: mean)
            }
        }
    }

    /// A mean rounded to nearest, (2 sum + n) / (2 n) in whole numbers: a block's alpha is
    /// the mean alpha, each colour the mean of colour x alpha over the summed alpha (clear
    /// pixels carry no colour).
    ///
    /// By a multiplication with the divisor's reciprocal, corrected by one either way so
    /// the result is the exact integer quotient: a downscaled triptych divides four times
    /// per pixel, and integer division was most of its cost.
    public struct Mean: Sendable {
        let twice: Int
        let reciprocal: Double

        public init(of n: Int) {
            twice = 2 * n
            reciprocal = 1 / Double(twice)
        }

        @inline(__always)
        public func callAsFunction(_ sum: Int) -> UInt8 {
            let numerator = 2 &* sum &+ twice / 2
            var q = Int(Double(numerator) * reciprocal)
            if q &* twice > numerator { q &-= 1 } else if (q &+ 1) &* twice <= numerator { q &+= 1 }
            return UInt8(truncatingIfNeeded: q)
        }
    }
}
