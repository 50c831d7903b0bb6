import Foundation
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

@Suite("Encoding")
struct EncodeTests {
    @Test("encode then decode gives the same pixels",
          arguments: [(1, 1), (7, 5), (64, 33), (300, 2)])
    func roundTrip(width: Int, height: Int) throws {
        let image = patternImage(width: width, height: height, seed: UInt64(width * 1000 + height))
        let decoded = try PNGFile.decode(PNGFile.encode(image), name: "round-trip.png")
        #expect(decoded == image)
    }

    @Test("every fixture survives decode, encode, decode", arguments: FixtureTable.all)
    func fixtureRoundTrip(_ fixture: Fixture) throws {
        let image = try PNGFile.read(path: Fixtures.path(fixture.file))
        #expect(try PNGFile.decode(PNGFile.encode(image), name: fixture.file) == image)
    }

    @Test("the same pixels give the same bytes, every time")
    func deterministic() {
        let first = PNGFile.encode(patternImage(width: 50, height: 40, seed: 7))
        let second = PNGFile.encode(patternImage(width: 50, height: 40, seed: 7))
        #expect(first == second)
        #expect(first != PNGFile.encode(patternImage(width: 50, height: 40, seed: 8)))
    }

    /// Pixels that need RGBA (more than 256 colours, translucent, not grey); images that
    /// fit a smaller colour type get it (see LibDeflateEncoderTests).
    @Test("only IHDR, IDAT and IEND are written: 8-bit RGBA, not interlaced")
    func chunks() throws {
        let image = patternImage(width: 17, height: 16, seed: 1)
        let colours = Set(stride(from: 0, to: image.pixels.count, by: 4).map { Array(image.pixels[$0..<$0 + 4]) })
        try #require(colours.count > 256, "the sample must need RGBA: \(colours.count) colours")
        let bytes = PNGFile.encode(image)
        let types = chunkTypes(bytes)
        #expect(types.first == "IHDR")
        #expect(types.last == "IEND")
        #expect(Set(types) == ["IHDR", "IDAT", "IEND"])
        #expect(PNGHeader(bytes)
            == PNGHeader(width: 17, height: 16, bitDepth: 8, colourType: .rgba, interlaced: false))
    }

    @Test("full compression: a flat image compresses to almost nothing")
    func compresses() {
        let flat = RGBAImage(width: 512, height: 512, pixels: [UInt8](repeating: 0x80, count: 512 * 512 * 4))
        #expect(PNGFile.encode(flat).count < 2000)
    }

    @Test("write then read through files")
    func writeAndRead() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let image = patternImage(width: 13, height: 11, seed: 3)
        let path = directory.file("image.png")
        try PNGFile.write(image, to: path)
        #expect(try PNGFile.read(path: path) == image)
        #expect(try directory.contents() == ["image.png"])
    }

    static let imageMagick = "/usr/bin/convert"

    @Test("ImageMagick reads what we write, pixel for pixel",
          .enabled(if: FileManager.default.isExecutableFile(atPath: imageMagick) || runningOnCI,
                   "ImageMagick is not installed (\(imageMagick)); cannot cross-check the encoder"))
    func imageMagickReadsIt() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.imageMagick),
                     "ImageMagick is not installed (\(Self.imageMagick)): CI must have it (scripts/install-dependencies)")
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let image = patternImage(width: 17, height: 6, seed: 11)
        let path = directory.file("magick.png")
        try PNGFile.write(image, to: path)
        let raw = try run(Self.imageMagick, [path, "-depth", "8", "rgba:-"])
        #expect(raw.status == 0, "convert failed: \(raw.error)")
        #expect(Array(raw.output) == image.pixels)
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data, String(decoding: message, as: UTF8.self))
    }
}
