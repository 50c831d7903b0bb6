import PopoverDiff
import PopoverImage
import Testing

/// pixelmatch's anti-aliasing rule on hand-built 5 x 5 images where its details decide
/// the count. In each, only the centre pixel (2, 2) differs, far beyond threshold 0.1,
/// so the count is 0 if the rule calls it anti-aliasing and 1 if not. The expected
/// counts are worked out below from pixelmatch 6.0.0's rule (and agree with the
/// Python port `pixelmatch` 0.4.0 run on the same bytes).
@Suite("pixelmatch's anti-aliasing rule, worked by hand")
struct PixelmatchRuleTests {
    static func grey(_ v: UInt8) -> RGBA { (v, v, v, 255) }

    /// `rows[y][x]` as an image.
    static func picture(_ rows: [[RGBA]]) -> RGBAImage {
        image(rows[0].count, rows.count) { x, y in rows[y][x] }
    }

    /// Transposed: pixel (x, y) is the original's (y, x).
    static func transposed(_ rows: [[RGBA]]) -> [[RGBA]] {
        (0..<rows[0].count).map { x in rows.map { $0[x] } }
    }

    /// The centre (128) has a unique darkest neighbour, black at (1, 1), which has no
    /// black neighbour, and two brightest neighbours tying at white: (3, 1), with no
    /// white neighbour, and (1, 3), with three ((0, 3), (0, 4), (1, 4)). No neighbour
    /// has the centre's brightness. The actual image turns the centre black, which
    /// gives it no darker neighbour there, so everything rests on the expected image.
    static let tie: [[RGBA]] = [
        [30, 40, 200, 200, 200],
        [50, 0, 60, 255, 200],
        [70, 80, 128, 90, 200],
        [255, 255, 100, 110, 120],
        [255, 255, 130, 140, 150],
    ].map { $0.map(grey) }

    /// pixelmatch walks the neighbours column by column (x outer, y inner) and keeps the
    /// first of equal extremes. Here that is (1, 3) before (3, 1): the kept brightest
    /// neighbour has many siblings in both images, so the centre is anti-aliasing and
    /// not counted. Transposed, the first is the white without siblings, nothing
    /// qualifies, and the centre counts. A row-by-row walk gets both the other way round.
    @Test("equal-brightness neighbours: the first in column order is kept", arguments: [false, true])
    func tiedExtremes(transpose: Bool) throws {
        let rows = transpose ? Self.transposed(Self.tie) : Self.tie
        let expected = Self.picture(rows)
        let actual = expected.setting(2, 2, Self.grey(0))
        let counted = transpose ? 1 : 0
        for (e, a) in [(expected, actual), (actual, expected)] {
            let m = try #require(compare(e, a, tolerance(0...255, 0...9, perceptual: 0.1)).metrics)
            #expect(m.differentPixels == counted)
            #expect(m.excusedPixels == 1 - counted)
        }
    }

    /// The centre's brightest neighbour is the transparent pixel (3, 2) (blended over
    /// white it is white); its three neighbours in column 4 are transparent too, but with
    /// other colour bytes. pixelmatch compares siblings byte for byte, so they are not
    /// its siblings and the centre counts; with the same bytes they are, and it is
    /// anti-aliasing.
    @Test("transparent siblings must match byte for byte", arguments: [false, true])
    func transparentSiblings(sameBytes: Bool) throws {
        let clear: RGBA = (0, 0, 0, 0)
        let otherClear: RGBA = sameBytes ? clear : (10, 20, 30, 0)
        let g = Self.grey
        let rows: [[RGBA]] = [
            [g(20), g(25), g(35), g(45), g(55)],
            [g(65), g(60), g(70), g(80), otherClear],
            [g(75), g(0), g(128), clear, otherClear],
            [g(85), g(90), g(100), g(110), otherClear],
            [g(95), g(105), g(115), g(125), g(135)],
        ]
        let expected = Self.picture(rows)
        let actual = expected.setting(2, 2, g(0))
        let m = try #require(compare(expected, actual, tolerance(0...255, 0...9, perceptual: 0.1)).metrics)
        #expect(m.differentPixels == (sameBytes ? 0 : 1))
        #expect(m.excusedPixels == (sameBytes ? 1 : 0))
    }
}
