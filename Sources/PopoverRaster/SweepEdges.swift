/// One non-horizontal segment of an outline, stored from its top to its bottom (y grows
/// downwards), in the mask's coordinates.
struct SweepEdge {
    var topX: Double
    var topY: Double
    var bottomY: Double
    /// How far x moves per unit of y.
    var slope: Double
    /// +1 where the segment runs downwards, -1 upwards: what crossing it from left to
    /// right adds to the winding number.
    var winding: Int

    @inline(__always)
    func x(at y: Double) -> Double { topX + (y - topY) * slope }

    /// Where the edge enters the mask's first row it reaches (y = 0 when it starts above).
    var firstX: Double { topY < 0 ? topX - topY * slope : topX }
}

extension Rasterizer {
    /// Every non-horizontal segment that reaches the rows 0..<height, moved to the mask's
    /// origin, in path order. Horizontal segments bound no area of a row band, and
    /// segments wholly above or below the mask cross no band in it.
    ///
    /// A segment that leaves the columns 0...width is cut there and the parts outside
    /// are moved onto the border. That keeps the winding number of every point inside
    /// the mask (an edge left of a point stays left of it), and the parts left of the
    /// mask then cover all of it to their right, as they should.
    static func sweepEdges(_ lines: [Polyline], originX: Double, originY: Double,
                           width: Int, height: Int) -> [SweepEdge] {
        var edges: [SweepEdge] = []
        edges.reserveCapacity(lines.reduce(0) { $0 + $1.points.count })
        let right = Double(width), bottom = Double(height)
        func add(_ a: PathPoint, _ b: PathPoint) {
            if a.y == b.y || max(a.y, b.y) <= 0 || min(a.y, b.y) >= bottom { return }
            let down = a.y < b.y
            let (top, end) = down ? (a, b) : (b, a)
            edges.append(SweepEdge(topX: top.x, topY: top.y, bottomY: end.y,
                                   slope: (end.x - top.x) / (end.y - top.y), winding: down ? 1 : -1))
        }
        func clamped(_ p: PathPoint) -> PathPoint { PathPoint(min(right, max(0, p.x)), p.y) }
        for line in lines {
            let pts = line.points
            for i in 0..<pts.count {
                let j = i + 1 == pts.count ? 0 : i + 1
                let a = PathPoint(pts[i].x - originX, pts[i].y - originY)
                let b = PathPoint(pts[j].x - originX, pts[j].y - originY)
                if a.y == b.y { continue }
                var cutA = 2.0, cutB = 2.0
                if a.x * b.x < 0 { cutA = -a.x / (b.x - a.x) }
                if (a.x - right) * (b.x - right) < 0 { cutB = (right - a.x) / (b.x - a.x) }
                if cutA == 2 && cutB == 2 {
                    add(clamped(a), clamped(b))
                    continue
                }
                if cutA > cutB { swap(&cutA, &cutB) }
                var t0 = 0.0
                for t1 in [cutA, cutB, 1.0] where t1 <= 1 {
                    let p = PathPoint(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0)
                    let q = PathPoint(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
                    add(clamped(p), clamped(q))
                    t0 = t1
                }
            }
        }
        return edges
    }

    /// For each row, the edges that pass through it: row r's edge indices are
    /// `rowEdges[rowStart[r]..<rowStart[r + 1]]`, in path order (a counting sort, no
    /// per-row arrays).
    static func bucketByRow(_ edges: [SweepEdge], height: Int) -> (rowStart: [Int], rowEdges: [Int32]) {
        func rows(_ e: SweepEdge) -> Range<Int> {
            // Clamped before converting: an edge may reach far beyond the mask.
            let first = Int(max(0, e.topY).rounded(.down))
            let last = Int(min(Double(height), e.bottomY).rounded(.up))
            return first..<max(first, last)
        }
        var rowStart = [Int](repeating: 0, count: height + 1)
        for e in edges {
            for r in rows(e) { rowStart[r + 1] += 1 }
        }
        for r in 0..<height { rowStart[r + 1] += rowStart[r] }
        var fill = rowStart
        var rowEdges = [Int32](repeating: 0, count: rowStart[height])
        for (i, e) in edges.enumerated() {
            for r in rows(e) {
                rowEdges[fill[r]] = Int32(i)
                fill[r] += 1
            }
        }
        return (rowStart, rowEdges)
    }
}
