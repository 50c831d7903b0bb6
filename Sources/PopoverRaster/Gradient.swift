/// A colour at a position along a gradient, 0 at its start point and 1 at its end.
public struct GradientStop: Sendable, Hashable {
    public var location: Double
    public var color: Color
    public init(_ location: Double, _ color: Color) {
        self.location = location
        self.color = color
    }
}

/// An axial gradient between two points, in the user space in force when it is drawn.
///
/// Colours are interpolated on straight (unpremultiplied) components, as CoreGraphics
/// does by default, then premultiplied once per pixel. Beyond the end points nothing is
/// drawn unless `extendsBeforeStart` / `extendsAfterEnd` ask for the end colour to continue.
public struct LinearGradient: Sendable, Hashable {
    public var start: PathPoint
    public var end: PathPoint
    /// Two or more stops in increasing location order.
    public var stops: [GradientStop]
    public var extendsBeforeStart: Bool
    public var extendsAfterEnd: Bool

    public init(start: PathPoint, end: PathPoint, stops: [GradientStop],
                extendsBeforeStart: Bool = false, extendsAfterEnd: Bool = false) {
        self.start = start
        self.end = end
        self.stops = stops.sorted { $0.location < $1.location }
        self.extendsBeforeStart = extendsBeforeStart
        self.extendsAfterEnd = extendsAfterEnd
    }

    /// A two-colour gradient, "from" at the start and "to" at the end.
    public init(from: Color, to: Color, start: PathPoint, end: PathPoint) {
        self.init(start: start, end: end, stops: [GradientStop(0, from), GradientStop(1, to)])
    }

    /// The colour at parameter `t`, or nil where nothing is drawn.
    public func color(at t: Double) -> Color? {
        guard let first = stops.first, let last = stops.last else { return nil }
        if t < 0 && !extendsBeforeStart || t > 1 && !extendsAfterEnd || !t.isFinite { return nil }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        var i = 1
        while stops[i].location < t { i += 1 }
        let a = stops[i - 1], b = stops[i]
        let span = b.location - a.location
        let f = span > 0 ? (t - a.location) / span : 1
        return Color(red: a.color.red + (b.color.red - a.color.red) * f,
                     green: a.color.green + (b.color.green - a.color.green) * f,
                     blue: a.color.blue + (b.color.blue - a.color.blue) * f,
                     alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * f)
    }
}

/// What fills a shape.
public enum Paint: Sendable, Hashable {
    case solid(Color)
    case linearGradient(LinearGradient)
}

/// A paint resolved against a device transform: gives the premultiplied pixel at each
/// device pixel centre.
struct Shader {
    private enum Kind {
        case solid(PremultipliedPixel)
        /// t at a device point is an affine function t = tx * x + ty * y + t0.
        case linear(LinearGradient, tx: Double, ty: Double, t0: Double)
    }
    private let kind: Kind

    init?(_ paint: Paint, deviceFromUser ctm: Transform) {
        switch paint {
        case .solid(let color):
            kind = .solid(color.premultiplied)
        case .linearGradient(let gradient):
            guard gradient.stops.count >= 1, let userFromDevice = ctm.inverted else { return nil }
            let axis = gradient.end - gradient.start
            let lengthSquared = axis.dot(axis)
            guard lengthSquared > 0 else { return nil }
            // t(user p) = (p - start) . axis / |axis|^2, and p = userFromDevice(device q):
            // compose the two affine maps into one on device coordinates.
            let ux = axis.x / lengthSquared, uy = axis.y / lengthSquared
            let m = userFromDevice
            let tx = ux * m.a + uy * m.b
            let ty = ux * m.c + uy * m.d
            let t0 = ux * (m.tx - gradient.start.x) + uy * (m.ty - gradient.start.y)
            kind = .linear(gradient, tx: tx, ty: ty, t0: t0)
        }
    }

    var constantPixel: PremultipliedPixel? {
        if case .solid(let p) = kind { return p }
        return nil
    }

    /// The pixel at device pixel (x, y), sampled at its centre; nil where the paint draws nothing.
    func pixel(x: Int, y: Int) -> PremultipliedPixel? {
        switch kind {
        case .solid(let p):
            return p
        case .linear(let gradient, let tx, let ty, let t0):
            let t = tx * (Double(x) + 0.5) + ty * (Double(y) + 0.5) + t0
            return gradient.color(at: t)?.premultiplied
        }
    }
}
