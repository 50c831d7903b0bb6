import Foundation

/// An affine transform, as CoreGraphics writes it: a point (x, y) maps to
/// (a*x + c*y + tx, b*x + d*y + ty).
public struct Transform: Sendable, Hashable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> Transform {
        Transform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Rotation by `angle` radians; with y pointing down, a positive angle turns
    /// clockwise on screen (as in UIKit). Quarter turns are exact, so images rotated by
    /// 90-degree steps stay on the pixel grid.
    public static func rotation(_ angle: Double) -> Transform {
        let (s, c) = exactSineCosine(angle)
        return Transform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// `self` followed by `next`.
    public func concatenating(_ next: Transform) -> Transform {
        Transform(a: a * next.a + b * next.c, b: a * next.b + b * next.d,
                  c: c * next.a + d * next.c, d: c * next.b + d * next.d,
                  tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    /// Applies `t` first, then `self`, as CoreGraphics' CTM functions do: after
    /// `ctm = ctm.prepending(.translation(...))`, user coordinates move.
    public func prepending(_ t: Transform) -> Transform { t.concatenating(self) }

    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    public var determinant: Double { a * d - b * c }

    public var inverted: Transform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return Transform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                         tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// True when the transform keeps rectangles axis-aligned: scales, flips, translations
    /// and quarter turns.
    public var isAxisAligned: Bool { (b == 0 && c == 0) || (a == 0 && d == 0) }
}

/// sin and cos with exact values at multiples of a quarter turn, where the library
/// functions leave a tiny residue (cos(pi/2) = 6e-17) that would knock images off the grid.
func exactSineCosine(_ angle: Double) -> (Double, Double) {
    let quarter = angle / (Double.pi / 2)
    let nearest = quarter.rounded()
    if abs(quarter - nearest) < 1e-12 {
        switch ((Int(nearest) % 4) + 4) % 4 {
        case 0: return (0, 1)
        case 1: return (1, 0)
        case 2: return (0, -1)
        default: return (-1, 0)
        }
    }
    return (sin(angle), cos(angle))
}
