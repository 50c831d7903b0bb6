import Foundation

/// A drop shadow: the shape's alpha, blurred, in one colour, moved by an offset.
///
/// Radius to Gaussian: Core Animation does not document how `shadowRadius` maps to a
/// blur. Public measurements match a CSS blur of twice the radius, and CSS defines its
/// Gaussian's standard deviation as half the blur, so this project takes
/// sigma = radius (in points; times the scale factor in pixels).
public struct Shadow: Sendable, Hashable {
    public var color: Color
    public var opacity: Double
    /// Blur radius in points.
    public var radius: Double
    /// Offset in points of the canvas's base space (unaffected by the current transform,
    /// as CoreGraphics' shadow offsets are).
    public var offsetX: Double
    public var offsetY: Double

    public init(color: Color = .black, opacity: Double, radius: Double, offsetX: Double = 0, offsetY: Double = 0) {
        self.color = color
        self.opacity = opacity
        self.radius = radius
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// The Gaussian's standard deviation for a radius, both in the same unit.
    public static func sigma(forRadius radius: Double) -> Double { radius }

    /// How far beyond the shape the shadow can reach with any visible (8-bit non-zero)
    /// alpha, in points, offset not included: the three box passes reach 3 * (w - 1) / 2
    /// pixels, w the widest box.
    public func reach(scale: Double) -> Double {
        let sizes = BoxBlur.boxSizes(sigma: Self.sigma(forRadius: radius) * scale)
        return Double(sizes.reduce(0) { $0 + ($1 - 1) / 2 }) / scale
    }
}

/// A Gaussian blur approximated by three successive box blurs, whose widths are chosen
/// so their combined variance matches sigma^2 (after W. Jarosz and P. Kovesi). Each pass
/// costs the same whatever sigma is. The error against a true Gaussian is measured in
/// the tests and stated in the README.
public enum BoxBlur {
    public static let passes = 3

    /// Odd box widths: m boxes of width wl, the rest of width wl + 2.
    public static func boxSizes(sigma: Double) -> [Int] {
        guard sigma > 0, sigma.isFinite else { return [] }
        let n = Double(passes)
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var wl = Int(ideal.rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(1, wl)
        let wu = wl + 2
        let w = Double(wl)
        let variance12 = 12 * sigma * sigma
        let numerator: Double = variance12 - n * w * w - 4 * n * w - 3 * n
        let m = Int((numerator / (-4 * w - 4)).rounded())
        return (0..<passes).map { $0 < m ? wl : wu }
    }

    /// Blurs `values` (a `width` x `height` grid, zero outside it) in place: every pass
    /// along rows, then along columns. The caller pads the grid so nothing spills out.
    public static func blur(_ values: inout [Float], width: Int, height: Int, sigma: Double) {
        let sizes = boxSizes(sigma: sigma)
        guard !sizes.isEmpty, width > 0, height > 0 else { return }
        var line = [Float](repeating: 0, count: max(width, height))
        var out = [Float](repeating: 0, count: max(width, height))
        for row in 0..<height {
            for x in 0..<width { line[x] = values[row * width + x] }
            for size in sizes { boxPass(&line, &out, count: width, size: size) }
            for x in 0..<width { values[row * width + x] = line[x] }
        }
        for col in 0..<width {
            for y in 0..<height { line[y] = values[y * width + col] }
            for size in sizes { boxPass(&line, &out, count: height, size: size) }
            for y in 0..<height { values[y * width + col] = line[y] }
        }
    }

    /// Blurs a one-dimensional profile (zero outside it) with the same passes.
    public static func blur(profile: [Float], sigma: Double) -> [Float] {
        var line = profile, out = profile
        for size in boxSizes(sigma: sigma) { boxPass(&line, &out, count: line.count, size: size) }
        return line
    }

    /// One centred moving average of odd width `size` over the first `count` values,
    /// as a running sum (in Double, so long rows do not drift).
    static func boxPass(_ line: inout [Float], _ scratch: inout [Float], count: Int, size: Int) {
        let r = size / 2
        let scale = 1 / Double(size)
        var sum = 0.0
        for i in 0..<min(r, count) { sum += Double(line[i]) }
        for i in 0..<count {
            let entering = i + r, leaving = i - r - 1
            if entering < count { sum += Double(line[entering]) }
            if leaving >= 0 { sum -= Double(line[leaving]) }
            scratch[i] = Float(max(0, sum * scale))
        }
        for i in 0..<count { line[i] = scratch[i] }
    }
}

extension Canvas {
    /// Draws the shadow that `path` would cast (not the shape itself), under the clip and
    /// blend mode in force. An axis-aligned rectangle takes a faster route with the same
    /// result: its coverage is a product of a row profile and a column profile, and so
    /// is its blur.
    public mutating func drawShadow(of path: Path, _ shadow: Shadow) {
        guard shadow.opacity > 0, shadow.color.alpha > 0 else { return }
        composite(coverage(ofShadowOf: path, shadow), paint: .solid(shadow.color.withOpacity(shadow.opacity)))
    }

    /// Coverage of the shadow `path` casts, before its colour, the clip and the alpha: the
    /// shape moved by the shadow's offset and blurred.
    public func coverage(ofShadowOf path: Path, _ shadow: Shadow) -> CoverageMask {
        let base = pixmap.scale
        let moved = transform.concatenating(.translation(shadow.offsetX * base, shadow.offsetY * base))
        let device = path.applying(moved)
        let deviceScale = abs(transform.determinant).squareRoot()
        let sigma = Shadow.sigma(forRadius: shadow.radius) * deviceScale
        guard sigma > 0, sigma.isFinite else {
            return Rasterizer.coverage(of: flatten(device), rule: .nonZero, bitmapWidth: pixmap.width, bitmapHeight: pixmap.height)
        }
        let pad = BoxBlur.boxSizes(sigma: sigma).reduce(0) { $0 + $1 / 2 } + 1
        return Self.axisAlignedRectangle(device).map {
            Self.blurredRectangle($0, sigma: sigma, pad: pad, width: pixmap.width, height: pixmap.height)
        } ?? blurredShape(device, sigma: sigma, pad: pad)
    }

    private func blurredShape(_ device: Path, sigma: Double, pad: Int) -> CoverageMask {
        // Rasterize on a grid grown by the blur's reach, so nothing near the bitmap's
        // edges is lost before blurring.
        let moved = device.applying(.translation(Double(pad), Double(pad)))
        let sharp = Rasterizer.coverage(of: flatten(moved), rule: .nonZero,
                                        bitmapWidth: pixmap.width + 2 * pad, bitmapHeight: pixmap.height + 2 * pad)
        guard sharp.width > 0, sharp.height > 0 else { return .empty() }
        let w = sharp.width + 2 * pad, h = sharp.height + 2 * pad
        var grid = [Float](repeating: 0, count: w * h)
        for row in 0..<sharp.height {
            for col in 0..<sharp.width {
                grid[(row + pad) * w + col + pad] = Float(sharp.values[row * sharp.width + col]) / 255
            }
        }
        BoxBlur.blur(&grid, width: w, height: h, sigma: sigma)
        // Grid cell (0, 0) sits at bitmap pixel (sharp.x - 2 pad, sharp.y - 2 pad).
        return Self.mask(fromGrid: grid, gridX: sharp.x - 2 * pad, gridY: sharp.y - 2 * pad, gridWidth: w,
                         gridHeight: h, width: pixmap.width, height: pixmap.height) { $0 }
    }

    private static func blurredRectangle(_ r: (x0: Double, y0: Double, x1: Double, y1: Double), sigma: Double,
                                         pad: Int, width: Int, height: Int) -> CoverageMask {
        func profile(_ lo: Double, _ hi: Double) -> (start: Int, values: [Float]) {
            let start = Int(lo.rounded(.down)) - pad, end = Int(hi.rounded(.up)) + pad
            let values = (start..<end).map { i -> Float in
                Float(max(0, min(Double(i + 1), hi) - max(Double(i), lo)))
            }
            return (start, BoxBlur.blur(profile: values, sigma: sigma))
        }
        let px = profile(r.x0, r.x1), py = profile(r.y0, r.y1)
        let x0 = max(0, px.start), x1 = min(width, px.start + px.values.count)
        let y0 = max(0, py.start), y1 = min(height, py.start + py.values.count)
        guard x1 > x0, y1 > y0 else { return .empty() }
        let w = x1 - x0
        let columns = Array(px.values[(x0 - px.start)..<(x1 - px.start)])
        var values = [UInt8](repeating: 0, count: w * (y1 - y0))
        values.withUnsafeMutableBufferPointer { out in
            columns.withUnsafeBufferPointer { column in
                for y in y0..<y1 {
                    let fy = py.values[y - py.start]
                    if fy <= 0 { continue }
                    let line = (y - y0) * w
                    for x in 0..<w {
                        out[line + x] = UInt8(coverageByte(column[x] * fy))
                    }
                }
            }
        }
        return CoverageMask(x: x0, y: y0, width: w, height: y1 - y0, values: values)
    }

    private static func mask(fromGrid grid: [Float], gridX: Int, gridY: Int, gridWidth: Int, gridHeight: Int,
                             width: Int, height: Int, _ f: (Float) -> Float) -> CoverageMask {
        let x0 = max(0, gridX), y0 = max(0, gridY)
        let x1 = min(width, gridX + gridWidth), y1 = min(height, gridY + gridHeight)
        guard x1 > x0, y1 > y0 else { return .empty() }
        var values = [UInt8](repeating: 0, count: (x1 - x0) * (y1 - y0))
        for y in y0..<y1 {
            for x in x0..<x1 {
                values[(y - y0) * (x1 - x0) + x - x0] = UInt8(coverageByte(f(grid[(y - gridY) * gridWidth + x - gridX])))
            }
        }
        return CoverageMask(x: x0, y: y0, width: x1 - x0, height: y1 - y0, values: values)
    }

    /// The corners of `path` when it is a single axis-aligned rectangle.
    static func axisAlignedRectangle(_ path: Path) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        var points: [PathPoint] = []
        for (i, e) in path.elements.enumerated() {
            switch e {
            case .move(let p) where i == 0: points.append(p)
            case .line(let p): points.append(p)
            case .close where i == path.elements.count - 1: break
            default: return nil
            }
        }
        if points.count == 5, points[4] == points[0] { points.removeLast() }
        guard points.count == 4 else { return nil }
        for i in 0..<4 {
            let a = points[i], b = points[(i + 1) % 4]
            guard a.x == b.x || a.y == b.y else { return nil }
        }
        let xs = points.map(\.x), ys = points.map(\.y)
        guard Set(xs).count == 2, Set(ys).count == 2 else { return nil }
        return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    }
}
