import Foundation
import PopoverRaster
import Testing
import TestSupport

@Suite("Fill rules at every point")
struct FillRuleTests {
    /// Largest difference between the canvas's alpha and the referee, over every pixel.
    func worstDifference(_ pixmap: Pixmap, _ polygons: [[Referee.Point]], _ rule: FillRule) -> Double {
        let expected = Referee(polygons: polygons, rule: rule).coverage(width: pixmap.width, height: pixmap.height)
        var worst = 0.0
        for y in 0..<pixmap.height {
            for x in 0..<pixmap.width {
                worst = max(worst, abs(Double(pixmap[x, y].a) - expected[y * pixmap.width + x]))
            }
        }
        return worst
    }

    func devicePolygons(_ shape: Overlap, scale: Double) -> [[Referee.Point]] {
        shape.polygons.map { $0.map { (x: $0.x * scale, y: $0.y * scale) } }
    }

    @Test("fills match a 256 x 256 point-sampling referee within 2 levels, at 1x, 2x and 3x",
          arguments: Overlap.allCases, [1.0, 2.0, 3.0])
    func fills(shape: Overlap, scale: Double) {
        for rule in FillRule.allCases {
            var c = canvas(Int(32 * scale), Int(32 * scale), scale: scale)
            c.fill(shape.path, with: opaqueBlack, rule: rule)
            let worst = worstDifference(c.pixmap, devicePolygons(shape, scale: scale), rule)
            #expect(worst <= 2, "\(shape) \(rule) at \(scale)x: a pixel off by \(worst) / 255")
        }
    }

    @Test("clips use the same coverage", arguments: [Overlap.star, .circlesSameWay, .bowTie], [1.0, 3.0])
    func clips(shape: Overlap, scale: Double) {
        for rule in FillRule.allCases {
            var c = canvas(Int(32 * scale), Int(32 * scale), scale: scale)
            c.clip(to: shape.path, rule: rule)
            c.fill(x: 0, y: 0, width: 32, height: 32, with: opaqueBlack)
            let worst = worstDifference(c.pixmap, devicePolygons(shape, scale: scale), rule)
            #expect(worst <= 2, "\(shape) \(rule) clip at \(scale)x: a pixel off by \(worst) / 255")
        }
    }

    @Test("circles drawn as arcs overlap exactly too, at 1x, 2x and 3x", arguments: [1.0, 2.0, 3.0])
    func arcCircles(scale: Double) {
        // Real arcs this time (cubic curves, flattened by the core), one clockwise and
        // one counter-clockwise; the referee evaluates the same cubics far more finely.
        // The core's flattening may stray 0.005 pixels from a curve: measured worst 1.4.
        var p = Path()
        p.addArc(centerX: 12.6, 15.8, radius: 8.7, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        p.close()
        p.addArc(centerX: 19.3, 16.9, radius: 8.2, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        p.close()
        for rule in FillRule.allCases {
            var c = canvas(Int(32 * scale), Int(32 * scale), scale: scale)
            c.fill(p, with: opaqueBlack, rule: rule)
            let worst = worstDifference(c.pixmap, Referee.polygons(of: p, scale: scale), rule)
            #expect(worst <= 2, "\(rule) at \(scale)x: a pixel off by \(worst) / 255")
        }
    }

    @Test("random self-crossing polygons, partly off the canvas, match the referee", arguments: [1.0, 2.0])
    func randomPolygons(scale: Double) {
        // A seeded generator: the same polygons on every run.
        var random = SplitMix64(seed: 0x2545_F491_4F6C_DD1D)
        func next() -> Double { random.unit() }
        for _ in 0..<4 {
            // Nine vertices anywhere from 4 points left of (and above) the canvas to 4
            // beyond it: edges cross each other and the canvas's sides.
            let polygon: [Referee.Point] = (0..<9).map { _ in (-4 + 32 * next(), -4 + 32 * next()) }
            var path = Path()
            path.move(to: polygon[0].x, polygon[0].y)
            for q in polygon.dropFirst() { path.line(to: q.x, q.y) }
            path.close()
            let device = [polygon.map { (x: $0.x * scale, y: $0.y * scale) }]
            for rule in FillRule.allCases {
                var c = canvas(Int(24 * scale), Int(24 * scale), scale: scale)
                c.fill(path, with: opaqueBlack, rule: rule)
                let worst = worstDifference(c.pixmap, device, rule)
                #expect(worst <= 2, "\(polygon) \(rule) at \(scale)x: a pixel off by \(worst) / 255")
            }
        }
    }

    @Test("a pixel where windings 0, 1 and 2 meet gets the area of its inside points")
    func junctionPixel() {
        // Two rectangles, separate subpaths, same direction: x 0.25...4 and 0.5...4. In
        // pixel 0 the winding is 0 on a quarter, 1 on a quarter and 2 on half of it. Its
        // summed winding is 1.25, which a per-pixel rule would show as 255 (non-zero)
        // and 191 (even-odd); per point the inside is 3/4 and 1/4.
        var p = Path()
        p.addRect(x: 0.25, y: 0, width: 3.75, height: 1)
        p.addRect(x: 0.5, y: 0, width: 3.5, height: 1)
        var nonZero = canvas(4, 1)
        nonZero.fill(p, with: opaqueBlack, rule: .nonZero)
        var evenOdd = canvas(4, 1)
        evenOdd.fill(p, with: opaqueBlack, rule: .evenOdd)
        #expect(nonZero.pixmap[0, 0].a == 191)
        #expect(evenOdd.pixmap[0, 0].a == 64)
        #expect(nonZero.pixmap[1, 0].a == 255 && evenOdd.pixmap[1, 0].a == 0)
    }

    @Test("the same square drawn twice: all inside under non-zero, nothing under even-odd")
    func sameSquareTwice() {
        var p = Path()
        for _ in 0..<2 { p.addRect(x: 2.5, y: 2.5, width: 5, height: 5) }
        var nonZero = canvas(10, 10)
        nonZero.fill(p, with: opaqueBlack, rule: .nonZero)
        var evenOdd = canvas(10, 10)
        evenOdd.fill(p, with: opaqueBlack, rule: .evenOdd)
        // 25 pixels' worth, give or take rounding each edge pixel to a byte.
        #expect(abs(coveredArea(nonZero.pixmap) - 25) < 0.05)
        #expect(nonZero.pixmap[2, 2].a == 64 && nonZero.pixmap[4, 4].a == 255)
        #expect(coveredArea(evenOdd.pixmap) == 0)
    }
}
