import CLibDeflate
import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// The fast decoding path must be invisible: for any bytes, `PNGFile.decode` gives what
/// libpng alone (`decodeWithLibPNG`) gives, pixels or error, message included. These
/// tests also check that the fast path really ran where it should (or an agreement
/// would prove nothing) and stood aside where it must.
@Suite("Fast decoding path")
struct FastDecodeTests {
    /// Whether the fast path decodes `bytes` itself (rather than leaving them to libpng).
    static func fastPathTakes(_ bytes: [UInt8], limits: PNGLimits = .default) -> Bool {
        PNGFile.decodeWithFastPath(bytes, limits: limits) != nil
    }

    /// Decoding gives libpng's outcome; and the fast path took the file, or not.
    static func expectAgreement(_ bytes: [UInt8], fastPath: Bool, limits: PNGLimits = .default, _ comment: Comment? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let decoded = DecodeOutcome { () throws(PNGError) in try PNGFile.decode(bytes, name: "x.png", limits: limits) }
        let reference = DecodeOutcome { () throws(PNGError) in
            try PNGFile.decodeWithLibPNG(bytes, name: "x.png", limits: limits)
        }
        #expect(decoded == reference, comment, sourceLocation: sourceLocation)
        #expect(fastPathTakes(bytes, limits: limits) == fastPath, comment, sourceLocation: sourceLocation)
    }

    // MARK: Agreement where the fast path runs

    /// All 2376 committed goldens (written by this tool's encoder: palette, grey with alpha
    /// and RGBA images, rows filtered None, Sub or Up, one IDAT chunk each), one skin
    /// folder per test case so they run in parallel.
    @Test("every committed golden: the fast path decodes it, to libpng's pixels",
          arguments: try! FileManager.default.contentsOfDirectory(atPath: PackageFolders.goldens).sorted())
    func committedGoldens(skin: String) throws {
        let files = try committedGoldenPaths().filter { $0.hasPrefix(PackageFolders.goldens + "/" + skin + "/") }
        try #require(!files.isEmpty)
        for file in files {
            let bytes = try FileIO.readBytes(path: file)
            let fast = PNGFile.decodeWithFastPath(bytes)
            #expect(fast != nil, "\(file)")
            #expect(try fast == PNGFile.decodeWithLibPNG(bytes, name: file), "\(file)")
        }
    }

    @Test("goldens re-encoded by our encoder: fast path, same pixels")
    func reencodedGoldens() throws {
        let files = try committedGoldenPaths().enumerated().filter { $0.offset % 8 == 3 }.map(\.element)
        for file in files {
            let image = try PNGFile.decodeWithLibPNG(FileIO.readBytes(path: file), name: file)
            for compression in [PNGCompression.smallest, .fast] {
                let bytes = PNGFile.encode(image, compression: compression)
                #expect(PNGFile.decodeWithFastPath(bytes) == image, "\(file)")
            }
        }
    }

    @Test("every kind of image our encoder writes", arguments: CodecImages.Kind.allCases)
    func encoderOutput(kind: CodecImages.Kind) throws {
        for (n, (width, height)) in CodecImages.sizes.enumerated() {
            let image = CodecImages.image(kind, width: width, height: height, seed: UInt64(n + 40))
            for compression in [PNGCompression.smallest, .fast] {
                let bytes = PNGFile.encode(image, compression: compression)
                Self.expectAgreement(bytes, fastPath: true, "\(kind) \(width) x \(height)")
                #expect(try PNGFile.decode(bytes, name: "x.png") == image)
            }
        }
        let indexed = PNGFile.encodeIndexed(width: 3, height: 2, indices: [0, 1, 2, 2, 1, 0], palette: [
            PNGPaletteEntry(red: 1, green: 2, blue: 3), PNGPaletteEntry(red: 4, green: 5, blue: 6, alpha: 7),
            PNGPaletteEntry(red: 8, green: 9, blue: 10),
        ])
        Self.expectAgreement(indexed, fastPath: true)
    }

    /// The fixtures: the 8-bit non-interlaced ones without colour keys or extra chunks
    /// take the fast path; all agree with libpng (and with the hand-worked pixels).
    @Test("the fixtures", arguments: FixtureTable.all)
    func fixtures(_ fixture: Fixture) throws {
        let bytes = try Fixtures.bytes(fixture.file)
        let plain = fixture.bitDepth == 8 && !fixture.interlaced && !fixture.file.contains("trns")
            && !fixture.file.contains("ancillary")
        // palette8-trns.png does carry a tRNS the fast path reads; colour keys (tRNS for
        // grey and RGB) it leaves to libpng.
        Self.expectAgreement(bytes, fastPath: plain || fixture.file == "palette8-trns.png", "\(fixture.file)")
        #expect(rows(try PNGFile.decode(bytes, name: fixture.file)) == fixture.rows)
    }

    @Test("IDAT split into several chunks, including a 1-byte one")
    func splitIDAT() throws {
        let image = CodecImages.image(.popoverLike, width: 64, height: 64, seed: 3)
        let bytes = PNGFile.encode(image)
        let parts = chunks(bytes)
        let idat = try #require(parts.first { $0.type == "IDAT" }?.data)
        let split = HandPNG.signature + parts.flatMap { part -> [UInt8] in
            guard part.type == "IDAT" else { return HandPNG.chunk(part.type, part.data) }
            return HandPNG.chunk("IDAT", Array(idat[..<1])) + HandPNG.chunk("IDAT", Array(idat[1..<idat.count / 2]))
                + HandPNG.chunk("IDAT", Array(idat[(idat.count / 2)...]))
        }
        Self.expectAgreement(split, fastPath: true)
        #expect(try PNGFile.decode(split, name: "x") == image)
    }

    // MARK: Where the fast path stands aside

    @Test("a bad CRC in any chunk: libpng's error", arguments: ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
    func badCRC(chunk: String) throws {
        var bytes = PNGFile.encode(CodecImages.image(.fewColours, width: 20, height: 20, seed: 1))
        let range = try #require(HandPNG.chunkData(bytes, type: chunk))
        bytes[range.upperBound] ^= 0x40  // the first byte of its CRC
        Self.expectAgreement(bytes, fastPath: false)
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "x.png") } == .corrupt(file: "x.png", reason: "\(chunk): CRC error"))
    }

    @Test("a file cut anywhere: truncated, as libpng says")
    func truncated() throws {
        let bytes = PNGFile.encode(CodecImages.image(.fewColours, width: 20, height: 20, seed: 1))
        for cut in 1..<bytes.count {
            let prefix = Array(bytes[..<cut])
            #expect(!Self.fastPathTakes(prefix), "cut at \(cut)")
            #expect(pngError { _ = try PNGFile.decode(prefix, name: "x.png") }
                == pngError { _ = try PNGFile.decodeWithLibPNG(prefix, name: "x.png") }, "cut at \(cut)")
        }
    }

    @Test("interlaced files go to libpng", arguments: [
        (HandPNG.Form.rgba8, CodecImages.Kind.noise), (.rgb8, .opaqueColour), (.palette8, .fewColours),
        (.greyAlpha8, .greyAlpha),
    ])
    func interlaced(form: HandPNG.Form, kind: CodecImages.Kind) throws {
        let image = CodecImages.image(kind, width: 9, height: 9, seed: 1)
        let bytes = try #require(HandPNG.encode(image, as: form, interlaced: true))
        Self.expectAgreement(bytes, fastPath: false)
        #expect(try PNGFile.decode(bytes, name: "x") == image)
        // The same image not interlaced does take the fast path.
        Self.expectAgreement(try #require(HandPNG.encode(image, as: form)), fastPath: true)
    }

    @Test("16-bit files go to libpng")
    func sixteenBit() throws {
        let bytes = try #require(HandPNG.encode(CodecImages.image(.noise, width: 17, height: 16, seed: 4), as: .rgba16))
        Self.expectAgreement(bytes, fastPath: false)
    }

    @Test("bytes after IEND, an ancillary chunk, an unknown critical chunk: libpng decides")
    func unexpectedChunks() throws {
        let bytes = PNGFile.encode(CodecImages.image(.popoverLike, width: 30, height: 20, seed: 8))
        Self.expectAgreement(bytes + [0], fastPath: false, "a byte after IEND")
        Self.expectAgreement(bytes + HandPNG.chunk("tEXt", Array("a\0b".utf8)), fastPath: false, "a chunk after IEND")
        Self.expectAgreement(insertingChunk(bytes, HandPNG.chunk("gAMA", [0, 0, 0xB1, 0x8F]), before: "IDAT"),
                             fastPath: false, "gAMA")
        Self.expectAgreement(insertingChunk(bytes, HandPNG.chunk("tEXt", Array("a\0b".utf8)), before: "IEND"),
                             fastPath: false, "tEXt between IDAT and IEND")
        Self.expectAgreement(insertingChunk(bytes, HandPNG.chunk("ABCD", [1]), before: "IDAT"), fastPath: false,
                             "an unknown critical chunk")
        Self.expectAgreement(insertingChunk(bytes, HandPNG.chunk("PLTE", [1, 2, 3]), before: "IDAT"), fastPath: false,
                             "a suggested palette in an RGBA file")
        Self.expectAgreement(insertingChunk(bytes, HandPNG.chunk("IDAT", []), before: "IDAT"), fastPath: false,
                             "an empty IDAT")
        Self.expectAgreement(replacingChunk(bytes, type: "IEND", with: [0]), fastPath: false, "IEND with data")
    }

    @Test("palette trouble: an index past the palette, tRNS longer than PLTE, PLTE of 257 entries")
    func paletteTrouble() throws {
        let palette = [PNGPaletteEntry(red: 9, green: 8, blue: 7), PNGPaletteEntry(red: 1, green: 2, blue: 3, alpha: 4)]
        let bytes = PNGFile.encodeIndexed(width: 4, height: 1, indices: [0, 1, 1, 0], palette: palette)
        let shortPalette = replacingChunk(bytes, type: "PLTE", with: [9, 8, 7])  // index 1 is now past the end
        Self.expectAgreement(shortPalette, fastPath: false, "index past the palette")
        let longTRNS = replacingChunk(shortPalette, type: "tRNS", with: [255, 4])
        Self.expectAgreement(longTRNS, fastPath: false, "tRNS longer than PLTE")
        let hugePalette = replacingChunk(bytes, type: "PLTE", with: [UInt8](repeating: 5, count: 257 * 3))
        Self.expectAgreement(hugePalette, fastPath: false, "257 entries")
        Self.expectAgreement(replacingChunk(bytes, type: "PLTE", with: [9, 8, 7, 1]), fastPath: false, "PLTE of 4 bytes")
    }

    @Test("sizes over the limits are refused before anything is allocated, as libpng's path says")
    func limits() {
        let bytes = PNGFile.encode(CodecImages.image(.popoverLike, width: 30, height: 20, seed: 8))
        let tight = PNGLimits(maxSide: 25, maxPixels: 10_000)
        Self.expectAgreement(bytes, fastPath: false, limits: tight)
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "x.png", limits: tight) }
            == .tooLarge(file: "x.png", width: 30, height: 20, limits: tight))
        Self.expectAgreement(bytes, fastPath: true, limits: PNGLimits(maxSide: 30, maxPixels: 600))
    }

    // MARK: zlib streams: what a lenient inflater (libdeflate) accepts and zlib refuses

    /// The fast path inflates with zlib, as libpng does, so these are refused by zlib
    /// itself; they stay as proof that no stream libpng refuses decodes on the fast path.

    /// A grey 8-bit image of `width` x `height` whose IDAT is `stream`.
    static func greyPNG(width: Int, height: Int, stream: [UInt8]) -> [UInt8] {
        HandPNG.signature
            + HandPNG.chunk("IHDR", HandPNG.ihdr(width: width, height: height, bitDepth: 8, colourType: 0, interlaced: false))
            + HandPNG.chunk("IDAT", stream) + HandPNG.chunk("IEND", [])
    }

    /// For a stream libdeflate inflates but zlib refuses: the premise holds (libdeflate
    /// really accepts it, libpng really fails), and the fast path stands aside.
    static func expectLenientStreamRefused(_ stream: [UInt8], width: Int, height: Int,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(inflate(stream, size: (width + 1) * height) == [UInt8](repeating: 0, count: (width + 1) * height),
                "libdeflate should accept this stream", sourceLocation: sourceLocation)
        let bytes = greyPNG(width: width, height: height, stream: stream)
        let reference = pngError { _ = try PNGFile.decodeWithLibPNG(bytes, name: "x.png") }
        #expect(reference != nil, "libpng should refuse this stream", sourceLocation: sourceLocation)
        expectAgreement(bytes, fastPath: false, sourceLocation: sourceLocation)
    }

    @Test("literal/length symbol 286 (libdeflate: a length of 258)")
    func lengthSymbol286() {
        var w = DeflateWriter.fixedBlock()
        w.fixedLiteral(0)
        w.fixedLiteral(0)
        w.fixedLiteral(286)  // zlib: "invalid literal/length code"
        w.fixedDistance(0)
        w.fixedLiteral(256)
        Self.expectLenientStreamRefused(w.zlib(zeros: 260), width: 259, height: 1)
    }

    @Test("distance symbol 30 (libdeflate: 24577 and up)")
    func distanceSymbol30() {
        var w = DeflateWriter.fixedBlock()
        w.fixedLiteral(0)
        w.fixedLiteral(0)
        for _ in 0..<96 {  // 2 + 96 * 258 = 24770 zeros
            w.fixedLiteral(285)
            w.fixedDistance(0)
        }
        w.fixedLiteral(257)  // length 3
        w.fixedDistance(30)  // zlib: "invalid distance code"
        w.bits(0, count: 13)
        for _ in 0..<73 { w.fixedLiteral(0) }  // to 24846 = 246 rows of 101 bytes
        w.fixedLiteral(256)
        Self.expectLenientStreamRefused(w.zlib(zeros: 24846), width: 100, height: 246)
    }

    /// A dynamic block whose code-length code gives lengths 1, 8 and 9 (or 0, 8, 9).
    static func dynamicBlock(literalLengths: [Int], distanceLengths: [Int]) -> DeflateWriter {
        var w = DeflateWriter()
        w.bits(1, count: 1)  // final
        w.bits(2, count: 2)  // dynamic
        w.bits(literalLengths.count - 257, count: 5)
        w.bits(distanceLengths.count - 1, count: 5)
        let all = literalLengths + distanceLengths
        let used = Set(all)
        // Code-length code: the one length besides 8 and 9 gets a 1-bit code, 8 and 9 two bits.
        var precode = [Int](repeating: 0, count: 19)
        for symbol in used { precode[symbol] = symbol == 8 || symbol == 9 ? 2 : 1 }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let count = order.lastIndex { precode[$0] != 0 }! + 1
        w.bits(count - 4, count: 4)
        for i in 0..<count { w.bits(precode[order[i]], count: 3) }
        let precodeCodes = canonicalCodes(precode)
        for length in all { w.code(precodeCodes[length], length: precode[length]) }
        return w
    }

    @Test("287 literal/length codes in a dynamic header")
    func tooManyLengthCodes() {
        // 225 codes of 8 bits and 62 of 9 fill the codespace exactly.
        let literals = [Int](repeating: 8, count: 225) + [Int](repeating: 9, count: 62)
        var w = Self.dynamicBlock(literalLengths: literals, distanceLengths: [1])
        let codes = canonicalCodes(literals)
        for _ in 0..<4 { w.code(codes[0], length: literals[0]) }
        w.code(codes[256], length: literals[256])
        Self.expectLenientStreamRefused(w.zlib(zeros: 4), width: 3, height: 1)
    }

    /// 258 literal/length codes: 254 of 8 bits, 4 of 9 (256 end-of-block, 257 length 3).
    static let literals258 = [Int](repeating: 8, count: 254) + [Int](repeating: 9, count: 4)

    @Test("the unused codeword of a one-symbol distance code")
    func unusedDistanceCodeword() {
        var w = Self.dynamicBlock(literalLengths: Self.literals258, distanceLengths: [1])
        let codes = canonicalCodes(Self.literals258)
        w.code(codes[0], length: 8)
        w.code(codes[0], length: 8)
        w.code(codes[257], length: 9)  // length 3
        w.code(1, length: 1)  // distance codeword '1': zlib has none; libdeflate reads distance 1
        w.code(codes[256], length: 9)
        Self.expectLenientStreamRefused(w.zlib(zeros: 5), width: 4, height: 1)
    }

    @Test("a distance from an empty distance code")
    func emptyDistanceCode() {
        var w = Self.dynamicBlock(literalLengths: Self.literals258, distanceLengths: [0])
        let codes = canonicalCodes(Self.literals258)
        w.code(codes[0], length: 8)
        w.code(codes[0], length: 8)
        w.code(codes[257], length: 9)
        w.code(0, length: 1)  // libdeflate reads distance 1 from the empty code; zlib refuses
        w.code(codes[256], length: 9)
        Self.expectLenientStreamRefused(w.zlib(zeros: 5), width: 4, height: 1)
    }

    @Test("the one-symbol distance code used properly is fine for both")
    func oneSymbolDistanceCode() throws {
        var w = Self.dynamicBlock(literalLengths: Self.literals258, distanceLengths: [1])
        let codes = canonicalCodes(Self.literals258)
        w.code(codes[0], length: 8)
        w.code(codes[0], length: 8)
        w.code(codes[257], length: 9)
        w.code(0, length: 1)
        w.code(codes[256], length: 9)
        let bytes = Self.greyPNG(width: 4, height: 1, stream: w.zlib(zeros: 5))
        #expect(try PNGFile.decodeWithLibPNG(bytes, name: "x") == RGBAImage(width: 4, height: 1, pixels: [
            0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255,
        ]))
        Self.expectAgreement(bytes, fastPath: true)
    }

    /// Zeros: 1 literal, two runs of 258 at distance 1, then 3 at distance 300 and 80 at
    /// distance 1: 600 bytes, six rows of a 99-pixel grey image.
    static func farMatch(header: [UInt8]) -> [UInt8] {
        var w = DeflateWriter.fixedBlock()
        w.fixedLiteral(0)
        for _ in 0..<2 {
            w.fixedLiteral(285)  // length 258
            w.fixedDistance(0)  // distance 1
        }
        w.fixedLiteral(257)  // length 3
        w.fixedDistance(16)  // distances 257-384
        w.bits(300 - 257, count: 7)
        w.fixedLiteral(277)  // lengths 67-82
        w.bits(80 - 67, count: 4)
        w.fixedDistance(0)
        w.fixedLiteral(256)
        return header + Array(w.zlib(zeros: 600).dropFirst(2))
    }

    @Test("a match further back than the stream's declared window: libpng refuses it row by row, so the fast path stands aside")
    func windowSmallerThanImage() throws {
        // CMF 0x08: deflate with a 256-byte window; FLG 0x1D makes 0x081D a multiple of 31.
        let small = Self.greyPNG(width: 99, height: 6, stream: Self.farMatch(header: [0x08, 0x1D]))
        #expect(pngError { _ = try PNGFile.decodeWithLibPNG(small, name: "x.png") }
            == .corrupt(file: "x.png", reason: "IDAT: invalid distance too far back"))
        Self.expectAgreement(small, fastPath: false)
        // The same stream declaring a 32 KiB window decodes on both paths, to zeros.
        let large = Self.greyPNG(width: 99, height: 6, stream: Self.farMatch(header: [0x78, 0x01]))
        Self.expectAgreement(large, fastPath: true)
        #expect(try PNGFile.decode(large, name: "x.png")
            == RGBAImage(width: 99, height: 6, pixels: Array([0, 0, 0, 255].repeated(99 * 6))))
    }

    @Test("stream trouble: checksum, too little or too much data, data after the stream, bad filter type")
    func streamTrouble() throws {
        let width = 10, height = 3
        func stream(_ raw: [UInt8]) -> [UInt8] { HandPNG.zlibStored(raw) }
        let good = [UInt8](repeating: 0, count: (width + 1) * height)
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: stream(good)), fastPath: true)
        var badSum = stream(good)
        badSum[badSum.count - 1] ^= 1
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: badSum), fastPath: false, "Adler-32")
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: stream(Array(good.dropLast()))),
                             fastPath: false, "one byte short")
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: stream(good + [0])),
                             fastPath: false, "one byte too many")
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: stream(good) + [0, 0]),
                             fastPath: false, "bytes after the zlib stream")
        var badFilter = good
        badFilter[width + 1] = 5
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: stream(badFilter)),
                             fastPath: false, "filter type 5")
        var dictionary = stream(good)
        dictionary[1] = 0x20  // FDICT set; 0x7820 is a multiple of 31, so the check still holds
        Self.expectAgreement(Self.greyPNG(width: width, height: height, stream: dictionary), fastPath: false,
                             "preset dictionary")
    }
}

extension Array {
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}

/// DEFLATE streams written bit by bit (RFC 1951), to build the corners where
/// decompressors differ.
struct DeflateWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 8  // bits used in the last byte

    static func fixedBlock() -> DeflateWriter {
        var w = DeflateWriter()
        w.bits(1, count: 1)  // final
        w.bits(1, count: 2)  // fixed Huffman codes
        return w
    }

    /// `count` bits of `value`, least significant first (header fields, extra bits).
    mutating func bits(_ value: Int, count: Int) {
        for i in 0..<count {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            if value >> i & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << used) }
            used += 1
        }
    }

    /// A Huffman codeword, most significant bit first.
    mutating func code(_ codeword: Int, length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { bits(codeword >> i & 1, count: 1) }
    }

    /// The fixed literal/length code (RFC 1951, 3.2.6), symbols 0 to 287.
    mutating func fixedLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: code(0x30 + symbol, length: 8)
        case 144...255: code(0x190 + symbol - 144, length: 9)
        case 256...279: code(symbol - 256, length: 7)
        default: code(0xC0 + symbol - 280, length: 8)
        }
    }

    mutating func fixedDistance(_ symbol: Int) { code(symbol, length: 5) }

    /// The zlib stream around these bits, for content of `zeros` zero bytes.
    func zlib(zeros: Int) -> [UInt8] {
        // Adler-32 of zeros: a = 1, b = zeros (mod 65521).
        let adler = UInt32(zeros % 65521) << 16 | 1
        return [0x78, 0x01] + bytes + HandPNG.bigEndian(adler)
    }
}

/// Canonical Huffman codewords for code lengths (RFC 1951, 3.2.2).
func canonicalCodes(_ lengths: [Int]) -> [Int] {
    var count = [Int](repeating: 0, count: 16)
    for length in lengths where length > 0 { count[length] += 1 }
    var next = [Int](repeating: 0, count: 16)
    var code = 0
    for bits in 1...15 {
        code = (code + count[bits - 1]) << 1
        next[bits] = code
    }
    return lengths.map { length in
        guard length > 0 else { return 0 }
        defer { next[length] += 1 }
        return next[length]
    }
}
