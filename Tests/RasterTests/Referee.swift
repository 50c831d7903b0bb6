import PopoverRaster

/// An independent referee for fill rules: coverage by brute force, sharing no code with
/// the raster core. Each pixel is sampled on a `density` x `density` grid of points, and
/// each point is inside or not by the winding number of a ray cast to its right (the
/// sum of the directions of the edges it crosses), so the rule is applied per point.
///
/// Pixels that no edge passes through have one winding number throughout, so their centre
/// alone decides them; the others get every sample. Sampling one row of points at a
/// time lets the row's crossings be found once for all its points.
struct Referee {
    typealias Point = (x: Double, y: Double)
    /// Closed polygons in device pixels (the last point joins the first).
    let polygons: [[Point]]
    let rule: FillRule
    /// 256 x 256 points a pixel: an edge parallel to the grid is off by at most half a
    /// sample row, 0.5 / 256 of a pixel, and a slanted one averages out further.
    var density = 256

    /// The coverage of every pixel of a `width` x `height` bitmap, 0...255, rows top
    /// to bottom.
    func coverage(width: Int, height: Int) -> [Double] {
        let near = pixelsNearEdges(width: width, height: height)
        var result = [Double](repeating: 0, count: width * height)
        let n = density
        for py in 0..<height {
            let centre = crossings(atY: Double(py) + 0.5)
            for px in 0..<width where !near[py * width + px] {
                result[py * width + px] = isInside(winding(centre, rightOf: Double(px) + 0.5)) ? 255 : 0
            }
            let columns = (0..<width).filter { near[py * width + $0] }
            if columns.isEmpty { continue }
            var counts = [Int](repeating: 0, count: columns.count)
            for j in 0..<n {
                let row = crossings(atY: Double(py) + (Double(j) + 0.5) / Double(n))
                let total = row.reduce(0) { $0 + $1.direction }
                // Points go left to right, so one pass over the sorted crossings serves
                // the whole row: what is passed lies left of the point.
                var next = 0, left = 0
                for (slot, px) in columns.enumerated() {
                    for i in 0..<n {
                        let x = Double(px) + (Double(i) + 0.5) / Double(n)
                        while next < row.count && row[next].x <= x {
                            left += row[next].direction
                            next += 1
                        }
                        if isInside(total - left) { counts[slot] += 1 }
                    }
                }
            }
            for (slot, px) in columns.enumerated() {
                result[py * width + px] = 255 * Double(counts[slot]) / Double(n * n)
            }
        }
        return result
    }

    /// The closed polygons of `path` in device pixels: lines as they are, curves
    /// evaluated at 1024 even steps each (within a millionth of a pixel of the curve
    /// at the sizes tested, far finer than the core's own flattening).
    static func polygons(of path: Path, scale: Double) -> [[Point]] {
        var out: [[Point]] = []
        var current: [Point] = []
        var last = PathPoint(0, 0)
        func finish() {
            if current.count > 2 { out.append(current) }
            current = []
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish()
                current = [(p.x * scale, p.y * scale)]
                last = p
            case .line(let p):
                current.append((p.x * scale, p.y * scale))
                last = p
            case .quad(let c, let p):
                for i in 1...1024 {
                    let t = Double(i) / 1024, u = 1 - t
                    current.append(((u * u * last.x + 2 * u * t * c.x + t * t * p.x) * scale,
                                    (u * u * last.y + 2 * u * t * c.y + t * t * p.y) * scale))
                }
                last = p
            case .cubic(let c1, let c2, let p):
                for i in 1...1024 {
                    let t = Double(i) / 1024, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    current.append(((a * last.x + b * c1.x + c * c2.x + d * p.x) * scale,
                                    (a * last.y + b * c1.y + c * c2.y + d * p.y) * scale))
                }
                last = p
            case .close:
                finish()
            }
        }
        finish()
        return out
    }

    private func isInside(_ winding: Int) -> Bool {
        rule == .nonZero ? winding != 0 : winding % 2 != 0
    }

    /// Where the horizontal line at `y` crosses the outline, sorted by x, with +1 for an
    /// edge running down and -1 for one running up. An edge counts from its upper end
    /// (inclusive) to its lower end (exclusive), so a vertex is crossed once.
    private func crossings(atY y: Double) -> [(x: Double, direction: Int)] {
        var found: [(x: Double, direction: Int)] = []
        for polygon in polygons {
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                guard (a.y <= y) != (b.y <= y) else { continue }
                let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                found.append((x, b.y > a.y ? 1 : -1))
            }
        }
        return found.sorted { $0.x < $1.x }
    }

    /// The winding number at x: the directions of the crossings to its right.
    private func winding(_ row: [(x: Double, direction: Int)], rightOf x: Double) -> Int {
        row.reduce(0) { $0 + ($1.x > x ? $1.direction : 0) }
    }

    /// Pixels an edge passes through: points every 1/64 pixel along each edge mark the
    /// pixel they fall in. A pixel this misses holds less than 1/64 of a pixel of edge,
    /// a sliver of at most 1/4096 of its area.
    private func pixelsNearEdges(width: Int, height: Int) -> [Bool] {
        var near = [Bool](repeating: false, count: width * height)
        for polygon in polygons {
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                let steps = Int(length * 64) + 1
                for k in 0...steps {
                    let t = Double(k) / Double(steps)
                    let px = Int((a.x + (b.x - a.x) * t).rounded(.down))
                    let py = Int((a.y + (b.y - a.y) * t).rounded(.down))
                    if px >= 0 && px < width && py >= 0 && py < height { near[py * width + px] = true }
                }
            }
        }
        return near
    }
}
