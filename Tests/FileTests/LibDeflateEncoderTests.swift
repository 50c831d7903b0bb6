import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// The libdeflate encoder, judged by libspng: whatever it writes must decode to exactly the
/// pixels encoded, in the colour type the layout rules promise.
@Suite("Encoding through libdeflate")
struct LibDeflateEncoderTests {
    static let compressions: [PNGCompression] = [.smallest, .fast]

    @Test("every kind of image, every size, both compressions: libspng decodes the same pixels",
          arguments: CodecImages.Kind.allCases, compressions)
    func roundTrip(kind: CodecImages.Kind, compression: PNGCompression) throws {
        for (n, (width, height)) in CodecImages.sizes.enumerated() {
            let image = CodecImages.image(kind, width: width, height: height, seed: UInt64(n * 100 + 1))
            let bytes = PNGFile.encode(image, compression: compression)
            #expect(try PNGFile.decode(bytes, name: "x.png") == image, "\(kind) \(width) x \(height)")
            let header = PNGHeader(bytes)
            #expect(header == PNGHeader(width: width, height: height, bitDepth: 8, colourType: kind.colourType,
                                        interlaced: false), "\(kind) \(width) x \(height)")
        }
    }

    @Test("a 1 x 1 image of each kind of pixel", arguments: [
        (0, 0, 0, 0), (255, 255, 255, 255), (7, 7, 7, 255), (1, 2, 3, 255), (9, 9, 9, 9), (200, 100, 50, 25),
    ] as [(UInt8, UInt8, UInt8, UInt8)])
    func onePixel(r: UInt8, g: UInt8, b: UInt8, a: UInt8) throws {
        let image = RGBAImage(width: 1, height: 1, pixels: [r, g, b, a])
        for compression in Self.compressions {
            #expect(try PNGFile.decode(PNGFile.encode(image, compression: compression), name: "x.png") == image)
        }
    }

    @Test("the same pixels give the same bytes; different pixels different bytes",
          arguments: CodecImages.Kind.allCases)
    func deterministic(kind: CodecImages.Kind) {
        for compression in Self.compressions {
            let first = PNGFile.encode(CodecImages.image(kind, width: 64, height: 64, seed: 5), compression: compression)
            let second = PNGFile.encode(CodecImages.image(kind, width: 64, height: 64, seed: 5), compression: compression)
            #expect(first == second)
            #expect(first != PNGFile.encode(CodecImages.image(kind, width: 64, height: 64, seed: 6),
                                            compression: compression))
        }
    }

    @Test("only IHDR, PLTE and tRNS for palettes, one IDAT, IEND", arguments: CodecImages.Kind.allCases)
    func chunkLayout(kind: CodecImages.Kind) {
        let bytes = PNGFile.encode(CodecImages.image(kind, width: 33, height: 29, seed: 2))
        #expect(Array(bytes.prefix(8)) == HandPNG.signature)
        let types = chunks(bytes).map(\.type)
        #expect(types == (kind == .fewColours ? ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"] : ["IHDR", "IDAT", "IEND"]))
        // Every byte belongs to a chunk.
        #expect(8 + chunks(bytes).reduce(0) { $0 + 12 + $1.data.count } == bytes.count)
    }

    @Test("256 colours make a palette, 257 do not")
    func paletteLimit() throws {
        for count in [1, 2, 255, 256, 257] {
            var pixels: [UInt8] = []
            for i in 0..<count { pixels += [UInt8(i % 256), UInt8(i / 256), 0, 128] }
            let image = RGBAImage(width: count, height: 1, pixels: pixels)
            let bytes = PNGFile.encode(image)
            #expect(PNGHeader(bytes)?.colourType == (count <= 256 ? .palette : .rgba))
            #expect(try PNGFile.decode(bytes, name: "x.png") == image)
        }
    }

    @Test("palette entries in order of first appearance; tRNS up to the last translucent entry")
    func paletteOrder() throws {
        // Colours appear as C, A, B, A, C: entries C, A, B. Only A is translucent.
        let a: [UInt8] = [10, 20, 30, 40], b: [UInt8] = [50, 60, 70, 255], c: [UInt8] = [1, 2, 3, 255]
        let image = RGBAImage(width: 5, height: 1, pixels: c + a + b + a + c)
        let parts = chunks(PNGFile.encode(image))
        #expect(parts.first { $0.type == "PLTE" }?.data == [1, 2, 3, 10, 20, 30, 50, 60, 70])
        #expect(parts.first { $0.type == "tRNS" }?.data == [255, 40])
        // All opaque: no tRNS at all.
        let opaque = RGBAImage(width: 3, height: 1, pixels: c + b + [9, 8, 7, 255])
        #expect(!chunks(PNGFile.encode(opaque)).contains { $0.type == "tRNS" })
    }

    @Test("every row filter, and the minimum-sum choice among them, decode through libspng",
          arguments: [PNGFilterChoice.fixed(.none), .fixed(.sub), .fixed(.up),
                      .minimumSum(PNGFilter.allCases), .minimumSum([.up, .sub])])
    func everyFilter(choice: PNGFilterChoice) throws {
        let settings = PNGEncoder.Settings(level: 6, filters: choice)
        for kind in CodecImages.Kind.allCases {
            let image = CodecImages.image(kind, width: 33, height: 29, seed: 9)
            let bytes = PNGEncoder.encode(image, settings: settings)
            #expect(try PNGFile.decode(bytes, name: "x.png") == image, "\(kind)")
            // The filter types on the rows are the ones asked for.
            let types = try filterTypes(bytes, width: 33, height: 29, bytesPerPixel: bytesPerPixel(kind.colourType))
            // Palette rows are never filtered: indices are labels, not intensities.
            if kind.colourType == .palette {
                #expect(Set(types) == [0], "\(kind)")
            } else if case .fixed(let filter) = choice {
                #expect(Set(types) == [filter.rawValue], "\(kind)")
            }
        }
    }

    @Test("the fixtures survive encode then libspng decode", arguments: FixtureTable.all)
    func fixtures(_ fixture: Fixture) throws {
        let image = try PNGFile.decode(Fixtures.bytes(fixture.file), name: fixture.file)
        for compression in Self.compressions {
            #expect(try PNGFile.decode(PNGFile.encode(image, compression: compression), name: "x") == image)
        }
    }

    /// Every 16th committed golden, re-encoded: the pixels survive, and `.smallest` is no
    /// larger than what is committed (over the whole set it is about 7% smaller).
    @Test("committed goldens re-encode to the same pixels, no larger")
    func goldens() throws {
        let files = try committedGoldenPaths().enumerated().filter { $0.offset % 16 == 0 }.map(\.element)
        try #require(files.count > 100)
        var committed = 0, smallest = 0
        for file in files {
            let bytes = try FileIO.readBytes(path: file)
            let image = try PNGFile.decode(bytes, name: file)
            let small = PNGFile.encode(image, compression: .smallest)
            #expect(try PNGFile.decode(small, name: file) == image, "\(file)")
            #expect(try PNGFile.decode(PNGFile.encode(image, compression: .fast), name: file) == image)
            committed += bytes.count
            smallest += small.count
        }
        #expect(smallest <= committed, "\(smallest) bytes re-encoded vs \(committed) committed")
    }

    // MARK: Indexed images

    @Test("indexed images decode to their palette's colours", arguments: [1, 2, 16, 200, 256])
    func indexed(paletteSize: Int) throws {
        var random = SplitMix64(seed: UInt64(paletteSize))
        let palette = (0..<paletteSize).map { i in
            PNGPaletteEntry(red: UInt8(truncatingIfNeeded: random.next()), green: UInt8(truncatingIfNeeded: random.next()),
                            blue: UInt8(i % 256), alpha: i % 3 == 0 ? 255 : UInt8(truncatingIfNeeded: random.next()))
        }
        for (width, height) in [(1, 1), (37, 21), (300, 2)] {
            let indices = (0..<width * height).map { i in UInt8((i / 5 + Int(random.next() % 2)) % paletteSize) }
            var expected: [UInt8] = []
            for index in indices {
                let entry = palette[Int(index)]
                expected += [entry.red, entry.green, entry.blue, entry.alpha]
            }
            for compression in Self.compressions {
                let bytes = PNGFile.encodeIndexed(width: width, height: height, indices: indices, palette: palette,
                                                  compression: compression)
                #expect(try PNGFile.decode(bytes, name: "heatmap.png")
                    == RGBAImage(width: width, height: height, pixels: expected))
                #expect(PNGHeader(bytes)?.colourType == .palette)
                #expect(bytes == PNGFile.encodeIndexed(width: width, height: height, indices: indices, palette: palette,
                                                       compression: compression))
            }
        }
    }

    @Test("an opaque palette writes no tRNS")
    func indexedOpaque() throws {
        let palette = [PNGPaletteEntry(red: 255, green: 0, blue: 0), PNGPaletteEntry(red: 0, green: 0, blue: 255)]
        let bytes = PNGFile.encodeIndexed(width: 2, height: 2, indices: [0, 1, 1, 0], palette: palette)
        #expect(chunks(bytes).map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        #expect(try PNGFile.decode(bytes, name: "x").pixels
            == [255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255])
    }
}

func committedGoldenPaths() throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: PackageFolders.goldens)
        .filter { $0.hasSuffix(".png") }.sorted().map { PackageFolders.goldens + "/" + $0 }
}

func bytesPerPixel(_ type: PNGColourType) -> Int {
    switch type {
    case .grey, .palette: 1
    case .greyAlpha: 2
    case .rgb: 3
    case .rgba: 4
    }
}

/// The filter type of each row, read by inflating IDAT with a stored-block-agnostic
/// decoder: libdeflate (decompression only, which these tests trust).
func filterTypes(_ bytes: [UInt8], width: Int, height: Int, bytesPerPixel: Int) throws -> [UInt8] {
    let idat = chunks(bytes).filter { $0.type == "IDAT" }.flatMap(\.data)
    let rowBytes = width * bytesPerPixel + 1
    let raw = try #require(inflate(idat, size: rowBytes * height))
    return (0..<height).map { raw[$0 * rowBytes] }
}
