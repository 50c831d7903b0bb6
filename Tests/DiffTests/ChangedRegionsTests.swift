import PopoverDiff
import Testing

/// The regions a viewer steps through, worked out by hand on 64-pixel squares merged up to 128.
@Suite("Changed regions")
struct ChangedRegionsTests {
    /// A map whose pixels at `changed` differ.
    func map(_ width: Int, _ height: Int, _ changed: [(Int, Int)]) -> DiffMap {
        var classes = [DiffMap.PixelClass](repeating: .equal, count: width * height)
        var magnitudes = [UInt8](repeating: 0, count: width * height)
        for (x, y) in changed {
            classes[y * width + x] = .different
            magnitudes[y * width + x] = 9
        }
        return DiffMap(width: width, height: height, magnitudes: magnitudes, classes: classes)
    }

    /// A one-pixel outline of the rectangle x 10...389, y 10...89 in a 400 x 100 image: a
    /// thin change whose box is nearly the whole image.
    func outline() -> DiffMap {
        var points: [(Int, Int)] = []
        for x in 10...389 { points += [(x, 10), (x, 89)] }
        for y in 11...88 { points += [(10, y), (389, y)] }
        return map(400, 100, points)
    }

    func region(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRegion { PixelRegion(x: x, y: y, width: w, height: h) }

    @Test("a one-pixel outline: the boxes of its 64-pixel squares, merged in reading order while they span less than 128 pixels")
    func outlineBySquares() {
        // Squares x 0-63, 64-127, ..., 384-399; y 0-63, 64-99. Top row first: x 10-127 (the
        // top left corner and the next square's edge), x 128-255, x 256-383, x 384-389 (the
        // right edge); then each bottom square joins the region above it.
        #expect(outline().changedRegions() == [
            region(10, 10, 118, 80), region(128, 10, 128, 80), region(256, 10, 128, 80), region(384, 10, 6, 80),
        ])
        #expect(outline().changedRegion == region(10, 10, 380, 80))
    }

    @Test("more regions than the limit: the squares and the side double until they are few enough")
    func doubling() {
        // 128-pixel squares merged while under 256: x 10-255, then x 256-389.
        #expect(outline().changedRegions(limit: 2) == [region(10, 10, 246, 80), region(256, 10, 134, 80)])
        #expect(outline().changedRegions(limit: 1) == [region(10, 10, 380, 80)])
    }

    @Test("pixels on both sides of a square's edge that fit one square are one region")
    func mergedAcrossAnEdge() {
        #expect(map(100, 20, [(63, 5), (64, 6)]).changedRegions() == [region(63, 5, 2, 2)])
        // 120 pixels apart: one region; 140 apart: two.
        #expect(map(200, 20, [(10, 5), (130, 6)]).changedRegions() == [region(10, 5, 121, 2)])
        #expect(map(200, 20, [(10, 5), (150, 6)]).changedRegions() == [region(10, 5, 1, 1), region(150, 6, 1, 1)])
    }

    @Test("no changed pixel, no region")
    func none() {
        #expect(map(30, 30, []).changedRegions().isEmpty)
        #expect(DiffMap(width: 5, height: 5).changedRegions().isEmpty)
    }
}
