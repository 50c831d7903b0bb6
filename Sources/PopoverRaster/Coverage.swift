/// How overlapping subpaths decide what is inside.
public enum FillRule: String, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (CoreGraphics' default).
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd
}

/// Per-pixel coverage (0 = outside, 255 = fully inside) over a rectangle of a bitmap:
/// what a path covers, or what a clip lets through.
public struct CoverageMask: Sendable, Equatable {
    /// The mask's top-left pixel in the bitmap.
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int
    /// `width * height` bytes, rows top to bottom.
    public var values: [UInt8]

    public init(x: Int, y: Int, width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height, "mask of \(width)x\(height) needs \(width * height) values")
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.values = values
    }

    public static func empty() -> CoverageMask { CoverageMask(x: 0, y: 0, width: 0, height: 0, values: []) }

    /// A mask that lets everything through over a `width` x `height` bitmap.
    public static func full(width: Int, height: Int) -> CoverageMask {
        CoverageMask(x: 0, y: 0, width: width, height: height,
                     values: [UInt8](repeating: 255, count: width * height))
    }

    /// Coverage at bitmap pixel (px, py); 0 outside the mask's rectangle.
    public func coverage(atX px: Int, y py: Int) -> UInt8 {
        let lx = px - x, ly = py - y
        guard lx >= 0, ly >= 0, lx < width, ly < height else { return 0 }
        return values[ly * width + lx]
    }

    /// The sum of coverage in pixels (255 = one whole pixel): a path's area.
    public var coveredArea: Double {
        Double(values.reduce(0) { $0 + Int($1) }) / 255
    }

    /// Both masks at once: coverage multiplied, over the intersection of their rectangles.
    public func intersected(with other: CoverageMask) -> CoverageMask {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return CoverageMask(x: x0, y: y0, width: 0, height: 0, values: []) }
        var out = [UInt8](repeating: 0, count: (x1 - x0) * (y1 - y0))
        for row in y0..<y1 {
            for col in x0..<x1 {
                let a = Int(values[(row - y) * width + col - x])
                let b = Int(other.values[(row - other.y) * other.width + col - other.x])
                out[(row - y0) * (x1 - x0) + col - x0] = UInt8(div255(a * b))
            }
        }
        return CoverageMask(x: x0, y: y0, width: x1 - x0, height: y1 - y0, values: out)
    }
}

/// Exact-area anti-aliasing: each pixel's coverage is the area of the pixel square that
/// the shape covers, not a count of samples.
///
/// Every edge adds, to each pixel it crosses, the signed area between itself and the
/// pixel's right side; a running sum along each row then gives the winding-weighted area
/// (the approach of FreeType's and font-rs's rasterizers). The fill rule is applied to
/// that sum: non-zero clamps |sum| to 1, even-odd folds it into a triangle wave. Where
/// edges of the same shape do not overlap inside one pixel, the result is the exact area.
enum Rasterizer {
    /// Coverage of `lines` (device pixels, each subpath implicitly closed) clipped to a
    /// `bitmapWidth` x `bitmapHeight` bitmap.
    static func coverage(of lines: [Polyline], rule: FillRule, bitmapWidth: Int, bitmapHeight: Int) -> CoverageMask {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for line in lines {
            for p in line.points {
                guard p.x.isFinite, p.y.isFinite else { return .empty() }
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX.isFinite else { return .empty() }
        // Clamped before converting, so shapes far off the bitmap cannot overflow Int.
        let w = Double(bitmapWidth), h = Double(bitmapHeight)
        let x0 = Int(min(w, max(0, minX)).rounded(.down)), y0 = Int(min(h, max(0, minY)).rounded(.down))
        let x1 = Int(min(w, max(0, maxX)).rounded(.up)), y1 = Int(min(h, max(0, maxY)).rounded(.up))
        guard x1 > x0, y1 > y0 else { return CoverageMask(x: x0, y: y0, width: 0, height: 0, values: []) }
        // Edges wholly to the left of the mask still count (they cover it), so the mask
        // starts at the bitmap's left edge when any point lies left of x0... which only
        // happens when minX < 0, already handled by clamping edges to x = 0 below.
        let width = x1 - x0, height = y1 - y0
        let stride = width + 2
        var accumulation = [Float](repeating: 0, count: stride * height)
        accumulation.withUnsafeMutableBufferPointer { acc in
            for line in lines {
                let pts = line.points
                for i in 0..<pts.count {
                    let a = pts[i], b = pts[(i + 1) % pts.count]
                    addEdge(from: PathPoint(a.x - Double(x0), a.y - Double(y0)),
                            to: PathPoint(b.x - Double(x0), b.y - Double(y0)),
                            width: width, height: height, stride: stride, acc: acc)
                }
            }
        }
        var values = [UInt8](repeating: 0, count: width * height)
        accumulation.withUnsafeBufferPointer { acc in
            values.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    var sum: Float = 0
                    let base = row * stride
                    for col in 0..<width {
                        sum += acc[base + col]
                        let magnitude = abs(sum)
                        let c: Float
                        switch rule {
                        case .nonZero:
                            c = min(1, magnitude)
                        case .evenOdd:
                            let folded = magnitude.truncatingRemainder(dividingBy: 2)
                            c = folded > 1 ? 2 - folded : folded
                        }
                        out[row * width + col] = UInt8(coverageByte(c))
                    }
                }
            }
        }
        return CoverageMask(x: x0, y: y0, width: width, height: height, values: values)
    }

    /// Splits an edge where it leaves the columns 0...width and flattens the parts
    /// outside onto the border: to its right, anything left of the mask is all cover.
    private static func addEdge(from a: PathPoint, to b: PathPoint, width: Int, height: Int, stride: Int,
                                acc: UnsafeMutableBufferPointer<Float>) {
        if a.y == b.y { return }
        let w = Double(width)
        var cuts: [Double] = [0, 1]
        for border in [0.0, w] where (a.x - border) * (b.x - border) < 0 {
            cuts.append((border - a.x) / (b.x - a.x))
        }
        if cuts.count == 2 {
            accumulate(clampX(a, w), clampX(b, w), height: height, stride: stride, acc: acc)
            return
        }
        cuts.sort()
        for i in 0..<(cuts.count - 1) {
            let t0 = cuts[i], t1 = cuts[i + 1]
            let p = PathPoint(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0)
            let q = PathPoint(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
            accumulate(clampX(p, w), clampX(q, w), height: height, stride: stride, acc: acc)
        }
    }

    private static func clampX(_ p: PathPoint, _ w: Double) -> PathPoint {
        PathPoint(min(w, max(0, p.x)), p.y)
    }

    /// Adds one edge lying within columns 0...width: for each row it crosses, the signed
    /// area to the right of the edge within each pixel, as differences so that the row's
    /// running sum yields coverage.
    private static func accumulate(_ p: PathPoint, _ q: PathPoint, height: Int, stride: Int,
                                   acc: UnsafeMutableBufferPointer<Float>) {
        if p.y == q.y { return }
        let direction: Double = p.y < q.y ? 1 : -1
        let (top, bottom) = p.y < q.y ? (p, q) : (q, p)
        let dxdy = (bottom.x - top.x) / (bottom.y - top.y)
        var x = top.x
        var yStart = top.y
        if yStart < 0 {
            x -= yStart * dxdy
            yStart = 0
        }
        let yEnd = min(Double(height), bottom.y)
        guard yEnd > yStart else { return }
        var row = Int(yStart)
        while Double(row) < yEnd {
            let rowTop = max(Double(row), yStart)
            let rowBottom = min(Double(row + 1), yEnd)
            let dy = rowBottom - rowTop
            let xNext = x + dxdy * dy
            let d = dy * direction
            let (left, right) = x < xNext ? (x, xNext) : (xNext, x)
            let leftFloor = left.rounded(.down)
            let leftIndex = Int(leftFloor)
            let rightCeil = right.rounded(.up)
            let rightIndex = Int(rightCeil)
            let base = row * stride
            if rightIndex <= leftIndex + 1 {
                // Within one pixel: the part right of the edge's mean x is covered.
                let mean = 0.5 * (x + xNext) - leftFloor
                acc[base + leftIndex] += Float(d - d * mean)
                acc[base + leftIndex + 1] += Float(d * mean)
            } else {
                let s = 1 / (right - left)
                let leftFraction = left - leftFloor
                let firstArea = 0.5 * s * (1 - leftFraction) * (1 - leftFraction)
                let rightFraction = right - rightCeil + 1
                let lastArea = 0.5 * s * rightFraction * rightFraction
                acc[base + leftIndex] += Float(d * firstArea)
                if rightIndex == leftIndex + 2 {
                    acc[base + leftIndex + 1] += Float(d * (1 - firstArea - lastArea))
                } else {
                    let secondArea = s * (1.5 - leftFraction)
                    acc[base + leftIndex + 1] += Float(d * (secondArea - firstArea))
                    var column = leftIndex + 2
                    while column < rightIndex - 1 {
                        acc[base + column] += Float(d * s)
                        column += 1
                    }
                    let beforeLast = secondArea + Double(rightIndex - leftIndex - 3) * s
                    acc[base + rightIndex - 1] += Float(d * (1 - beforeLast - lastArea))
                }
                acc[base + rightIndex] += Float(d * lastArea)
            }
            x = xNext
            row += 1
        }
    }
}
