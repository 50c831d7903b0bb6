import Foundation
import PopoverRaster
import Testing

@Suite("Gradients, clips and blend modes")
struct PaintTests {
    @Test("a vertical gradient: each row takes the colour at its centre")
    func verticalGradient() {
        // From white (y = 0) to black (y = 10): row y is sampled at t = (y + 0.5) / 10,
        // grey = 1 - t, byte = round(255 * (1 - t)).
        var c = canvas(2, 10)
        let g = LinearGradient(from: .white, to: .black, start: PathPoint(1, 0), end: PathPoint(1, 10))
        c.fill(rectPath(0, 0, 2, 10), with: .linearGradient(g))
        for y in 0..<10 {
            let expected = UInt8((255 * (1 - (Double(y) + 0.5) / 10)).rounded())
            #expect(c.pixmap[0, y] == PremultipliedPixel(r: expected, g: expected, b: expected, a: 255))
        }
    }

    @Test("nothing is drawn beyond a gradient's end points unless asked")
    func gradientEnds() {
        let g = LinearGradient(from: .white, to: .black, start: PathPoint(0, 2), end: PathPoint(0, 6))
        var c = canvas(1, 8)
        c.fill(rectPath(0, 0, 1, 8), with: .linearGradient(g))
        #expect(c.pixmap[0, 1].a == 0 && c.pixmap[0, 6].a == 0)
        #expect(c.pixmap[0, 2].a == 255 && c.pixmap[0, 5].a == 255)
        var extended = g
        extended.extendsBeforeStart = true
        extended.extendsAfterEnd = true
        var d = canvas(1, 8)
        d.fill(rectPath(0, 0, 1, 8), with: .linearGradient(extended))
        #expect(d.pixmap[0, 0] == PremultipliedPixel(r: 255, g: 255, b: 255, a: 255))
        #expect(d.pixmap[0, 7] == PremultipliedPixel(r: 0, g: 0, b: 0, a: 255))
    }

    @Test("colours interpolate on straight components, then premultiply")
    func unpremultipliedInterpolation() {
        // Opaque red to transparent blue; half-way: straight (0.5, 0, 0.5, 0.5), which
        // premultiplies to (0.25, 0, 0.25, 0.5) -> (64, 0, 64, 128). Premultiplied
        // interpolation would give (0.5, 0, 0, 0.5) instead.
        let g = LinearGradient(from: Color(red: 1, green: 0, blue: 0), to: Color(red: 0, green: 0, blue: 1, alpha: 0),
                               start: PathPoint(0, 0), end: PathPoint(2, 0))
        var c = canvas(2, 1)
        c.fill(rectPath(0, 0, 2, 1), with: .linearGradient(g))
        // Pixel 0 samples t = 0.25: straight (0.75, 0, 0.25, 0.75) -> (0.5625, 0, 0.1875, 0.75).
        #expect(c.pixmap[0, 0] == PremultipliedPixel(r: 143, g: 0, b: 48, a: 191))
        #expect(g.color(at: 0.5) == Color(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
    }

    @Test("three stops")
    func threeStops() throws {
        let g = LinearGradient(start: PathPoint(0, 0), end: PathPoint(1, 0), stops: [
            GradientStop(0, .black), GradientStop(0.5, .white), GradientStop(1, .black),
        ])
        #expect(try #require(g.color(at: 0.25)).red == 0.5)
        #expect(try #require(g.color(at: 0.5)).red == 1)
        #expect(try #require(g.color(at: 0.75)).red == 0.5)
    }

    @Test("a clip is anti-aliased and lasts until restore")
    func clip() {
        var c = canvas(4, 2)
        c.save()
        c.clip(to: rectPath(0, 0, 1.5, 2))
        c.fill(rectPath(0, 0, 4, 2), with: opaqueBlack)
        #expect(c.pixmap[0, 0].a == 255)
        #expect(abs(Int(c.pixmap[1, 0].a) - 128) <= 1)
        #expect(c.pixmap[2, 0].a == 0)
        c.restore()
        c.fill(rectPath(3, 0, 1, 2), with: opaqueBlack)
        #expect(c.pixmap[3, 0].a == 255)
    }

    @Test("nested clips intersect")
    func nestedClip() {
        var c = canvas(10, 10)
        c.clip(to: rectPath(0, 0, 6, 10))
        c.clip(to: rectPath(4, 0, 6, 10))
        c.fill(rectPath(0, 0, 10, 10), with: opaqueBlack)
        #expect(abs(coveredArea(c.pixmap) - 20) < 0.01)
    }

    /// One destination pixel, one source colour, one mode; expected values from the
    /// formulas on premultiplied bytes.
    struct BlendCase: Sendable, CustomTestStringConvertible {
        let mode: BlendMode
        let destination: PremultipliedPixel
        let source: Color
        let expected: PremultipliedPixel
        var testDescription: String { "\(mode)" }
    }

    static let blendCases: [BlendCase] = [
        // Source over: half-transparent white (128,128,128,128) over opaque black:
        // 128 + 0 * (1 - 128/255) = 128, alpha 128 + 255 * 127/255 = 255.
        BlendCase(mode: .normal, destination: .init(r: 0, g: 0, b: 0, a: 255),
                  source: Color(white: 1, alpha: 128.0 / 255), expected: .init(r: 128, g: 128, b: 128, a: 255)),
        // Multiply, both opaque: S * D: 255 * 128 / 255 = 128 for red; 0 elsewhere.
        BlendCase(mode: .multiply, destination: .init(r: 128, g: 200, b: 0, a: 255),
                  source: Color(red: 1, green: 0, blue: 0.5), expected: .init(r: 128, g: 0, b: 0, a: 255)),
        // Multiply over a transparent destination: S * (1 - 0) = S.
        BlendCase(mode: .multiply, destination: .transparent,
                  source: Color(red: 1, green: 0, blue: 0), expected: .init(r: 255, g: 0, b: 0, a: 255)),
        // Multiply, half-transparent source (64,0,0,128) over opaque grey 100:
        // r = 64 * 0 + 100 * 127/255 + 64 * 100/255 = 49.8 + 25.1 = 74.9 -> 75;
        // g = 100 * 127/255 = 49.8 -> 50; a = 128 * 0 + 255 * 127/255 + 128 = 255.
        BlendCase(mode: .multiply, destination: .init(r: 100, g: 100, b: 100, a: 255),
                  source: Color(red: 0.5, green: 0, blue: 0, alpha: 128.0 / 255),
                  expected: .init(r: 75, g: 50, b: 50, a: 255)),
        // Destination in: D * Sa: (200, 100, 50, 255) * 64/255 -> (50, 25, 13, 64).
        BlendCase(mode: .destinationIn, destination: .init(r: 200, g: 100, b: 50, a: 255),
                  source: Color(white: 0.3, alpha: 64.0 / 255), expected: .init(r: 50, g: 25, b: 13, a: 64)),
        // Copy replaces, transparent included.
        BlendCase(mode: .copy, destination: .init(r: 200, g: 100, b: 50, a: 255),
                  source: Color(red: 0, green: 0, blue: 1, alpha: 0), expected: .transparent),
        BlendCase(mode: .clear, destination: .init(r: 200, g: 100, b: 50, a: 255),
                  source: .black, expected: .transparent),
    ]

    @Test("blend modes on premultiplied values", arguments: blendCases)
    func blend(_ c: BlendCase) {
        var pixmap = Pixmap(width: 1, height: 1)
        pixmap[0, 0] = c.destination
        var canvas = Canvas(pixmap)
        canvas.blendMode = c.mode
        canvas.fill(rectPath(0, 0, 1, 1), with: .solid(c.source))
        #expect(canvas.pixmap[0, 0] == c.expected)
    }

    @Test("partial coverage interpolates a copy with what was there")
    func partialCopy() {
        var pixmap = Pixmap(width: 2, height: 1)
        pixmap.fill(PremultipliedPixel(r: 0, g: 0, b: 255, a: 255))
        var c = Canvas(pixmap)
        c.blendMode = .copy
        c.fill(rectPath(0, 0, 1.5, 1), with: .solid(Color(red: 1, green: 0, blue: 0)))
        // Pixel 1 is half covered (128 of 255): red 255 * 128/255 = 128, blue
        // 255 * 127/255 = 127, still opaque.
        #expect(c.pixmap[1, 0] == PremultipliedPixel(r: 128, g: 0, b: 127, a: 255))
    }
}
