/// One subpath turned into straight segments.
struct Polyline {
    var points: [PathPoint] = []
    /// Whether a vertex lies inside a curve (rather than where two elements meet): the
    /// stroker joins such vertices without a visible corner.
    var smooth: [Bool] = []
    var closed = false

    mutating func append(_ p: PathPoint, smooth isSmooth: Bool) {
        points.append(p)
        smooth.append(isSmooth)
    }
}

/// How far (in device pixels) a flattened segment may stray from its curve. Small enough
/// that a circle's area is exact to well under 0.1% at any size the project draws.
let flatteningTolerance = 0.005

/// Turns curves into polylines whose distance from the true curve is at most `tolerance`.
///
/// A Bezier curve strays from the chord between two of its points by at most
/// max|B''| / 8 * dt^2 over a parameter step dt, so uniform steps n = sqrt(max|B''| / (8 tol))
/// suffice. Uniform steps keep the result a pure function of the control points.
func flatten(_ path: Path, tolerance: Double = flatteningTolerance) -> [Polyline] {
    var lines: [Polyline] = []
    var current = Polyline()
    var last = PathPoint(0, 0)

    func finish() {
        if current.points.count > 1 { lines.append(current) }
        current = Polyline()
    }
    func steps(_ secondDerivativeBound: Double) -> Int {
        let n = (secondDerivativeBound / (8 * tolerance)).squareRoot().rounded(.up)
        guard n.isFinite else { return 1 }
        return Int(min(4096, max(1, n)))
    }

    for element in path.elements {
        switch element {
        case .move(let p):
            finish()
            current.append(p, smooth: false)
            last = p
        case .line(let p):
            current.append(p, smooth: false)
            last = p
        case .quad(let c, let p):
            let p0 = last
            let n = steps(2 * (p0 - c * 2 + p).length)
            for i in 1...n {
                let t = Double(i) / Double(n), u = 1 - t
                let q = PathPoint(u * u * p0.x + 2 * u * t * c.x + t * t * p.x,
                                  u * u * p0.y + 2 * u * t * c.y + t * t * p.y)
                current.append(i == n ? p : q, smooth: i < n)
            }
            last = p
        case .cubic(let c1, let c2, let p):
            let p0 = last
            let bound = 6 * max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
            let n = steps(bound)
            for i in 1...n {
                let t = Double(i) / Double(n), u = 1 - t
                let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                let q = PathPoint(a * p0.x + b * c1.x + c * c2.x + d * p.x,
                                  a * p0.y + b * c1.y + c * c2.y + d * p.y)
                current.append(i == n ? p : q, smooth: i < n)
            }
            last = p
        case .close:
            if let first = current.points.first {
                // A close that lands on the start adds no segment; drop the duplicate.
                if let end = current.points.last, current.points.count > 1, (end - first).length < 1e-9 {
                    current.points.removeLast()
                    current.smooth.removeLast()
                }
                current.closed = true
                let start = first
                finish()
                current.append(start, smooth: false)
                last = start
            }
        }
    }
    finish()
    return lines
}
