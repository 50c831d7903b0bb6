import Foundation
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// Bad input must come back as a PNGError naming the file; never a crash, never a huge
/// allocation.
@Suite("Hostile and damaged input")
struct HostileInputTests {
    // MARK: Headers

    @Test("a header claiming 100000 x 100000 pixels is refused before allocating")
    func hugeHeader() throws {
        let path = Fixtures.path("hostile-100000x100000.png")
        let error = pngError { _ = try PNGFile.read(path: path) }
        #expect(error == .tooLarge(file: path, width: 100_000, height: 100_000, limits: .default))
        #expect(error?.description
            == "\(path): header claims 100000 x 100000 pixels, more than the limit of 16384 on a side / 64 Mpx")
    }

    @Test("one side over the limit, or too many pixels in total, is too large",
          arguments: [("hostile-16385x1.png", 16385, 1), ("hostile-8193x8193.png", 8193, 8193)])
    func overLimits(file: String, width: Int, height: Int) {
        let path = Fixtures.path(file)
        #expect(pngError { _ = try PNGFile.read(path: path) }
            == .tooLarge(file: path, width: width, height: height, limits: .default))
    }

    @Test("a zero width or height is refused, naming the side", arguments: [("hostile-0x3.png", "width"), ("hostile-5x0.png", "height")])
    func zeroSize(file: String, side: String) throws {
        let path = Fixtures.path(file)
        let error = pngError { _ = try PNGFile.read(path: path) }
        #expect(error == .corrupt(file: path, reason: "invalid image \(side)"))
        #expect(error?.description == "\(path): corrupt PNG: invalid image \(side)")
    }

    // MARK: Corrupt data: libspng's message, prefixed with the file

    @Test("the decoder's complaint is passed on", arguments: [
        ("hostile-bit-depth-3.png", "bit depth"),
        ("hostile-2147483648x1.png", "width"),
        ("hostile-not-zlib.png", "IDAT"),
        ("hostile-short-idat.png", "IDAT stream too short"),
        ("hostile-unknown-critical.png", "unknown critical chunk"),
        ("hostile-palette-missing.png", "PLTE"),
    ])
    func corrupt(file: String, reasonMentions: String) {
        let path = Fixtures.path(file)
        let error = pngError { _ = try PNGFile.read(path: path) }
        guard case .corrupt(let named, let reason)? = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(reason.contains(reasonMentions), "reason: \(reason)")
        #expect(error?.description == "\(path): corrupt PNG: \(reason)")
    }

    /// An ancillary chunk's CRC is checked too (libspng's default would skip the chunk).
    /// IHDR's fields are read before its CRC: grey8.png is 5 x 3, and its width's first
    /// byte flipped claims 0x01000005 pixels across.
    @Test("a flipped byte in any chunk is an error naming the file", arguments: [
        ("grey8.png", "IDAT", PNGError.corrupt(file: "Goldens/x.png", reason: "IDAT stream error")),
        ("grey8.png", "IHDR", .tooLarge(file: "Goldens/x.png", width: 16_777_221, height: 3, limits: .default)),
        ("grey8-ancillary.png", "gAMA", .corrupt(file: "Goldens/x.png", reason: "invalid chunk checksum")),
        ("palette2.png", "PLTE", .corrupt(file: "Goldens/x.png", reason: "invalid chunk checksum")),
    ])
    func badCRC(file: String, chunk: String, expected: PNGError) throws {
        var bytes = try Fixtures.bytes(file)
        let dataStart = try #require(chunkDataOffset(bytes, type: chunk))
        bytes[dataStart] ^= 0x01
        #expect(pngError { _ = try PNGFile.decode(bytes, name: "Goldens/x.png") } == expected)
    }

    // MARK: Truncated, empty, not a PNG

    /// Except a cut inside IEND's CRC, the last four bytes: libspng has read all it reads
    /// by then, and the file is said not to end with a whole IEND.
    @Test("a file cut anywhere is truncated, or does not end with IEND", arguments: ["grey1.png", "rgb16-trns-adam7.png", "grey8-ancillary.png"])
    func truncatedEverywhere(file: String) throws {
        let bytes = try Fixtures.bytes(file)
        #expect(Array(bytes.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])  // IEND, its CRC
        for cut in 1..<bytes.count {
            let error = pngError { _ = try PNGFile.decode(Array(bytes[..<cut]), name: file) }
            if cut >= bytes.count - 4 {
                #expect(error == .corrupt(file: file, reason: "the file does not end with a whole IEND chunk (cut short, or data after it)"),
                        "cut at \(cut) of \(bytes.count)")
            } else {
                #expect(error == .truncated(file: file), "cut at \(cut) of \(bytes.count)")
            }
        }
        // Bytes after IEND: the same.
        #expect(pngError { _ = try PNGFile.decode(bytes + [0], name: file) }
            == .corrupt(file: file, reason: "the file does not end with a whole IEND chunk (cut short, or data after it)"))
        let error = PNGError.truncated(file: "Goldens/x.png")
        #expect(error.description == "Goldens/x.png: truncated PNG (the data ends before the image is complete)")
    }

    @Test("no bytes at all is an empty file")
    func emptyInput() throws {
        #expect(pngError { _ = try PNGFile.decode([], name: "x.png") } == .empty(file: "x.png"))
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file("empty.png")
        try FileIO.writeAtomically([], to: path)
        let error = pngError { _ = try PNGFile.read(path: path) }
        #expect(error == .empty(file: path))
        #expect(error?.description == "\(path): empty file (0 bytes), not a PNG")
    }

    @Test("text, JPEG and a line-ending-damaged PNG are not PNGs", arguments: [
        Array("This is a text file, not an image.\n".utf8),
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01],
        [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D],
        [0x00],
    ])
    func notPNG(bytes: [UInt8]) {
        let error = pngError { _ = try PNGFile.decode(bytes, name: "Goldens/x.png") }
        #expect(error == .notPNG(file: "Goldens/x.png"))
        #expect(error?.description == "Goldens/x.png: not a PNG file (the first 8 bytes are not the PNG signature)")
    }

    /// Every single-bit change at two bit positions of every byte, in every fixture: each
    /// must decode or throw a PNGError naming the file. (In practice the CRCs catch all.)
    @Test("flipped bits never crash", arguments: FixtureTable.all.map(\.file))
    func flippedBits(file: String) throws {
        let original = try Fixtures.bytes(file)
        for index in original.indices {
            for bit: UInt8 in [0x01, 0x80] {
                var bytes = original
                bytes[index] ^= bit
                do {
                    _ = try PNGFile.decode(bytes, name: "fuzz.png")
                } catch {
                    #expect(error.description.hasPrefix("fuzz.png: "))
                }
            }
        }
    }

    // MARK: Files that cannot be read

    @Test("a missing file is unreadable, with the OS's reason")
    func missingFile() {
        let path = "/nonexistent-\(UInt64.random(in: 0 ... .max))/x.png"
        let error = pngError { _ = try PNGFile.read(path: path) }
        #expect(error == .unreadable(file: path, reason: "No such file or directory"))
        #expect(error?.description == "\(path): cannot read: No such file or directory")
    }

    @Test("a directory is not a PNG file")
    func directory() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        #expect(pngError { _ = try PNGFile.read(path: directory.path) }
            == .unreadable(file: directory.path, reason: "Is a directory"))
    }

    @Test("a FIFO is refused at once, not waited on")
    func fifo() throws {
        let directory = TemporaryFolder()
        defer { directory.remove() }
        let path = directory.file("pipe.png")
        try #require(mkfifo(path, 0o600) == 0)
        #expect(pngError { _ = try PNGFile.read(path: path) }
            == .unreadable(file: path, reason: "is a FIFO (named pipe), not a regular file"))
    }
}

/// Offset of the data of the first chunk of `type`, walking the chunk list.
func chunkDataOffset(_ bytes: [UInt8], type: String) -> Int? {
    var offset = 8
    while offset + 8 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
        if name == type { return offset + 8 }
        offset += 12 + length
    }
    return nil
}

/// The chunk types of a PNG, in order.
func chunkTypes(_ bytes: [UInt8]) -> [String] {
    var types: [String] = []
    var offset = 8
    while offset + 8 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
        offset += 12 + length
    }
    return types
}
