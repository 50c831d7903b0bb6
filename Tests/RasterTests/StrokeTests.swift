import Foundation
import PopoverRaster
import Testing

@Suite("Strokes")
struct StrokeTests {
    func line(_ points: [(Double, Double)], closed: Bool = false) -> Path {
        var p = Path()
        p.move(to: points[0].0, points[0].1)
        for q in points.dropFirst() { p.line(to: q.0, q.1) }
        if closed { p.close() }
        return p
    }

    func strokedArea(_ path: Path, _ style: StrokeStyle, size: Int = 40) -> Double {
        var c = canvas(size, size)
        c.stroke(path, style: style, with: opaqueBlack)
        return coveredArea(c.pixmap)
    }

    @Test("caps: butt ends at the end point, square adds half the width, round a half disc at each end")
    func caps() {
        // A 10-long segment, width 4: butt 10 x 4 = 40; square 14 x 4 = 56; round 40 + pi * 2^2.
        let segment = line([(10, 20), (20, 20)])
        #expect(abs(strokedArea(segment, StrokeStyle(width: 4, cap: .butt)) - 40) < 0.05)
        #expect(abs(strokedArea(segment, StrokeStyle(width: 4, cap: .square)) - 56) < 0.05)
        #expect(abs(strokedArea(segment, StrokeStyle(width: 4, cap: .round)) - (40 + 4 * Double.pi)) < 0.1)
    }

    @Test("joins at a right angle: miter adds the corner square, round a quarter disc, bevel a triangle")
    func rightAngleJoins() {
        // Two 10-long arms at a right angle, width 4, butt caps. Each arm's rectangle is
        // 10 x 4, overlapping in a 2 x 2 square at the inner side of the corner: 80 - 4 = 76
        // plus the outer corner piece: miter a 2 x 2 square (4), round a quarter disc of
        // radius 2 (pi), bevel the triangle with legs 2 and 2 (2).
        let arms = line([(10, 10), (20, 10), (20, 20)])
        #expect(abs(strokedArea(arms, StrokeStyle(width: 4, join: .miter)) - 80) < 0.05)
        #expect(abs(strokedArea(arms, StrokeStyle(width: 4, join: .round)) - (76 + Double.pi)) < 0.1)
        #expect(abs(strokedArea(arms, StrokeStyle(width: 4, join: .bevel)) - 78) < 0.05)
    }

    @Test("a miter longer than the limit becomes a bevel")
    func miterLimit() {
        // A 20-degree turn-back: the miter would be 1 / sin(10 deg) = 5.76 widths long.
        let tip = (30.0, 20.0)
        let a = (tip.0 - 15 * cos(10 * Double.pi / 180), tip.1 - 15 * sin(10 * Double.pi / 180))
        let b = (tip.0 - 15 * cos(10 * Double.pi / 180), tip.1 + 15 * sin(10 * Double.pi / 180))
        let v = line([a, tip, b])
        let limited = strokedArea(v, StrokeStyle(width: 2, join: .miter, miterLimit: 4))
        let unlimited = strokedArea(v, StrokeStyle(width: 2, join: .miter, miterLimit: 10))
        let bevel = strokedArea(v, StrokeStyle(width: 2, join: .bevel))
        #expect(abs(limited - bevel) < 0.01)
        // The miter point lies 5.76 widths out; the extra spike over a bevel is a kite of
        // area (miter length - cos(10 deg)) * sin(80 deg)... at least clearly bigger.
        #expect(unlimited > bevel + 1)
    }

    @Test("a closed square's stroke is a frame with a hole")
    func closedFrame() {
        // Square 10 x 10, width 2, miter: outer 12 x 12 minus inner 8 x 8 = 80.
        let square = line([(10, 10), (20, 10), (20, 20), (10, 20)], closed: true)
        var c = canvas(40, 40)
        c.stroke(square, style: StrokeStyle(width: 2), with: opaqueBlack)
        #expect(abs(coveredArea(c.pixmap) - 80) < 0.05)
        #expect(c.pixmap[15, 15].a == 0)
        #expect(c.pixmap[9, 9].a == 255 && c.pixmap[20, 20].a == 255)
    }

    /// The area of the disc of radius r at the origin inside the rectangle x0...x1,
    /// y0...y1, integrated numerically across x (midpoint rule, fine enough for 1e-5).
    static func discArea(_ r: Double, _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> Double {
        let steps = 400
        let dx = (x1 - x0) / Double(steps)
        var area = 0.0
        for i in 0..<steps {
            let x = x0 + (Double(i) + 0.5) * dx
            guard abs(x) < r else { continue }
            let h = (r * r - x * x).squareRoot()
            area += max(0, min(y1, h) - max(y0, -h)) * dx
        }
        return area
    }

    @Test("a 1-point stroke on a radius-7 arc is even all round, at every scale", arguments: [1.0, 2.0, 3.0])
    func evenArc(scale: Double) {
        let size = Int(20 * scale)
        var c = canvas(size, size, scale: scale)
        c.stroke(circlePath(10, 10, 7), style: StrokeStyle(width: 1), with: opaqueBlack)
        // Every pixel against the exact area of the ring (radius 6.5 to 7.5 points) inside
        // it: then no part of the ring can be thicker or fainter than another.
        let centre = 10 * scale, outer = 7.5 * scale, inner = 6.5 * scale
        var worst = 0.0
        for y in 0..<size {
            for x in 0..<size {
                let x0 = Double(x) - centre, y0 = Double(y) - centre
                let d = ((x0 + 0.5) * (x0 + 0.5) + (y0 + 0.5) * (y0 + 0.5)).squareRoot()
                guard d > inner - 1, d < outer + 1 else {
                    #expect(c.pixmap[x, y].a == 0)
                    continue
                }
                let exact = Self.discArea(outer, x0, x0 + 1, y0, y0 + 1) - Self.discArea(inner, x0, x0 + 1, y0, y0 + 1)
                worst = max(worst, abs(Double(c.pixmap[x, y].a) - exact * 255))
            }
        }
        // Rounding to bytes (0.5) plus the cubic arc's radial error (0.03%): measured 1.2.
        #expect(worst <= 1.5, "worst pixel off by \(worst) / 255")
    }

    @Test("stroking a curve under a rotation keeps its area")
    func rotatedStroke() {
        var plain = canvas(60, 60)
        plain.stroke(circlePath(30, 30, 12), style: StrokeStyle(width: 3), with: opaqueBlack)
        var rotated = canvas(60, 60)
        rotated.translate(30, 30)
        rotated.rotate(0.61)
        rotated.stroke(circlePath(0, 0, 12), style: StrokeStyle(width: 3), with: opaqueBlack)
        #expect(abs(coveredArea(plain.pixmap) - coveredArea(rotated.pixmap)) < 0.2)
        #expect(abs(coveredArea(plain.pixmap) - 2 * Double.pi * 12 * 3) < 0.3)
    }
}
