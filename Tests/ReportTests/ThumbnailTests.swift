import PopoverDiff
import PopoverImage
import PopoverReport
import Testing
import TestSupport

/// Thumbnails, on images small enough to reason about.
@Suite("Thumbnails")
struct ThumbnailTests {
    static func image(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let o = (y * image.width + x) * 4
        return Array(image.pixels[o..<(o + 4)])
    }

    static let grey: [UInt8] = [200, 200, 200, 255]
    static let magenta: [UInt8] = [196, 60, 117, 255]

    @Test("a single different pixel survives shrinking")
    func aSingleDifferentPixelSurvivesShrinking() {
        let heatmap = Self.image(width: 96, height: 96) { x, y in x == 31 && y == 61 ? Self.magenta : Self.grey }
        let thumbnail = ReportThumbnail.make(heatmap, fitting: 48, keepingColour: true)
        #expect(thumbnail.width == 48 && thumbnail.height == 48)
        // Each output pixel covers a 2x2 block: (31, 61) lands in (15, 30), alone in colour
        // there, so it keeps its colour; its four neighbours take it too.
        #expect(Self.pixel(thumbnail, 15, 30) == Self.magenta)
        for (x, y) in [(14, 30), (16, 30), (15, 29), (15, 31)] {
            #expect(Self.pixel(thumbnail, x, y) == Self.magenta)
        }
        #expect(Self.pixel(thumbnail, 14, 29) == Self.grey)
        #expect(Self.pixel(thumbnail, 40, 5) == Self.grey)
    }

    @Test("area averaging keeps the aspect")
    func areaAveragingKeepsTheAspect() {
        // Left half black, right half white: 200 x 100 fits 48 x 24, and the halves meet
        // at 24 (source columns 95...99 are all black, 100...104 all white).
        let image = Self.image(width: 200, height: 100) { x, _ in x < 100 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        let thumbnail = ReportThumbnail.make(image, fitting: 48)
        #expect(thumbnail.width == 48 && thumbnail.height == 24)
        #expect(Self.pixel(thumbnail, 23, 10) == [0, 0, 0, 255])
        #expect(Self.pixel(thumbnail, 24, 10) == [255, 255, 255, 255])
    }

    @Test("transparent pixels do not darken the mean")
    func transparentPixelsDoNotDarkenTheMean() {
        // A 2x2 block of two transparent (black) and two opaque blue pixels: the colour is
        // blue (weighted by alpha), the alpha their mean, (0 + 0 + 255 + 255) / 4 = 127.5 -> 128.
        let image = Self.image(width: 4, height: 4) { x, _ in x % 2 == 0 ? [0, 0, 0, 0] : [0, 0, 255, 255] }
        let thumbnail = ReportThumbnail.make(image, fitting: 2)
        #expect(thumbnail.width == 2 && thumbnail.height == 2)
        #expect(Self.pixel(thumbnail, 0, 0) == [0, 0, 255, 128])
    }

    @Test("small images are not enlarged")
    func smallImagesAreNotEnlarged() {
        let image = Self.image(width: 10, height: 6) { x, y in [UInt8(x * 20), UInt8(y * 40), 7, 255] }
        #expect(ReportThumbnail.make(image, fitting: 48) == image)
    }

    @Test("a palette heatmap's thumbnail is the thumbnail of its RGBA picture, at awkward sizes",
          arguments: [(1, 1), (1, 130), (130, 1), (47, 49), (97, 33), (200, 7), (49, 48)])
    func paletteThumbnailAtAwkwardSizes(width w: Int, height h: Int) {
        var random = SplitMix64(seed: UInt64(w * 1000 + h))
        // Few greys and alphas, so blocks mix equal pixels of several greys with colours.
        let expected = Self.image(width: w, height: h) { _, _ in
            let g = UInt8.random(in: 0...3, using: &random) * 80
            return [g, g, g, [0, 128, 255][Int.random(in: 0..<3, using: &random)]]
        }
        var magnitudes = [UInt8](repeating: 0, count: w * h)
        var classes = [DiffMap.PixelClass](repeating: .equal, count: w * h)
        for i in 0..<(w * h) where Int.random(in: 0..<5, using: &random) == 0 {
            classes[i] = Bool.random(using: &random) ? .different : .excused
            magnitudes[i] = UInt8.random(in: 1...255, using: &random)
        }
        let heatmap = IndexedHeatmap.render(expected: expected,
                                            diff: DiffMap(width: w, height: h, magnitudes: magnitudes, classes: classes))
        #expect(ReportThumbnail.make(heatmap) == ReportThumbnail.make(heatmap.rgba, keepingColour: true))
    }

    @Test("a palette heatmap's thumbnail keeps its single different pixel the same way")
    func paletteHeatmapThumbnail() {
        // A 96 x 96 uniform grey expected image with one pixel different at (31, 61), by
        // magnitude 40: that pixel lands in output (15, 30) and colours its 4 neighbours.
        let expected = Self.image(width: 96, height: 96) { _, _ in [120, 120, 120, 255] }
        var magnitudes = [UInt8](repeating: 0, count: 96 * 96)
        var classes = [DiffMap.PixelClass](repeating: .equal, count: 96 * 96)
        magnitudes[61 * 96 + 31] = 40
        classes[61 * 96 + 31] = .different
        let heatmap = IndexedHeatmap.render(expected: expected,
                                            diff: DiffMap(width: 96, height: 96, magnitudes: magnitudes, classes: classes))
        let thumbnail = ReportThumbnail.make(heatmap)
        #expect(thumbnail.width == 48 && thumbnail.height == 48)
        // Magnitude 40 is palette entry 200, #e24e65 (worked by hand in DiffTests' HeatmapTests).
        #expect(heatmap.indices[61 * 96 + 31] == 200)
        let shown: [UInt8] = [0xE2, 0x4E, 0x65, 255]
        for (x, y) in [(15, 30), (14, 30), (16, 30), (15, 29), (15, 31)] {
            #expect(Self.pixel(thumbnail, x, y) == shown)
        }
        // Grey 120 dims to 153 + round(0.35 * 120) = 195 (see the heatmap's documentation).
        #expect(Self.pixel(thumbnail, 14, 29) == [195, 195, 195, 255])
        #expect(thumbnail == ReportThumbnail.make(heatmap.rgba, keepingColour: true))
    }
}
