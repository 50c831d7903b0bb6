import Foundation

public enum LineJoin: String, Sendable, CaseIterable {
    case miter, round, bevel
}

public enum LineCap: String, Sendable, CaseIterable {
    case butt, round, square
}

/// How a path's outline is drawn: CoreGraphics' line width, join, cap and miter limit.
public struct StrokeStyle: Sendable, Hashable {
    public var width: Double
    public var join: LineJoin
    public var cap: LineCap
    /// A miter join longer than `miterLimit` times the line width becomes a bevel
    /// (10 is CoreGraphics' default).
    public var miterLimit: Double

    public init(width: Double, join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 10) {
        self.width = width
        self.join = join
        self.cap = cap
        self.miterLimit = miterLimit
    }
}

/// Turns polylines into the closed outline of their stroke, to be filled non-zero.
///
/// Each subpath becomes one closed contour (open subpaths: one side forward, the end
/// cap, the other side back, the start cap) or two (closed subpaths: each side, one of
/// them reversed, so the hole between has winding zero). On the inside of a turn the
/// outline passes through the vertex itself, which leaves a small loop inside the stroke
/// that the non-zero rule absorbs. Works in the path's own coordinates, so the caller
/// can stroke in user space and transform the outline: then a scaled or rotated pen is exact.
struct Stroker {
    let style: StrokeStyle
    /// Flattening tolerance for round joins and caps, in the same units as the points.
    let tolerance: Double

    private var halfWidth: Double { style.width / 2 }

    func outline(of lines: [Polyline]) -> [Polyline] {
        guard style.width > 0, style.width.isFinite else { return [] }
        var contours: [Polyline] = []
        for line in lines {
            var pts: [PathPoint] = []
            var smooth: [Bool] = []
            for (i, p) in line.points.enumerated() {
                if let last = pts.last, (p - last).length < 1e-9 { continue }
                pts.append(p)
                smooth.append(line.smooth[i])
            }
            if line.closed, pts.count > 1, let first = pts.first, let last = pts.last, (first - last).length < 1e-9 {
                pts.removeLast()
                smooth.removeLast()
            }
            if pts.count < 2 {
                if let p = pts.first { contours += dot(at: p) }
                continue
            }
            if line.closed && pts.count >= 2 {
                contours += closedOutline(pts, smooth)
            } else {
                contours.append(openOutline(pts, smooth))
            }
        }
        return contours
    }

    // MARK: Whole subpaths

    private func openOutline(_ p: [PathPoint], _ smooth: [Bool]) -> Polyline {
        let n = p.count
        let dirs = (0..<(n - 1)).map { (p[$0 + 1] - p[$0]).normalized }
        let lengths = (0..<(n - 1)).map { (p[$0 + 1] - p[$0]).length }
        var left: [PathPoint] = [p[0] + normal(dirs[0], 1)]
        var right: [PathPoint] = [p[0] + normal(dirs[0], -1)]
        for i in 1..<(n - 1) {
            let room = min(lengths[i - 1], lengths[i])
            left += join(at: p[i], incoming: dirs[i - 1], outgoing: dirs[i], side: 1, smooth: smooth[i], room: room)
            right += join(at: p[i], incoming: dirs[i - 1], outgoing: dirs[i], side: -1, smooth: smooth[i], room: room)
        }
        left.append(p[n - 1] + normal(dirs[n - 2], 1))
        right.append(p[n - 1] + normal(dirs[n - 2], -1))
        var outline = Polyline()
        outline.closed = true
        for q in left { outline.append(q, smooth: false) }
        for q in cap(at: p[n - 1], direction: dirs[n - 2]) { outline.append(q, smooth: false) }
        for q in right.reversed() { outline.append(q, smooth: false) }
        for q in cap(at: p[0], direction: dirs[0] * -1) { outline.append(q, smooth: false) }
        return outline
    }

    private func closedOutline(_ p: [PathPoint], _ smooth: [Bool]) -> [Polyline] {
        let n = p.count
        let dirs = (0..<n).map { (p[($0 + 1) % n] - p[$0]).normalized }
        let lengths = (0..<n).map { (p[($0 + 1) % n] - p[$0]).length }
        var left = Polyline(), right = Polyline()
        left.closed = true
        right.closed = true
        for i in 0..<n {
            let incoming = dirs[(i + n - 1) % n]
            // The closing vertex is a real corner even where the subpath started on a curve.
            let isSmooth = i == 0 ? false : smooth[i]
            let room = min(lengths[(i + n - 1) % n], lengths[i])
            for q in join(at: p[i], incoming: incoming, outgoing: dirs[i], side: 1, smooth: isSmooth, room: room) {
                left.append(q, smooth: false)
            }
            for q in join(at: p[i], incoming: incoming, outgoing: dirs[i], side: -1, smooth: isSmooth, room: room) {
                right.append(q, smooth: false)
            }
        }
        right.points.reverse()
        return [left, right]
    }

    /// A zero-length subpath: a dot for round caps, a square for square caps (aligned
    /// with the x axis, having no direction), nothing for butt caps.
    private func dot(at p: PathPoint) -> [Polyline] {
        var outline = Polyline()
        outline.closed = true
        switch style.cap {
        case .butt:
            return []
        case .round:
            for q in arc(centre: p, from: PathPoint(halfWidth, 0), sweep: 2 * .pi) { outline.append(q, smooth: false) }
        case .square:
            let h = halfWidth
            for q in [PathPoint(p.x - h, p.y - h), PathPoint(p.x + h, p.y - h), PathPoint(p.x + h, p.y + h), PathPoint(p.x - h, p.y + h)] {
                outline.append(q, smooth: false)
            }
        }
        return [outline]
    }

    // MARK: Pieces

    /// The offset of a unit direction to one side: `side` +1 is (-dy, dx), the left of
    /// the direction of travel in a y-up frame.
    private func normal(_ d: PathPoint, _ side: Double) -> PathPoint {
        PathPoint(-d.y, d.x) * (halfWidth * side)
    }

    /// Points of one side of the outline around vertex `p`; `room` is the length of the
    /// shorter of the two segments meeting there.
    private func join(at p: PathPoint, incoming a: PathPoint, outgoing b: PathPoint, side: Double,
                      smooth: Bool, room: Double) -> [PathPoint] {
        let na = normal(a, side), nb = normal(b, side)
        let start = p + na, end = p + nb
        let cosine = a.dot(b), sine = a.cross(b)
        if abs(sine) < 1e-12 && cosine > 0 { return [start] }
        if smooth && cosine > 0.5 {
            // Inside a curve the true offset passes through where neighbouring offset
            // lines meet: the miter point, with no limit.
            return [p + (na + nb) * (1 / (1 + cosine))]
        }
        let isOuter = side * sine < 0 || (abs(sine) < 1e-12 && cosine < 0)
        if !isOuter {
            // Where the two inner offset lines cross within both segments, that crossing
            // is the outline. Otherwise detour through the vertex: the loop this leaves
            // lies inside the stroke. (A loop where a crossing would do overlaps itself,
            // and exact-area coverage counts overlapping area twice at the edge.)
            if cosine > -0.999, halfWidth * abs(sine) / (1 + cosine) <= room {
                return [p + (na + nb) * (1 / (1 + cosine))]
            }
            return [start, p, end]
        }
        switch style.join {
        case .bevel:
            return [start, end]
        case .miter:
            // The miter is 1 / sin(phi / 2) line widths long, phi the angle between the
            // segments; sin(phi / 2) = sqrt((1 + cos) / 2) in terms of the directions.
            let half = ((1 + cosine) / 2).squareRoot()
            if half > 0, 1 / half <= style.miterLimit {
                return [start, p + (na + nb) * (1 / (1 + cosine))]
            }
            return [start, end]
        case .round:
            return arc(centre: p, from: na, to: nb, through: a)
        }
    }

    private func cap(at p: PathPoint, direction d: PathPoint) -> [PathPoint] {
        let n = normal(d, 1)
        switch style.cap {
        case .butt:
            return []
        case .square:
            let ext = d * halfWidth
            return [p + n + ext, p - n + ext]
        case .round:
            return arc(centre: p, from: n, to: n * -1, through: d)
        }
    }

    /// Points along the circle around `centre` from offset `from` to offset `to` (same
    /// radius), turning the way that passes `through` direction when the two are opposite,
    /// else the short way.
    private func arc(centre: PathPoint, from: PathPoint, to: PathPoint, through: PathPoint) -> [PathPoint] {
        var sweep = atan2(from.cross(to), from.dot(to))
        if abs(abs(sweep) - .pi) < 1e-9 {
            sweep = from.cross(through) >= 0 ? .pi : -.pi
        }
        return arc(centre: centre, from: from, sweep: sweep)
    }

    private func arc(centre: PathPoint, from: PathPoint, sweep: Double) -> [PathPoint] {
        let r = from.length
        guard r > 0 else { return [centre] }
        let maxStep = 2 * acos(max(-1, 1 - tolerance / r))
        let steps = max(1, Int((abs(sweep) / max(maxStep, 1e-3)).rounded(.up)))
        let start = atan2(from.y, from.x)
        var points: [PathPoint] = []
        for i in 0...steps {
            let angle = start + sweep * Double(i) / Double(steps)
            points.append(PathPoint(centre.x + r * cos(angle), centre.y + r * sin(angle)))
        }
        return points
    }
}
