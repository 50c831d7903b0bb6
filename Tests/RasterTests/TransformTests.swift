import Foundation
import PopoverRaster
import Testing

@Suite("Transforms")
struct TransformTests {
    @Test("translate and scale move and size a shape")
    func translateScale() {
        var c = canvas(20, 20)
        c.translate(5, 6)
        c.scale(2, 3)
        c.fill(rectPath(0, 0, 2, 1), with: opaqueBlack)
        // Device rectangle: x 5...9, y 6...9.
        #expect(c.pixmap[5, 6].a == 255 && c.pixmap[8, 8].a == 255)
        #expect(c.pixmap[4, 6].a == 0 && c.pixmap[9, 6].a == 0 && c.pixmap[5, 9].a == 0)
        #expect(abs(coveredArea(c.pixmap) - 12) < 0.01)
    }

    @Test("a bitmap's scale factor makes user space points")
    func scaleFactor() {
        var c = canvas(6, 6, scale: 3)
        c.fill(rectPath(0, 0, 1, 1), with: opaqueBlack)
        #expect(abs(coveredArea(c.pixmap) - 9) < 0.01)
    }

    @Test("a flip mirrors a shape exactly")
    func flip() {
        // A right triangle in the left half; flipped about x = 5 it lies in the right half.
        var t = Path()
        t.move(to: 0, 0); t.line(to: 4, 0); t.line(to: 0, 4); t.close()
        var plain = canvas(10, 4)
        plain.fill(t, with: opaqueBlack)
        var flipped = canvas(10, 4)
        flipped.translate(10, 0)
        flipped.scale(-1, 1)
        flipped.fill(t, with: opaqueBlack)
        for y in 0..<4 {
            for x in 0..<10 { #expect(plain.pixmap[x, y] == flipped.pixmap[9 - x, y]) }
        }
    }

    @Test("rotation by any angle keeps area; quarter turns keep pixels exactly", arguments: [0.3, 0.7854, 1.2, 2.5])
    func rotation(angle: Double) {
        var c = canvas(40, 40)
        c.translate(20, 20)
        c.rotate(angle)
        c.fill(rectPath(-6, -4, 12, 8), with: opaqueBlack)
        #expect(abs(coveredArea(c.pixmap) - 96) < 0.1)
    }

    @Test("a quarter turn maps pixel (x, y) to (h - 1 - y, x), within rounding")
    func quarterTurn() {
        var t = Path()
        t.move(to: 0, 0); t.line(to: 5, 0); t.line(to: 0, 3); t.close()
        var plain = canvas(8, 8)
        plain.fill(t, with: opaqueBlack)
        var turned = canvas(8, 8)
        turned.translate(8, 0)
        turned.rotate(.pi / 2)
        turned.fill(t, with: opaqueBlack)
        for y in 0..<8 {
            // Coverage of exactly half a pixel may round either way after a turn.
            for x in 0..<8 { #expect(abs(Int(plain.pixmap[x, y].a) - Int(turned.pixmap[7 - y, x].a)) <= 1) }
        }
    }

    @Test("inverse undoes a transform")
    func inverse() throws {
        let t = Transform.translation(3, -2).concatenating(.rotation(0.4)).concatenating(.scale(2, 5))
        let inv = try #require(t.inverted)
        let p = t.apply(1.5, -7)
        let back = inv.apply(p.x, p.y)
        #expect(abs(back.x - 1.5) < 1e-9 && abs(back.y + 7) < 1e-9)
    }
}
