import PopoverDiff
import Testing

/// The regions a viewer steps through, worked out by hand on 64-pixel squares.
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

    /// A one-pixel outline of the rectangle x 10...189, y 10...89 in a 200 x 100 image: a
    /// thin change whose box is nearly the whole image.
    func outline() -> DiffMap {
        var points: [(Int, Int)] = []
        for x in 10...189 { points += [(x, 10), (x, 89)] }
        for y in 11...88 { points += [(10, y), (189, y)] }
        return map(200, 100, points)
    }

    func region(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRegion { PixelRegion(x: x, y: y, width: w, height: h) }

    @Test("a one-pixel outline: one region per 64-pixel square it crosses, in reading order, none merged")
    func outlineBySquares() {
        // Squares x 0-63, 64-127, 128-191; y 0-63, 64-99. Top left: the top edge from x 10
        // and the left edge down to y 63; top middle: the top edge alone; and so on.
        #expect(outline().changedRegions() == [
            region(10, 10, 54, 54), region(64, 10, 64, 1), region(128, 10, 62, 54),
            region(10, 64, 54, 26), region(128, 64, 62, 26), region(64, 89, 64, 1),
        ])
        #expect(outline().changedRegion == region(10, 10, 180, 80))
    }

    @Test("more regions than the limit: the squares double until they are few enough")
    func doubling() {
        // 128-pixel squares: x 0-127 and 128-255, one row.
        #expect(outline().changedRegions(limit: 4) == [region(10, 10, 118, 80), region(128, 10, 62, 80)])
        #expect(outline().changedRegions(limit: 1) == [region(10, 10, 180, 80)])
    }

    @Test("pixels on both sides of a square's edge that fit one square are one region")
    func mergedAcrossAnEdge() {
        #expect(map(100, 20, [(63, 5), (64, 6)]).changedRegions() == [region(63, 5, 2, 2)])
        // Too far apart to share a square: two.
        #expect(map(200, 20, [(10, 5), (130, 6)]).changedRegions() == [region(10, 5, 1, 1), region(130, 6, 1, 1)])
    }

    @Test("no changed pixel, no region")
    func none() {
        #expect(map(30, 30, []).changedRegions().isEmpty)
        #expect(DiffMap(width: 5, height: 5).changedRegions().isEmpty)
    }
}
