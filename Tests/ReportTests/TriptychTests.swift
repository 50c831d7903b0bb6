import PopoverImage
import PopoverRaster
import PopoverReport
import Testing

/// The triptych's layout, worked by hand from the rule in `Triptych`'s documentation:
/// margin 8, gap 8, labels' top at 8 and 14 high, pictures' top at 28, columns at least
/// 144 wide, long side at most 1600, upscale at most 4.
@Suite("Triptych")
struct TriptychTests {
    /// A picture whose every pixel says where it is and which picture it is, so a pane's
    /// pixels can be traced back to their source.
    static func picture(_ width: Int, _ height: Int, tag: UInt8, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                pixels[o] = UInt8(x % 251)
                pixels[o + 1] = UInt8(y % 241)
                pixels[o + 2] = tag
                pixels[o + 3] = alpha(x, y)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static let white: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)
    static let ink: (UInt8, UInt8, UInt8, UInt8) = (36, 41, 47, 255)

    static func same(_ a: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ b: (UInt8, UInt8, UInt8, UInt8)) -> Bool {
        a.r == b.0 && a.g == b.1 && a.b == b.2 && a.a == b.3
    }

    /// Ink pixels inside a rectangle, and their bounding box.
    static func ink(in image: RGBAImage, x: Range<Int>, y: Range<Int>) -> (count: Int, box: (Int, Int, Int, Int)?) {
        var count = 0, box: (Int, Int, Int, Int)?
        for py in y {
            for px in x where same(image[px, py], Self.ink) {
                count += 1
                box = box.map { (min($0.0, px), min($0.1, py), max($0.2, px), max($0.3, py)) } ?? (px, py, px, py)
            }
        }
        return (count, box)
    }

    // Worked examples (W x H, the largest picture):
    //   220 x 236 (a 1x sweep): n = 4: 3*880+32 = 2672 > 1600; n = 3: 3*660+32 = 2012 >;
    //     n = 2: 3*440+32 = 1352, 2*236+36 = 508: up 2; columns at 8, 8+440+8 = 456, 904.
    //   705 x 660 (a 3x popover): n = 1: 3*705+32 = 2147 > 1600; d = 2: ceil(705/2) = 353,
    //     3*353+32 = 1091, ceil(660/2)+36 = 366: down 2; columns at 8, 369, 730.
    //   10 x 6: n = 4 gives 40 wide, under the narrowest column 144: 3*144+32 = 464,
    //     24+36 = 60; columns at 8, 160, 312.
    //   2000 x 100: d = 2: 3*1000+32 = 3032; d = 3: 3*667+32 = 2033; d = 4: 3*500+32 = 1532,
    //     25+36 = 61: down 4.
    //   100 x 1700: n = 1: 1700+36 > 1600; d = 2: 850+36 = 886 and 3*144+32 = 464: down 2.
    @Test("layout by the documented rule", arguments: [
        (220, 236, Triptych.Scaling.up(2), 440, 1352, 508, [8, 456, 904]),
        (705, 660, .down(2), 353, 1091, 366, [8, 369, 730]),
        (10, 6, .up(4), 144, 464, 60, [8, 160, 312]),
        (2000, 100, .down(4), 500, 1532, 61, [8, 516, 1024]),
        (100, 1700, .down(2), 144, 464, 886, [8, 160, 312]),
    ])
    func layout(_ w: Int, _ h: Int, _ scaling: Triptych.Scaling, _ column: Int, _ width: Int, _ height: Int, _ xs: [Int]) {
        let layout = Triptych.Layout(width: w, height: h)
        #expect(layout.scaling == scaling)
        #expect(layout.column == column)
        #expect(layout.width == width && layout.height == height)
        #expect(layout.columnX == xs)
    }

    @Test("a 1x case: up 2, each pane the picture's pixels repeated 2 x 2, labels over their columns")
    func oneX() {
        let expected = Self.picture(220, 236, tag: 1), heatmap = Self.picture(220, 236, tag: 2)
        let actual = Self.picture(220, 236, tag: 3, alpha: { x, _ in UInt8(x % 256) })
        let t = Triptych.render(expected: expected, difference: heatmap, actual: actual)
        #expect(t.width == 1352 && t.height == 508)
        for (source, left) in [(expected, 8), (heatmap, 456), (actual, 904)] {
            var mismatches = 0
            for y in 0..<472 {
                for x in 0..<440 where !Self.same(t[left + x, 28 + y], source[x / 2, y / 2]) { mismatches += 1 }
            }
            #expect(mismatches == 0, "pane at x \(left)")
        }
        // Background: the corners, the gaps between panes, the band under them.
        for (x, y) in [(0, 0), (1351, 507), (448, 200), (455, 200), (896, 300), (903, 300), (100, 500), (7, 27)] {
            #expect(Self.same(t[x, y], Self.white), "(\(x), \(y))")
        }
        // "expected": e 14 lit font pixels, x 9, p 12, e 14, c 9, t 12, e 14, d 16 = 100,
        // 4 device pixels each. Its box: from e's left column (8) to d's right one
        // (8 + (7*6 + 4)*2 + 1 = 101), from d's and t's top row (8) to p's bottom (21).
        let label = Self.ink(in: t, x: 8..<456, y: 0..<28)
        #expect(label.count == 400)
        #expect(label.box.map { [$0.0, $0.1, $0.2, $0.3] } == [8, 8, 101, 21])
        // "difference" from 456: d's left column; e (the tenth glyph) ends at
        // 456 + (9*6 + 4)*2 + 1 = 573.
        let difference = Self.ink(in: t, x: 456..<904, y: 0..<28)
        #expect(difference.box.map { [$0.0, $0.1, $0.2, $0.3] } == [456, 8, 573, 21])
        // "actual" from 904: l (the sixth glyph) ends at 904 + (5*6 + 3)*2 + 1 = 971;
        // t and l reach the top row, a, u and l the bottom one.
        let actualLabel = Self.ink(in: t, x: 904..<1352, y: 0..<28)
        #expect(actualLabel.box.map { [$0.0, $0.1, $0.2, $0.3] } == [904, 8, 971, 21])
    }

    @Test("a 3x case: down 2, each pane pixel the alpha-weighted mean of its 2 x 2 block")
    func threeX() {
        // Every 2 x 2 block one colour (so its mean is that colour), but the top-left block:
        // two opaque red pixels and two clear ones: alpha (255+255)/4 = 127.5 -> 128, red
        // stays 200 (clear pixels carry no colour).
        func blocks(_ tag: UInt8) -> RGBAImage {
            var image = RGBAImage(width: 705, height: 660)
            for y in 0..<660 {
                for x in 0..<705 {
                    let o = (y * 705 + x) * 4
                    image.pixels.replaceSubrange(o..<(o + 4), with: [UInt8((x / 2) % 251), UInt8((y / 2) % 241), tag, 255])
                }
            }
            image.pixels.replaceSubrange(0..<8, with: [200, 0, 0, 255, 0, 0, 0, 0])
            image.pixels.replaceSubrange(705 * 4..<(705 * 4 + 8), with: [200, 0, 0, 255, 9, 9, 9, 0])
            return image
        }
        let t = Triptych.render(expected: blocks(1), difference: blocks(2), actual: blocks(3))
        #expect(t.width == 1091 && t.height == 366)
        for (tag, left) in [(UInt8(1), 8), (2, 369), (3, 730)] {
            #expect(Self.same(t[left, 28], (200, 0, 0, 128)))
            var mismatches = 0
            for y in 0..<330 {
                for x in 0..<353 where (x, y) != (0, 0) {
                    if !Self.same(t[left + x, 28 + y], (UInt8(x % 251), UInt8(y % 241), tag, 255)) { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "pane at x \(left)")
            // Right of the pane (the gap, or the right margin) and below it.
            #expect(Self.same(t[left + 353, 100], Self.white))
            #expect(Self.same(t[left + 100, 28 + 330], Self.white))
        }
    }

    @Test("no heatmap (the sizes differ): the middle pane stays blank and its label says why")
    func sizesDiffer() {
        let t = Triptych.render(expected: Self.picture(20, 10, tag: 1), difference: nil, actual: Self.picture(22, 12, tag: 3))
        // W x H = 22 x 12, up 4: 88 wide, under 144: 464 x (48+36 = 84).
        #expect(t.width == 464 && t.height == 84)
        var blank = true
        for y in 28..<76 { for x in 160..<304 where !Self.same(t[x, y], Self.white) { blank = false } }
        #expect(blank)
        // "sizes differ": s's left column at 160 to r's right one (its fifth, in "##..#")
        // at 160 + (11*6 + 4)*2 + 1 = 301.
        let label = Self.ink(in: t, x: 160..<312, y: 0..<28)
        #expect(label.box.map { [$0.0, $0.2] } == [160, 301])
        // The smaller expected picture: 80 x 40 of its pixels, then background.
        #expect(Self.same(t[8 + 79, 28 + 39], (19, 9, 1, 255)))
        #expect(Self.same(t[8 + 80, 28], Self.white))
    }

    @Test("the font: widths, and an unknown character drawn as a box")
    func font() {
        #expect(BitmapFont.width(of: "expected", scale: 2) == 94)
        #expect(BitmapFont.width(of: "", scale: 2) == 0)
        // The box: a 5 x 7 outline, 2*5 + 2*5 = 20 lit pixels.
        #expect(BitmapFont.pixels(of: "?").count == 20)
        #expect(BitmapFont.pixels(of: " ").isEmpty)
    }

    /// The rounded mean by reciprocal must be the whole-number quotient (2 sum + n) / (2 n)
    /// (stated here with integer division): every sum for the divisors a 2 x 2 block can
    /// give, and the sums beside each rounding step for divisors up to a 16 x 16 block's.
    @Test("the block mean is the exact rounded quotient")
    func blockMean() {
        var wrong: [(Int, Int)] = []
        for n in 1...1020 {
            let mean = Triptych.Mean(of: n)
            for sum in 0...(255 * n) where Int(mean(sum)) != (2 * sum + n) / (2 * n) { wrong.append((n, sum)) }
        }
        for n in stride(from: 1021, through: 255 * 256, by: 7) {
            let mean = Triptych.Mean(of: n)
            for k in 1...255 {
                // Where (2 sum + n) / (2 n) steps from k - 1 to k: sum = k n - n / 2.
                let step = k * n - n / 2
                for sum in max(0, step - 2)...min(255 * n, step + 2) where Int(mean(sum)) != (2 * sum + n) / (2 * n) {
                    wrong.append((n, sum))
                }
            }
        }
        #expect(wrong.isEmpty, "first wrong (n, sum): \(wrong.prefix(3))")
    }
}
