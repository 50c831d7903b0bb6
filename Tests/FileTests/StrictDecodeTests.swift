import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// Where libspng is lenient, decoding is strict: a file is read to its end, so one that
/// lacks IEND, or is cut inside it, is an error. Expected messages are stated here.
@Suite("Strict decoding")
struct StrictDecodeTests {
    static func expectError(_ bytes: [UInt8], _ expected: PNGError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "x.png") } == expected, sourceLocation: sourceLocation)
    }

    @Test("a file complete but for IEND is truncated; one cut inside IEND does not end with it")
    func missingIEND() throws {
        let bytes = PNGFile.encode(CodecImages.image(.popoverLike, width: 30, height: 20, seed: 8))
        #expect(chunks(bytes).last?.type == "IEND")
        let withoutIEND = Array(bytes.dropLast(12))  // IEND is 12 bytes: length, type, CRC
        Self.expectError(withoutIEND, .truncated(file: "x.png"))
        Self.expectError(withoutIEND + HandPNG.chunk("tEXt", Array("a\0b".utf8)), .truncated(file: "x.png"))
        Self.expectError(Array(bytes.dropLast(4)),
                         .corrupt(file: "x.png", reason: "the file does not end with a whole IEND chunk (cut short, or data after it)"))
        let idat = try #require(HandPNG.chunkData(bytes, type: "IDAT"))
        Self.expectError(Array(bytes[..<(idat.lowerBound + idat.count / 2)]), .truncated(file: "x.png"))
    }
}

/// What a cache of decoded pixels is keyed by: the libspng this process loaded, whose
/// version is read here off the file the loader mapped (libspng.so.0.7.3 is libspng
/// 0.7.3), not from the code under test.
@Suite("Decoder version")
struct DecoderVersionTests {
    @Test("it names the loaded libspng's version and the number of our conversions")
    func namesTheLoadedLibPNG() throws {
        // /proc files claim a size of 0: read to the end rather than by size.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let line = try #require(maps.split(separator: "\n").first { $0.contains("libspng.so") })
        let file = try #require(line.split(separator: "/").last)
        let numbers = try #require(file.firstMatch(of: /libspng\.so\.(\d+\.\d+\.\d+)$/), "\(file)")
        #expect(PNGFile.decoderVersion == "libspng \(numbers.1), conversion 1")
    }
}
