import Foundation

/// A point in a path's coordinate space.
public struct PathPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    static func + (l: PathPoint, r: PathPoint) -> PathPoint { PathPoint(l.x + r.x, l.y + r.y) }
    static func - (l: PathPoint, r: PathPoint) -> PathPoint { PathPoint(l.x - r.x, l.y - r.y) }
    static func * (l: PathPoint, k: Double) -> PathPoint { PathPoint(l.x * k, l.y * k) }
    var length: Double { (x * x + y * y).squareRoot() }
    func dot(_ o: PathPoint) -> Double { x * o.x + y * o.y }
    func cross(_ o: PathPoint) -> Double { x * o.y - y * o.x }
    var normalized: PathPoint {
        let l = length
        return l > 0 ? PathPoint(x / l, y / l) : self
    }
    func applying(_ t: Transform) -> PathPoint {
        let p = t.apply(x, y)
        return PathPoint(p.x, p.y)
    }
}

/// A vector path: subpaths of lines and quadratic and cubic Bezier curves, each open or
/// closed. Arcs are stored as cubic curves (at most a quarter turn each, as CoreGraphics
/// does), so transforming a path is exact.
public struct Path: Sendable, Equatable {
    public enum Element: Sendable, Equatable {
        case move(PathPoint)
        case line(PathPoint)
        case quad(control: PathPoint, to: PathPoint)
        case cubic(control1: PathPoint, control2: PathPoint, to: PathPoint)
        case close
    }

    public private(set) var elements: [Element] = []
    /// The end of the last element; nil before the first move.
    public private(set) var currentPoint: PathPoint?
    private var subpathStart: PathPoint?

    public init() {}

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to x: Double, _ y: Double) {
        let p = PathPoint(x, y)
        elements.append(.move(p))
        currentPoint = p
        subpathStart = p
    }

    /// A line from the current point; without one, starts a subpath there (as
    /// CoreGraphics would complain and UIKit's bezier path would do).
    public mutating func line(to x: Double, _ y: Double) {
        let p = PathPoint(x, y)
        guard currentPoint != nil else { return move(to: x, y) }
        elements.append(.line(p))
        currentPoint = p
    }

    public mutating func quad(to x: Double, _ y: Double, control cx: Double, _ cy: Double) {
        if currentPoint == nil { move(to: cx, cy) }
        let p = PathPoint(x, y)
        elements.append(.quad(control: PathPoint(cx, cy), to: p))
        currentPoint = p
    }

    /// A cubic Bezier curve, CoreGraphics' `addCurve(to:control1:control2:)`.
    public mutating func curve(to x: Double, _ y: Double, control1 c1x: Double, _ c1y: Double,
                               control2 c2x: Double, _ c2y: Double) {
        if currentPoint == nil { move(to: c1x, c1y) }
        let p = PathPoint(x, y)
        elements.append(.cubic(control1: PathPoint(c1x, c1y), control2: PathPoint(c2x, c2y), to: p))
        currentPoint = p
    }

    public mutating func close() {
        guard let start = subpathStart, currentPoint != nil else { return }
        elements.append(.close)
        currentPoint = start
    }

    /// CoreGraphics' "add arc to point" (HTML canvas `arcTo`): a line from the current
    /// point to where a circle of `radius` touches the line current -> (x1, y1), then the
    /// shorter arc to where it touches the line (x1, y1) -> (x2, y2), which becomes the
    /// current point. Degenerate cases (coincident or collinear points, zero radius) draw
    /// a line to (x1, y1), as CoreGraphics does.
    public mutating func arc(tangentTo x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, radius: Double) {
        guard let p0 = currentPoint else { return move(to: x1, y1) }
        let p1 = PathPoint(x1, y1), p2 = PathPoint(x2, y2)
        let v1 = (p0 - p1).normalized, v2 = (p2 - p1).normalized
        let sine = v1.cross(v2), cosine = v1.dot(v2)
        guard radius > 0, (p0 - p1).length > 0, (p2 - p1).length > 0, abs(sine) > 1e-12 else {
            return line(to: x1, y1)
        }
        // The angle at p1 between the two lines is theta; the circle touches each line at
        // radius / tan(theta / 2) from p1.
        let theta = atan2(abs(sine), cosine)
        let tangentDistance = radius / tan(theta / 2)
        let t1 = p1 + v1 * tangentDistance, t2 = p1 + v2 * tangentDistance
        let centre = p1 + (v1 + v2).normalized * (radius / sin(theta / 2))
        line(to: t1.x, t1.y)
        let start = atan2(t1.y - centre.y, t1.x - centre.x)
        let end = atan2(t2.y - centre.y, t2.x - centre.x)
        var sweep = end - start
        while sweep > .pi { sweep -= 2 * .pi }
        while sweep < -.pi { sweep += 2 * .pi }
        appendArc(centre: centre, radius: radius, start: start, sweep: sweep, exactEnd: t2)
    }

    /// CoreGraphics' `addArc(center:radius:startAngle:endAngle:clockwise:)` in UIKit's
    /// sense (y down, so `clockwise` means increasing angles): a line from the current
    /// point to the arc's start, if there is a current point, then the arc.
    public mutating func addArc(centerX cx: Double, _ cy: Double, radius: Double,
                                startAngle: Double, endAngle: Double, clockwise: Bool) {
        var sweep = endAngle - startAngle
        if clockwise {
            while sweep < 0 { sweep += 2 * .pi }
        } else {
            while sweep > 0 { sweep -= 2 * .pi }
        }
        let (s, c) = exactSineCosine(startAngle)
        let start = PathPoint(cx + radius * c, cy + radius * s)
        if currentPoint == nil { move(to: start.x, start.y) } else { line(to: start.x, start.y) }
        let (es, ec) = exactSineCosine(startAngle + sweep)
        appendArc(centre: PathPoint(cx, cy), radius: radius, start: startAngle, sweep: sweep,
                  exactEnd: PathPoint(cx + radius * ec, cy + radius * es))
    }

    /// Appends an arc as cubic curves of at most a quarter turn, using the standard
    /// control-point distance 4/3 tan(phi/4) * radius.
    private mutating func appendArc(centre: PathPoint, radius: Double, start: Double, sweep: Double,
                                    exactEnd: PathPoint) {
        guard sweep != 0 else { return }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4) * radius
        var angle = start
        for i in 0..<pieces {
            let (s0, c0) = exactSineCosine(angle)
            let (s1, c1) = exactSineCosine(angle + step)
            let p0 = PathPoint(centre.x + radius * c0, centre.y + radius * s0)
            let p1 = i == pieces - 1 ? exactEnd : PathPoint(centre.x + radius * c1, centre.y + radius * s1)
            let c1p = PathPoint(p0.x - k * s0, p0.y + k * c0)
            let c2p = PathPoint(p1.x + k * s1, p1.y - k * c1)
            elements.append(.cubic(control1: c1p, control2: c2p, to: p1))
            angle += step
        }
        currentPoint = exactEnd
    }

    /// Adds a closed rectangle, clockwise on screen from its top-left corner.
    public mutating func addRect(x: Double, y: Double, width: Double, height: Double) {
        move(to: x, y)
        line(to: x + width, y)
        line(to: x + width, y + height)
        line(to: x, y + height)
        close()
    }

    /// Adds a closed rectangle with circular corners of `radius` (clamped to half the
    /// shorter side), clockwise on screen.
    public mutating func addRoundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = max(0, min(radius, width / 2, height / 2))
        guard r > 0 else { return addRect(x: x, y: y, width: width, height: height) }
        move(to: x + r, y)
        line(to: x + width - r, y)
        addArc(centerX: x + width - r, y + r, radius: r, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        line(to: x + width, y + height - r)
        addArc(centerX: x + width - r, y + height - r, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        line(to: x + r, y + height)
        addArc(centerX: x + r, y + height - r, radius: r, startAngle: .pi / 2, endAngle: .pi, clockwise: true)
        line(to: x, y + r)
        addArc(centerX: x + r, y + r, radius: r, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: true)
        close()
    }

    /// The path with every point mapped through `t`; exact, since affine maps take Bezier
    /// curves to Bezier curves.
    public func applying(_ t: Transform) -> Path {
        var out = Path()
        out.elements = elements.map { element in
            switch element {
            case .move(let p): .move(p.applying(t))
            case .line(let p): .line(p.applying(t))
            case .quad(let c, let p): .quad(control: c.applying(t), to: p.applying(t))
            case .cubic(let c1, let c2, let p): .cubic(control1: c1.applying(t), control2: c2.applying(t), to: p.applying(t))
            case .close: .close
            }
        }
        out.currentPoint = currentPoint?.applying(t)
        out.subpathStart = subpathStart?.applying(t)
        return out
    }
}
