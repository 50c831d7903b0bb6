import PopoverDiff
import PopoverImage
import Testing
import TestSupport

@Suite("Heatmap")
struct HeatmapTests {
    static func isGrey(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.r == p.g && p.g == p.b }

    /// The colour of a different pixel by magnitude m, worked by hand from the documented
    /// scale: t = 0.15 + 0.70 * log2(m) / log2(255), then magma's 16 published samples
    /// (at i / 15) interpolated linearly, each channel rounded half away from zero. The
    /// samples are the published magma colour map (matplotlib's, by Smith, van der Walt
    /// and Firing) at entries 17 i of its 256, to 8 bits: #000004 #0b0924 #20114b #3b0f70
    /// #57157e #721f81 #8c2981 #a8327d #c43c75 #de4968 #f1605d #fa7f5e #fe9f6d #febf84
    /// #fddea0 #fcfdbf.
    /// E.g. m = 1: t = 0.15, 15t = 2.25, a quarter of the way from #20114b to #3b0f70:
    /// R 32 + 27/4 = 38.75 -> 39, G 17 - 2/4 = 16.5 -> 17, B 75 + 37/4 = 84.25 -> 84.
    /// m = 255: t = 0.85, 15t = 12.75, from #fe9f6d to #febf84: R 254, G 159 + 24 = 183,
    /// B 109 + 17.25 = 126.25 -> 126.
    static let colourByHand: [(magnitude: Int, css: String)] = [
        (1, "#271154"),    // t 0.150000, segment 2 at 0.250000
        (2, "#4b1278"),    // t 0.237562, segment 3 at 0.563427
        (4, "#6f1e81"),    // t 0.325124, segment 4 at 0.876854
        (8, "#912b80"),    // t 0.412685, segment 6 at 0.190281
        (16, "#b63779"),   // t 0.500247, segment 7 at 0.503708
        (32, "#d9476a"),   // t 0.587809, segment 8 at 0.817135
        (64, "#f2645d"),   // t 0.675371, segment 10 at 0.130562
        (128, "#fc8d65"),  // t 0.762933, segment 11 at 0.443989
        (255, "#feb77e"),  // t 0.850000, segment 12 at 0.750000
    ]

    /// Cyan, the colour of excused and ignored pixels.
    static let cyan: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 255, 255, 255)

    static func rgba(_ css: String) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let value = UInt32(css.dropFirst(), radix: 16)!
        return (UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF), 255)
    }

    @Test("equal pixels grey, different pixels coloured, excused pixels cyan", arguments: [
        (0, 0, 0, 255), (255, 255, 255, 255), (200, 30, 90, 255), (10, 200, 10, 0), (10, 200, 10, 128),
    ] as [RGBA])
    func classes(background: RGBA) {
        let expected = solid(3, 2, background)
        let diff = DiffMap(width: 3, height: 2,
                           magnitudes: [0, 1, 40, 0, 255, 7],
                           classes: [.equal, .different, .excused, .equal, .different, .different])
        let heat = Heatmap.render(expected: expected, diff: diff)
        #expect(heat.width == 3 && heat.height == 2)
        #expect(Self.isGrey(heat[0, 0]))
        #expect(Self.isGrey(heat[0, 1]))
        #expect(heat[0, 0].r >= 153 && heat[0, 0].r <= 242)
        for (x, y) in [(1, 0), (1, 1), (2, 1)] { #expect(!Self.isGrey(heat[x, y])) }
        #expect(heat[1, 0] == Self.rgba("#271154"))      // magnitude 1
        #expect(heat[1, 1] == Self.rgba("#feb77e"))      // magnitude 255
        #expect(heat[2, 0] == Self.cyan)
        #expect(heat.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test("different pixels take the colour of their magnitude, as worked by hand", arguments: colourByHand)
    func colourTable(magnitude: Int, css: String) {
        #expect(Heatmap.color(forMagnitude: magnitude).css == css)
        let diff = DiffMap(width: 1, height: 1, magnitudes: [UInt8(magnitude)], classes: [.different])
        #expect(Heatmap.render(expected: solid(1, 1, (9, 9, 9, 255)), diff: diff)[0, 0] == Self.rgba(css))
    }

    @Test("excused and ignored pixels are cyan in both heatmaps, whatever their magnitude")
    func excusedAndIgnored() {
        let expected = solid(4, 1, (200, 30, 90, 255))
        let diff = DiffMap(width: 4, height: 1, magnitudes: [3, 200, 3, 200],
                           classes: [.excused, .excused, .ignored, .ignored])
        let heat = Heatmap.render(expected: expected, diff: diff)
        let indexed = IndexedHeatmap.render(expected: expected, diff: diff)
        for x in 0..<4 {
            #expect(heat[x, 0] == Self.cyan)
            #expect(indexed.indices[x] == 90)
            #expect(indexed.rgba[x, 0] == Self.cyan)
        }
        #expect(Heatmap.legend.excusedColor == "#00ffff")
        #expect(Heatmap.legend.excusedLabel.contains("ignored"))
    }

    /// Palette steps worked by hand: step = round(164 * log2(m) / log2(255)), entry
    /// 91 + step, coloured magma(0.15 + 0.70 * step / 164). m = 2: 164 / 7.994 = 20.51 ->
    /// step 21, t = 0.239634, segment 3 at 0.594512 of #3b0f70 -> #57157e: R 59 + 28 *
    /// 0.5945 = 75.6 -> 76, G 15 + 6 * 0.5945 = 18.6 -> 19, B 112 + 14 * 0.5945 = 120.3 -> 120.
    /// m = 40: 164 * 5.3219 / 7.9944 = 109.18 -> step 109, entry 200, t = 0.615244, 15t =
    /// 9.2287, segment 9 at 0.2287 of #de4968 -> #f1605d: R 222 + 19 * 0.2287 = 226.3 -> 226,
    /// G 73 + 23 * 0.2287 = 78.3 -> 78, B 104 - 11 * 0.2287 = 101.5 -> 101: #e24e65.
    @Test("palette heatmap: each magnitude's entry and colour, worked by hand", arguments: [
        (1, 91, "#271154"), (2, 112, "#4c1378"), (16, 173, "#b63779"), (40, 200, "#e24e65"),
        (255, 255, "#feb77e"),
    ] as [(UInt8, UInt8, String)])
    func paletteTable(magnitude: UInt8, index: UInt8, css: String) {
        let diff = DiffMap(width: 1, height: 1, magnitudes: [magnitude], classes: [.different])
        let indexed = IndexedHeatmap.render(expected: solid(1, 1, (9, 9, 9, 255)), diff: diff)
        #expect(indexed.indices == [index])
        #expect(indexed.palette[Int(index)].css == css)
        #expect(indexed.palette[90].css == "#00ffff")
    }

    @Test("the dimmed copy keeps the expected image's light and dark apart")
    func dimming() {
        let expected = image(3, 1) { x, _ in [(0, 0, 0, 255), (255, 255, 255, 255), (0, 0, 0, 0)][x] }
        let heat = Heatmap.render(expected: expected, diff: DiffMap(width: 3, height: 1))
        #expect(heat[0, 0].r == 153)         // black
        #expect(heat[1, 0].r == 242)         // white
        #expect(heat[2, 0].r == 242)         // transparent shows as white
    }

    @Test("heatmap of a real comparison has the input's size and marks the change")
    func fromComparison() throws {
        let expected = solid(7, 5, (40, 80, 120, 255))
        let actual = expected.setting(3, 2, (41, 80, 120, 255))
        let diff = try #require(compare(expected, actual, map: true).diffMap)
        let heat = Heatmap.render(expected: expected, diff: diff)
        #expect(heat.width == 7 && heat.height == 5)
        #expect(heat.pixels.count == 7 * 5 * 4)
        #expect(heat[3, 2] == Self.rgba("#271154"))     // magnitude 1
        #expect(Self.isGrey(heat[2, 2]))
    }

    @Test("magnitude 1 stands out and colours never repeat grey or cyan", arguments: 1...255)
    func colours(magnitude: Int) {
        let c = Heatmap.color(forMagnitude: magnitude)
        #expect(!(c.red == c.green && c.green == c.blue))
        #expect(c != Heatmap.excusedColor)
        // Far from every possible background grey (153...242) in at least one channel.
        let nearest = (153...242).map { g in
            max(abs(Int(c.red) - g), abs(Int(c.green) - g), abs(Int(c.blue) - g))
        }.min()!
        #expect(nearest >= 40)
    }

    @Test("colours get lighter as the difference grows")
    func monotonic() {
        func luma(_ c: HeatmapColor) -> Double { 0.299 * Double(c.red) + 0.587 * Double(c.green) + 0.114 * Double(c.blue) }
        for m in 1..<255 {
            #expect(luma(Heatmap.color(forMagnitude: m + 1)) >= luma(Heatmap.color(forMagnitude: m)))
        }
        #expect(luma(Heatmap.color(forMagnitude: 255)) - luma(Heatmap.color(forMagnitude: 1)) > 150)
    }

    @Test("legend: logarithmic stops from 1 to 255 with CSS colours")
    func legend() {
        let legend = Heatmap.legend
        #expect(legend.stops.map(\.value) == [1, 2, 4, 8, 16, 32, 64, 128, 255])
        #expect(legend.stops.map(\.label) == ["1", "2", "4", "8", "16", "32", "64", "128", "255"])
        #expect(legend.stops.first?.position == 0)
        #expect(legend.stops.last?.position == 1)
        #expect(zip(legend.stops, legend.stops.dropFirst()).allSatisfy { $0.position < $1.position })
        #expect(legend.stops.map(\.color) == Self.colourByHand.map(\.css))
        #expect(legend.excusedColor == "#00ffff")
        #expect(!legend.stops.map(\.color).contains(legend.excusedColor))
    }

    @Test("an all-equal diff map equals its spelled-out planes")
    func allEqualMap() {
        let lazy = DiffMap(width: 3, height: 2)
        let explicit = DiffMap(width: 3, height: 2, magnitudes: [UInt8](repeating: 0, count: 6),
                               classes: [DiffMap.PixelClass](repeating: .equal, count: 6))
        #expect(lazy == explicit)
        #expect(lazy.isAllEqual && explicit.isAllEqual)
        #expect(lazy.magnitudes == explicit.magnitudes && lazy.classes == explicit.classes)
        #expect(lazy[2, 1] == (0, .equal))
        let other = DiffMap(width: 3, height: 2, magnitudes: [0, 0, 0, 0, 0, 4],
                            classes: [.equal, .equal, .equal, .equal, .equal, .different])
        #expect(lazy != other && !other.isAllEqual)
        #expect(DiffMap(width: 2, height: 3) != lazy)
        let expected = solid(3, 2, (90, 90, 90, 255))
        #expect(Heatmap.render(expected: expected, diff: lazy) == Heatmap.render(expected: expected, diff: explicit))
    }

    @Test("magma end points")
    func magmaEnds() {
        #expect(Heatmap.magma(0).css == "#000004")
        #expect(Heatmap.magma(1).css == "#fcfdbf")
        #expect(Heatmap.magma(-3) == Heatmap.magma(0))
        #expect(Heatmap.magma(.nan) == Heatmap.magma(0))
    }

    @Test("the palette heatmap shows the same picture: greys exact, colours within one palette step")
    func indexedMatchesRGBA() {
        // Every magnitude once, on backgrounds from black to white and transparent.
        let w = 256, h = 3
        let expected = image(w, h) { x, y in
            y == 2 ? (UInt8(x), 0, 0, 0) : (UInt8(x), UInt8(255 - x), UInt8(x / 2), 255)
        }
        var magnitudes = [UInt8](repeating: 0, count: w * h)
        var classes = [DiffMap.PixelClass](repeating: .equal, count: w * h)
        for x in 1..<w { magnitudes[x] = UInt8(x); classes[x] = .different }
        for x in stride(from: 0, to: w, by: 5) { magnitudes[w + x] = 9; classes[w + x] = .excused }
        let diff = DiffMap(width: w, height: h, magnitudes: magnitudes, classes: classes)
        let exact = Heatmap.render(expected: expected, diff: diff)
        let indexed = IndexedHeatmap.render(expected: expected, diff: diff)
        #expect(indexed.palette.count <= 256)
        #expect(indexed.indices.count == w * h)
        let shown = indexed.rgba
        // Half a step of the palette is 0.35 / 164 of the scale, 0.032 of one of magma's
        // 15 segments; the steepest segment moves a channel by 37 (blue, 0x4B -> 0x70),
        // so 1.2 at most, plus rounding on each side: 3.
        let oneStep = 3
        for y in 0..<h {
            for x in 0..<w {
                let a = exact[x, y], b = shown[x, y]
                if classes[y * w + x] == .different {
                    #expect(abs(Int(a.r) - Int(b.r)) <= oneStep && abs(Int(a.g) - Int(b.g)) <= oneStep
                            && abs(Int(a.b) - Int(b.b)) <= oneStep, "magnitude \(magnitudes[y * w + x])")
                } else {
                    #expect(a == b, "pixel \(x), \(y)")
                }
            }
        }
    }

    @Test("the palette heatmap on random images of awkward sizes: greys exact at every alpha, colours within 3",
          arguments: [(1, 1), (1, 40), (40, 1), (97, 33), (7, 300)])
    func indexedMatchesRGBAOnRandomImages(width w: Int, height h: Int) {
        var random = SplitMix64(seed: UInt64(w * 1000 + h))
        let pixels = (0..<(w * h * 4)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let expected = RGBAImage(width: w, height: h, pixels: pixels)
        var magnitudes = [UInt8](repeating: 0, count: w * h)
        var classes = [DiffMap.PixelClass](repeating: .equal, count: w * h)
        for i in 0..<(w * h) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: classes[i] = .different; magnitudes[i] = UInt8.random(in: 1...255, using: &random)
            case 1: classes[i] = .excused; magnitudes[i] = UInt8.random(in: 1...255, using: &random)
            default: break
            }
        }
        let diff = DiffMap(width: w, height: h, magnitudes: magnitudes, classes: classes)
        let exact = Heatmap.render(expected: expected, diff: diff)
        let shown = IndexedHeatmap.render(expected: expected, diff: diff).rgba
        #expect(shown.width == w && shown.height == h)
        for y in 0..<h {
            for x in 0..<w {
                let a = exact[x, y], b = shown[x, y]
                if classes[y * w + x] == .different {
                    #expect(abs(Int(a.r) - Int(b.r)) <= 3 && abs(Int(a.g) - Int(b.g)) <= 3 && abs(Int(a.b) - Int(b.b)) <= 3,
                            "pixel \(x), \(y)")
                } else {
                    #expect(a == b, "pixel \(x), \(y) over \(expected[x, y])")
                }
            }
        }
    }

    @Test("changed region: the smallest rectangle around every pixel that is not equal", arguments: [
        // (pixels marked, as x/y pairs) -> region (x, y, width, height), worked by hand.
        ([(3, 1)], PixelRegion(x: 3, y: 1, width: 1, height: 1)),
        ([(0, 4), (6, 0)], PixelRegion(x: 0, y: 0, width: 7, height: 5)),
        ([(2, 2), (4, 3), (3, 1)], PixelRegion(x: 2, y: 1, width: 3, height: 3)),
        ([], nil),
    ] as [([(Int, Int)], PixelRegion?)])
    func changedRegion(marked: [(Int, Int)], region: PixelRegion?) {
        var magnitudes = [UInt8](repeating: 0, count: 7 * 5)
        var classes = [DiffMap.PixelClass](repeating: .equal, count: 7 * 5)
        for (n, (x, y)) in marked.enumerated() {
            magnitudes[y * 7 + x] = 3
            classes[y * 7 + x] = n % 2 == 0 ? .different : .excused
        }
        #expect(DiffMap(width: 7, height: 5, magnitudes: magnitudes, classes: classes).changedRegion == region)
    }

    @Test("a comparison finds the same changed region as the map it fills")
    func comparisonRegion() throws {
        let expected = solid(9, 6, (10, 20, 30, 255))
        let actual = expected.setting(2, 4, (11, 20, 30, 255)).setting(7, 1, (10, 90, 30, 255))
        let diff = try #require(compare(expected, actual, map: true).diffMap)
        #expect(diff.changedRegion == PixelRegion(x: 2, y: 1, width: 6, height: 4))
    }
}
