import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// Where libspng is lenient, decoding is strict, and says what is wrong by name and value:
/// a file that lacks only IEND, a palette index past the palette, a tRNS longer than
/// PLTE. Expected messages are stated here.
@Suite("Strict decoding")
struct StrictDecodeTests {
    static func expectError(_ bytes: [UInt8], _ expected: PNGError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "x.png") } == expected, sourceLocation: sourceLocation)
    }

    static let noIEND = PNGError.corrupt(file: "x.png", reason: "no IEND chunk (the file ends after its last complete chunk)")

    @Test("a file complete but for IEND: 'no IEND chunk', not 'truncated'")
    func missingIEND() throws {
        let bytes = PNGFile.encode(CodecImages.image(.popoverLike, width: 30, height: 20, seed: 8))
        #expect(chunks(bytes).last?.type == "IEND")
        let withoutIEND = Array(bytes.dropLast(12))  // IEND is 12 bytes: length, type, CRC
        Self.expectError(withoutIEND, Self.noIEND)
        Self.expectError(withoutIEND + HandPNG.chunk("tEXt", Array("a\0b".utf8)), Self.noIEND)
        #expect(Self.noIEND.description == "x.png: corrupt PNG: no IEND chunk (the file ends after its last complete chunk)")
        // Cut inside IEND, or inside the image data: truncated, as before.
        Self.expectError(Array(bytes.dropLast(4)), .truncated(file: "x.png"))
        let idat = try #require(HandPNG.chunkData(bytes, type: "IDAT"))
        Self.expectError(Array(bytes[..<(idat.lowerBound + idat.count / 2)]), .truncated(file: "x.png"))
    }

    static let opaquePalette = [PNGPaletteEntry(red: 9, green: 8, blue: 7), PNGPaletteEntry(red: 1, green: 2, blue: 3)]

    @Test("a palette index past the palette is an error naming the index, not a black pixel")
    func paletteIndexPastPalette() {
        let bytes = PNGFile.encodeIndexed(width: 4, height: 1, indices: [0, 1, 1, 0], palette: Self.opaquePalette)
        #expect(chunks(bytes).map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        let onlyFirst = replacingChunk(bytes, type: "PLTE", with: [9, 8, 7])
        Self.expectError(onlyFirst, .corrupt(file: "x.png", reason: "palette index 1 is past the end of the palette (1 entry)"))
        // Indices within a shortened palette still decode.
        let far = PNGFile.encodeIndexed(width: 3, height: 3, indices: [0, 1, 0, 1, 0, 1, 0, 1, 0],
                                        palette: Self.opaquePalette + [PNGPaletteEntry(red: 5, green: 5, blue: 5)])
        let twoEntries = replacingChunk(far, type: "PLTE", with: [9, 8, 7, 1, 2, 3])
        #expect(throws: Never.self) { try PNGFile.decode(twoEntries, name: "x.png") }
        // Index 200 of 2 entries, not interlaced and interlaced.
        let indices: [UInt8] = [0, 1, 0, 200, 0, 1, 0, 1, 0]
        for interlaced in [false, true] {
            let bytes = HandPNG.signature
                + HandPNG.chunk("IHDR", HandPNG.ihdr(width: 3, height: 3, bitDepth: 8, colourType: 3, interlaced: interlaced))
                + HandPNG.chunk("PLTE", [9, 8, 7, 1, 2, 3])
                + HandPNG.chunk("IDAT", HandPNG.zlibStored(Self.rows(indices, width: 3, interlaced: interlaced)))
                + HandPNG.chunk("IEND", [])
            Self.expectError(bytes, .corrupt(file: "x.png", reason: "palette index 200 is past the end of the palette (2 entries)"))
        }
    }

    /// Filtered (type 0) rows of 8-bit samples; interlaced, the seven Adam7 passes of a
    /// 3 x 3 image, hand-worked: pass 1 (0,0); pass 4 (2,0); pass 5 (0,2), (2,2);
    /// pass 6 (1,0), (1,2); pass 7 the middle row (0,1), (1,1), (2,1).
    static func rows(_ samples: [UInt8], width: Int, interlaced: Bool) -> [UInt8] {
        func at(_ x: Int, _ y: Int) -> UInt8 { samples[y * width + x] }
        guard interlaced else {
            return stride(from: 0, to: samples.count, by: width).flatMap { [0] + samples[$0..<($0 + width)] }
        }
        return [0, at(0, 0)] + [0, at(2, 0)] + [0, at(0, 2), at(2, 2)] + [0, at(1, 0)] + [0, at(1, 2)]
            + [0, at(0, 1), at(1, 1), at(2, 1)]
    }

    @Test("a tRNS with more alpha values than PLTE has entries is an error naming both counts")
    func longTRNS() {
        let palette = [PNGPaletteEntry(red: 9, green: 8, blue: 7), PNGPaletteEntry(red: 1, green: 2, blue: 3, alpha: 4)]
        let bytes = PNGFile.encodeIndexed(width: 4, height: 1, indices: [0, 1, 1, 0], palette: palette)
        #expect(chunks(bytes).map(\.type) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(throws: Never.self) { try PNGFile.decode(bytes, name: "x.png") }
        let longer = replacingChunk(bytes, type: "tRNS", with: [255, 4, 7])
        Self.expectError(longer, .corrupt(file: "x.png", reason: "tRNS holds 3 alpha values, more than the 2 entries of PLTE"))
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
