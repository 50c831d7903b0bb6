import Foundation
import PopoverRaster
import Testing

@Suite("Exact-area coverage")
struct CoverageTests {
    @Test("a pixel cut in half by a vertical edge is 50% covered")
    func halfPixelVertical() {
        // The rectangle x 0...2.5 covers pixels 0 and 1 wholly and half of pixel 2.
        var c = canvas(4, 1)
        c.fill(rectPath(0, 0, 2.5, 1), with: opaqueBlack)
        #expect(c.pixmap[0, 0].a == 255)
        #expect(c.pixmap[1, 0].a == 255)
        #expect(abs(Int(c.pixmap[2, 0].a) - 128) <= 1)
        #expect(c.pixmap[3, 0].a == 0)
    }

    @Test("a pixel cut in half by a diagonal edge is 50% covered")
    func halfPixelDiagonal() {
        // The triangle (0,0) (1,0) (0,1) covers exactly half of pixel (0,0): area 1/2.
        var p = Path()
        p.move(to: 0, 0); p.line(to: 1, 0); p.line(to: 0, 1); p.close()
        var c = canvas(2, 2)
        c.fill(p, with: opaqueBlack)
        #expect(abs(Int(c.pixmap[0, 0].a) - 128) <= 1)
        #expect(c.pixmap[1, 0].a == 0 && c.pixmap[0, 1].a == 0 && c.pixmap[1, 1].a == 0)
    }

    @Test("an edge at a quarter of a pixel gives 25%, whichever way it runs",
          arguments: [0.25, 0.5, 0.75, 0.1, 0.9])
    func fractionalEdges(fraction: Double) {
        // Horizontal edge: the rectangle y 0...1+f covers row 1 by f.
        var c = canvas(3, 3)
        c.fill(rectPath(0, 0, 3, 1 + fraction), with: opaqueBlack)
        #expect(abs(Double(c.pixmap[1, 1].a) - fraction * 255) <= 1)
        // The same edge on the left side of a shape.
        var d = canvas(3, 3)
        d.fill(rectPath(2 - fraction, 0, 1 + fraction, 3), with: opaqueBlack)
        #expect(abs(Double(d.pixmap[1, 1].a) - fraction * 255) <= 1)
    }

    @Test("a filled circle covers pi r^2 within 0.1%",
          arguments: [(20.0, 20.0, 10.0), (30.3, 29.7, 25.0), (60.5, 61.25, 55.5), (8.0, 8.0, 3.0)])
    func circleArea(cx: Double, cy: Double, r: Double) {
        var c = canvas(130, 130)
        c.fill(circlePath(cx, cy, r), with: opaqueBlack)
        let expected = Double.pi * r * r
        let area = coveredArea(c.pixmap)
        // Each pixel's alpha is rounded to 1/255, so allow that rounding per edge pixel too.
        let edgePixels = 2 * Double.pi * r * 2
        #expect(abs(area - expected) <= max(0.001 * expected, edgePixels * 0.5 / 255),
                "area \(area) vs \(expected)")
    }

    @Test("non-zero fills nested same-direction squares; even-odd leaves a hole")
    func fillRules() {
        var p = Path()
        p.addRect(x: 0, y: 0, width: 10, height: 10)
        p.addRect(x: 3, y: 3, width: 4, height: 4)
        var nonZero = canvas(10, 10)
        nonZero.fill(p, with: opaqueBlack, rule: .nonZero)
        var evenOdd = canvas(10, 10)
        evenOdd.fill(p, with: opaqueBlack, rule: .evenOdd)
        #expect(nonZero.pixmap[5, 5].a == 255)
        #expect(evenOdd.pixmap[5, 5].a == 0)
        #expect(evenOdd.pixmap[1, 1].a == 255)
        #expect(abs(coveredArea(evenOdd.pixmap) - 84) < 0.01)
        #expect(abs(coveredArea(nonZero.pixmap) - 100) < 0.01)
    }

    @Test("a square drawn the other way round cuts a hole under non-zero too")
    func oppositeWinding() {
        var p = Path()
        p.addRect(x: 0, y: 0, width: 10, height: 10)
        p.move(to: 3, 3); p.line(to: 3, 7); p.line(to: 7, 7); p.line(to: 7, 3); p.close()
        var c = canvas(10, 10)
        c.fill(p, with: opaqueBlack)
        #expect(c.pixmap[5, 5].a == 0)
        #expect(abs(coveredArea(c.pixmap) - 84) < 0.01)
    }

    @Test("shapes partly outside the bitmap keep their coverage inside it")
    func offCanvas() {
        // A square from -5 to 5 on a 10x10 bitmap: the visible quarter is 5x5.
        var c = canvas(10, 10)
        c.fill(rectPath(-5, -5, 10, 10), with: opaqueBlack)
        #expect(abs(coveredArea(c.pixmap) - 25) < 0.01)
        // A slanted edge that leaves through the left side.
        var t = Path()
        t.move(to: -10, 0); t.line(to: 10, 10); t.line(to: -10, 10); t.close()
        var d = canvas(10, 10)
        d.fill(t, with: opaqueBlack)
        // Visible part: x 0...10 under the line y = (x + 10) / 2: area = integral of
        // 10 - (x + 10) / 2 from 0 to 10 = 50 - 25 - 25 ... = 25.
        #expect(abs(coveredArea(d.pixmap) - 25) < 0.01)
    }

    @Test("quadratic and cubic curves enclose their analytic areas")
    func curveAreas() {
        // A parabola: quadratic from (0,20) with control (10,0) to (20,20): the segment
        // between it and its chord has 2/3 of the triangle's area: 2/3 * (1/2 * 20 * 20) = 133.33.
        var q = Path()
        q.move(to: 0, 20); q.quad(to: 20, 20, control: 10, 0); q.close()
        var c = canvas(24, 24)
        c.fill(q, with: opaqueBlack)
        #expect(abs(coveredArea(c.pixmap) - 400.0 / 3) < 0.1)
        // The same parabola as a cubic (control points 2/3 of the way to the quad's).
        var k = Path()
        k.move(to: 0, 20); k.curve(to: 20, 20, control1: 20.0 / 3, 20.0 / 3, control2: 40.0 / 3, 20.0 / 3); k.close()
        var d = canvas(24, 24)
        d.fill(k, with: opaqueBlack)
        #expect(abs(coveredArea(d.pixmap) - 400.0 / 3) < 0.1)
    }
}
