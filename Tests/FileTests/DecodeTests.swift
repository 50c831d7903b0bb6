import PopoverFiles
import PopoverImage
import Testing
import TestSupport

@Suite("Decoding every colour type, bit depth and interlace method")
struct DecodeTests {
    @Test("decodes to the hand-worked RGBA pixels", arguments: FixtureTable.all)
    func decodesFixture(_ fixture: Fixture) throws {
        let image = try PNGFile.read(path: Fixtures.path(fixture.file))
        #expect(image.width == fixture.width)
        #expect(image.height == fixture.height)
        #expect(rows(image) == fixture.rows)
        #expect(image.pixels == pixels(fixture.rows))
    }

    /// So that the table's forms are the ones the cases above decode.
    @Test("each fixture is in the form the table says", arguments: FixtureTable.all)
    func fixtureForm(_ fixture: Fixture) throws {
        let header = PNGHeader(try Fixtures.bytes(fixture.file))
        #expect(header == PNGHeader(width: fixture.width, height: fixture.height, bitDepth: fixture.bitDepth,
                                    colourType: fixture.colourType, interlaced: fixture.interlaced))
    }

    /// Every 16-bit value, v -> (v + 128) / 257: the accurate rounding of v * 255 / 65535,
    /// not the high byte (which would give 0x00ff -> 0 and 0xff00 -> 255).
    @Test("16-bit samples scale to 8 bits as (v + 128) / 257, for all 65536 values")
    func scalesAllSixteenBitValues() throws {
        let image = try PNGFile.read(path: Fixtures.path("grey16-ramp.png"))
        #expect(image.width == 256 && image.height == 256)
        var mismatches: [String] = []
        for value in 0..<65536 {
            let expected = UInt8((value + 128) / 257)
            let i = value * 4
            let got = (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3])
            if got != (expected, expected, expected, 255), mismatches.count < 10 {
                mismatches.append("0x\(String(value, radix: 16)) -> \(got), expected \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("limits allow exactly what they say")
    func limitsAtTheBoundary() throws {
        let bytes = try Fixtures.bytes("grey8.png")  // 5 x 3 = 15 pixels
        let exact = try PNGFile.decode(bytes, name: "grey8.png", limits: PNGLimits(maxSide: 5, maxPixels: 15))
        #expect(exact.width == 5)
        let fewerPixels = PNGLimits(maxSide: 5, maxPixels: 14)
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "grey8.png", limits: fewerPixels) }
            == .tooLarge(file: "grey8.png", width: 5, height: 3, limits: fewerPixels))
        let narrower = PNGLimits(maxSide: 4, maxPixels: 100)
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "grey8.png", limits: narrower) }
            == .tooLarge(file: "grey8.png", width: 5, height: 3, limits: narrower))
    }

    @Test("limits describe themselves for messages")
    func limitDescriptions() {
        #expect(PNGLimits.default.description == "16384 on a side / 64 Mpx")
        #expect(PNGLimits.default.maxPixels == 67_108_864)
        #expect(PNGLimits(maxSide: 5, maxPixels: 14).description == "5 on a side / 14 pixels")
        #expect(PNGLimits.default.admits(width: 16384, height: 4096))
        #expect(!PNGLimits.default.admits(width: 16384, height: 4097))
        #expect(!PNGLimits.default.admits(width: 16385, height: 1))
        #expect(!PNGLimits.default.admits(width: Int.max, height: Int.max))
    }
}
