import PopoverDiff
import PopoverImage
import Testing

@Suite("Heatmap")
struct HeatmapTests {
    static func isGrey(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.r == p.g && p.g == p.b }

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
        let cyan = Heatmap.excusedColor
        #expect(heat[2, 0] == (cyan.red, cyan.green, cyan.blue, 255))
        #expect(heat.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
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
        let c = Heatmap.color(forMagnitude: 1)
        #expect(heat[3, 2] == (c.red, c.green, c.blue, 255))
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
        for stop in legend.stops {
            #expect(stop.color.count == 7 && stop.color.hasPrefix("#"))
            #expect(stop.color == Heatmap.color(forMagnitude: stop.value).css)
        }
        #expect(legend.excusedColor == "#00ffff")
        #expect(!legend.stops.map(\.color).contains(legend.excusedColor))
        #expect(legend.cssGradient.hasPrefix("linear-gradient(to right, \(legend.stops[0].color) 0.0%"))
        #expect(legend.cssGradient.hasSuffix("\(legend.stops.last!.color) 100.0%)"))
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
}
