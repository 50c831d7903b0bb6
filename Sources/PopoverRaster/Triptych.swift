import PopoverImage

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
        let ground = [background.r, background.g, background.b, background.a]
        var pixels = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
        // The background: one row of it, copied down.
        pixels.withUnsafeMutableBufferPointer { out in
            guard !out.isEmpty else { return }
            for i in 0..<layout.width {
                out[i * 4] = ground[0]; out[i * 4 + 1] = ground[1]; out[i * 4 + 2] = ground[2]; out[i * 4 + 3] = ground[3]
            }
            let rowBytes = layout.width * 4
            for row in 1..<max(layout.height, 1) {
                (out.baseAddress! + row * rowBytes).update(from: out.baseAddress!, count: rowBytes)
            }
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
    static func paste(_ picture: RGBAImage, scaled scaling: Scaling, into out: inout RGBAImage, x: Int, y: Int) {
        let w = scaling.apply(picture.width), h = scaling.apply(picture.height)
        guard w > 0, h > 0 else { return }
        let outWidth = out.width
        var row = [UInt8](repeating: 0, count: w * 4)
        switch scaling {
        case .up(let n):
            // Each source row scaled once into its first output row, which is then copied
            // n - 1 times.
            let rowBytes = w * 4
            out.pixels.withUnsafeMutableBufferPointer { dst in
                picture.pixels.withUnsafeBufferPointer { src in
                    for sy in 0..<picture.height {
                        let first = ((y + sy * n) * outWidth + x) * 4
                        var o = first, i = sy * picture.width * 4
                        for _ in 0..<picture.width {
                            for _ in 0..<n {
                                dst[o] = src[i]; dst[o + 1] = src[i + 1]; dst[o + 2] = src[i + 2]; dst[o + 3] = src[i + 3]
                                o += 4
                            }
                            i += 4
                        }
                        var k = 1
                        while k < n {
                            (dst.baseAddress! + first + k * outWidth * 4).update(from: dst.baseAddress! + first, count: rowBytes)
                            k += 1
                        }
                    }
                }
            }
        case .down(let d):
            picture.pixels.withUnsafeBufferPointer { source in
                for oy in 0..<h {
                    for ox in 0..<w {
                        let (r, g, b, a) = blockAverage(source, width: picture.width, height: picture.height,
                                                        x: ox * d, y: oy * d, size: d)
                        row[ox * 4] = r; row[ox * 4 + 1] = g; row[ox * 4 + 2] = b; row[ox * 4 + 3] = a
                    }
                    let o = ((y + oy) * outWidth + x) * 4
                    out.pixels.replaceSubrange(o..<(o + row.count), with: row)
                }
            }
        }
    }

    /// The alpha-weighted mean of the block's pixels inside the picture: alpha is the
    /// mean alpha, each colour the mean of colour x alpha over the summed alpha, each
    /// rounded to nearest.
    static func blockAverage(_ p: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                             x: Int, y: Int, size: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        var sums = (0, 0, 0), alpha = 0, count = 0
        for py in y..<min(y + size, height) {
            var i = (py * width + x) * 4
            for _ in x..<min(x + size, width) {
                let a = Int(p[i + 3])
                sums.0 += Int(p[i]) * a
                sums.1 += Int(p[i + 1]) * a
                sums.2 += Int(p[i + 2]) * a
                alpha += a
                count += 1
                i += 4
            }
        }
        guard alpha > 0 else { return (0, 0, 0, 0) }
        func mean(_ sum: Int, _ of: Int) -> UInt8 { UInt8((2 * sum + of) / (2 * of)) }
        return (mean(sums.0, alpha), mean(sums.1, alpha), mean(sums.2, alpha), mean(alpha, count))
    }
}
