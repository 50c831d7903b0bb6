/// A Core Animation timing function: a cubic Bezier from (0, 0) to (1, 1) with two
/// control points, mapping elapsed fraction x to progress y.
public struct TimingCurve: Sendable, Hashable, Codable {
    public let control1: Point
    public let control2: Point

    /// Throws unless both control points are finite and their x lies in 0...1,
    /// which keeps x rising with the curve's parameter, so each x has one y.
    public init(control1: Point, control2: Point) throws(GeometryError) {
        let valid = [control1, control2].allSatisfy { point in
            point.x.isFinite && point.y.isFinite && (0...1).contains(point.x)
        }
        guard valid else { throw .invalidTimingCurve(control1: control1, control2: control2) }
        self.init(unchecked: control1, control2)
    }

    private init(unchecked control1: Point, _ control2: Point) {
        self.control1 = control1
        self.control2 = control2
    }

    /// `kCAMediaTimingFunctionEaseInEaseOut`, which the keyboard animation uses.
    public static let easeInEaseOut = TimingCurve(
        unchecked: Point(x: 0.42, y: 0), Point(x: 0.58, y: 1))

    /// Bisection steps: 64 halvings take the parameter's bracket below a double's
    /// resolution, and a fixed count keeps every platform on the same answer.
    static let bisectionSteps = 64

    /// The progress after `fraction` of the duration. Fractions outside 0...1
    /// (and NaN) are clamped, the ends returned exactly.
    ///
    /// Solves x(t) = fraction for the curve parameter t by bisection, then
    /// returns y(t).
    public func value(at fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        var low = 0.0
        var high = 1.0
        for _ in 0..<Self.bisectionSteps {
            let middle = (low + high) / 2
            if Self.bezier(middle, control1.x, control2.x) < fraction {
                low = middle
            } else {
                high = middle
            }
        }
        return Self.bezier((low + high) / 2, control1.y, control2.y)
    }

    /// One coordinate of the curve with end points 0 and 1.
    private static func bezier(_ t: Double, _ first: Double, _ second: Double) -> Double {
        let rest = 1 - t
        return 3 * rest * rest * t * first + 3 * rest * t * t * second + t * t * t
    }
}
