import PopoverImage
import PopoverRaster
import Testing

/// The conversion from the premultiplied pixels the raster core draws to the straight
/// pixels a golden holds (docs/specification.md §14.5): each colour channel is
/// `min(255, (c * 255 + a / 2) / a)` in integers (to nearest, halves up); a pixel with
/// alpha 0 becomes (0, 0, 0, 0). Every expected value below is worked out by hand from
/// that formula, so a change to the conversion shows here first, and then in every golden
/// with a translucent pixel (the fault-injection suite checks that too).
@Suite("Premultiplied to straight conversion, pinned by hand")
struct StraightConversionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var premultiplied: [UInt8]
        var straight: [UInt8]
        var why: String
        var testDescription: String { "\(premultiplied) -> \(straight): \(why)" }
    }

    static let rows: [Row] = [
        Row(premultiplied: [7, 7, 7, 255], straight: [7, 7, 7, 255], why: "opaque: unchanged"),
        Row(premultiplied: [0, 0, 0, 0], straight: [0, 0, 0, 0], why: "clear"),
        Row(premultiplied: [5, 9, 3, 0], straight: [0, 0, 0, 0], why: "alpha 0 hides any colour"),
        Row(premultiplied: [64, 32, 0, 128], straight: [128, 64, 0, 128],
            why: "64: (16320 + 64) / 128 = 128; 32: (8160 + 64) / 128 = 64.25 -> 64"),
        Row(premultiplied: [128, 127, 1, 128], straight: [255, 253, 2, 128],
            why: "128: 32704 / 128 = 255.5 -> 255; 127: 32449 / 128 = 253.5 -> 253; 1: 319 / 128 = 2.49 -> 2"),
        Row(premultiplied: [1, 1, 0, 2], straight: [128, 128, 0, 2], why: "(255 + 1) / 2 = 128"),
        Row(premultiplied: [1, 2, 3, 3], straight: [85, 170, 255, 3],
            why: "(255 + 1) / 3 = 85.3; (510 + 1) / 3 = 170.3; (765 + 1) / 3 = 255.3 -> 255"),
        Row(premultiplied: [100, 50, 25, 200], straight: [128, 64, 32, 200],
            why: "(25500 + 100) / 200 = 128; (12750 + 100) / 200 = 64.25; (6375 + 100) / 200 = 32.4"),
        Row(premultiplied: [200, 51, 0, 100], straight: [255, 130, 0, 100],
            why: "colour above alpha clamps: 51050 / 100 = 510.5 -> 255; (13005 + 50) / 100 = 130.55 -> 130"),
        Row(premultiplied: [229, 0, 115, 230], straight: [254, 0, 128, 230],
            why: "(58395 + 115) / 230 = 254.4; (29325 + 115) / 230 = 128"),
    ]

    @Test("each pixel converts to the hand-worked value", arguments: rows)
    func conversion(_ row: Row) {
        var pixmap = Pixmap(width: 1, height: 1)
        pixmap.data = row.premultiplied
        #expect(pixmap.straightImage.pixels == row.straight)
    }

    @Test("the conversion is the same pixel by pixel in a wide image (no shortcut changes a value)")
    func wideImage() {
        var pixmap = Pixmap(width: Self.rows.count, height: 3)
        var expected: [UInt8] = []
        for _ in 0..<3 {
            for row in Self.rows { expected += row.straight }
        }
        pixmap.data = (0..<3).flatMap { _ in Self.rows.flatMap(\.premultiplied) }
        #expect(pixmap.straightImage.pixels == expected)
    }
}
