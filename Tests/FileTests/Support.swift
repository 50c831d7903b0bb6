import Foundation
import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// Where the committed fixtures live: beside this file, found through #filePath so the
/// package needs no resource declarations (the suite also runs in release builds).
enum Fixtures {
    static let directory: String = {
        let here = "\(#filePath)"
        return String(here[..<here.lastIndex(of: "/")!]) + "/.fixtures"
    }()

    static func path(_ name: String) -> String { "\(directory)/\(name)" }

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileIO.readBytes(path: path(name))
    }
}

/// Pixels written as "rrggbbaa" words, one string per row, as in the fixture tables.
func pixels(_ rows: [String]) -> [UInt8] {
    rows.flatMap { row in
        row.split(separator: " ").flatMap { word -> [UInt8] in
            precondition(word.count == 8, "pixel \(word) is not 8 hex digits")
            let value = UInt32(word, radix: 16)!
            return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
    }
}

/// The pixels as "rrggbbaa" words per row, for readable failure messages.
func rows(_ image: RGBAImage) -> [String] {
    (0..<image.height).map { y in
        (0..<image.width).map { x in
            let p = image[x, y]
            return [p.r, p.g, p.b, p.a].map { String(format: "%02x", $0) }.joined()
        }.joined(separator: " ")
    }
}

/// Runs `body` and returns the PNGError it throws, or nil (recording an issue) if it
/// throws nothing or something else.
func pngError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> PNGError? {
    thrown(PNGError.self, body, sourceLocation: sourceLocation)
}

/// Runs `body` and returns the FileError it throws, or nil (recording an issue) if it
/// throws nothing or something else.
func fileError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> FileError? {
    thrown(FileError.self, body, sourceLocation: sourceLocation)
}

private func thrown<E: Error>(_ type: E.Type, _ body: () throws -> Void, sourceLocation: SourceLocation) -> E? {
    do {
        try body()
        Issue.record("expected a \(E.self), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected a \(E.self), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A deterministic pseudo-random image, with every fifth pixel fully transparent: their
/// colour must survive because the format is straight, not premultiplied.
func patternImage(width: Int, height: Int, seed: UInt64) -> RGBAImage {
    var random = SplitMix64(seed: seed)
    var bytes = (0..<(width * height * 4)).map { _ in random.byte() }
    for pixel in stride(from: 2, to: width * height, by: 5) { bytes[pixel * 4 + 3] = 0 }
    return RGBAImage(width: width, height: height, pixels: bytes)
}

