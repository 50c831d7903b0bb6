import Foundation
import PopoverRaster
import Testing

@Suite("Paths")
struct PathTests {
    /// Evaluates the cubic ending a path at parameter t.
    func point(on element: Path.Element, from p0: PathPoint, at t: Double) -> PathPoint? {
        guard case .cubic(let c1, let c2, let p) = element else { return nil }
        let u = 1 - t
        return PathPoint(u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
                         u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y)
    }

    @Test("arcTo draws a line to the first tangent point, then the shorter arc to the second")
    func arcToRightAngle() throws {
        // From (0,0) towards the corner (10,0), then on to (10,10), radius 4: the circle
        // touching both lines has its centre at (6,4); tangent points (6,0) and (10,4).
        var p = Path()
        p.move(to: 0, 0)
        p.arc(tangentTo: 10, 0, 10, 10, radius: 4)
        let current = try #require(p.currentPoint)
        #expect(abs(current.x - 10) < 1e-12 && abs(current.y - 4) < 1e-12)
        guard case .line(let t1) = p.elements[1] else { Issue.record("no line"); return }
        #expect(abs(t1.x - 6) < 1e-12 && abs(t1.y) < 1e-12)
        // A quarter turn: one cubic, whose midpoint lies on the circle.
        #expect(p.elements.count == 3)
        let mid = try #require(point(on: p.elements[2], from: PathPoint(6, 0), at: 0.5))
        let distance = ((mid.x - 6) * (mid.x - 6) + (mid.y - 4) * (mid.y - 4)).squareRoot()
        #expect(abs(distance - 4) < 1e-3)
    }

    @Test("arcTo on an obtuse corner: tangent distance r / tan(theta / 2)")
    func arcToObtuse() throws {
        // The lines (0,0)->(10,0) and (10,0)->(20,10) meet at 135 degrees; the circle of
        // radius 2 touches each at 2 / tan(67.5 deg) = 0.8284 from the corner.
        var p = Path()
        p.move(to: 0, 0)
        p.arc(tangentTo: 10, 0, 20, 10, radius: 2)
        let d = 2 / tan(67.5 * Double.pi / 180)
        guard case .line(let t1) = p.elements[1] else { Issue.record("no line"); return }
        #expect(abs(t1.x - (10 - d)) < 1e-9 && abs(t1.y) < 1e-9)
        let end = try #require(p.currentPoint)
        #expect(abs(end.x - (10 + d / 2.0.squareRoot())) < 1e-9)
        #expect(abs(end.y - d / 2.0.squareRoot()) < 1e-9)
    }

    @Test("arcTo with collinear points is a line to the corner point")
    func arcToCollinear() {
        var p = Path()
        p.move(to: 0, 0)
        p.arc(tangentTo: 5, 0, 10, 0, radius: 3)
        #expect(p.elements == [.move(PathPoint(0, 0)), .line(PathPoint(5, 0))])
    }

    @Test("a full circle is four quarter-turn cubics")
    func circleCubics() {
        let p = circlePath(0, 0, 10)
        #expect(p.elements.filter { if case .cubic = $0 { true } else { false } }.count == 4)
    }

    @Test("applying a transform maps every point")
    func applying() {
        var p = Path()
        p.move(to: 1, 2); p.line(to: 3, 4)
        let q = p.applying(.translation(10, 20))
        #expect(q.elements == [.move(PathPoint(11, 22)), .line(PathPoint(13, 24))])
    }
}
