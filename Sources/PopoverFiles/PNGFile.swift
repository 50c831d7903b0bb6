import PopoverImage

/// PNG files in and out. Encoding is ours, through libdeflate (`PNGEncoder`): only the
/// chunks the image needs, in the smallest 8-bit colour type that keeps every pixel exact.
/// Decoding is libspng's (`PNGDecoder`), held strict: any PNG (every colour type, bit
/// depth and interlace) becomes 8-bit straight RGBA, samples taken as stored (no gamma or
/// colour profile applied), which is what a pixel comparison wants; docs/goldens.md gives
/// the rules.
public enum PNGFile {
    /// What decides the pixels a file decodes to (`PNGDecoder.version`), for caches of them.
    public static let decoderVersion = PNGDecoder.version

    /// Decodes PNG bytes; `name` (usually the path) is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String, limits: PNGLimits = .default) throws(PNGError) -> RGBAImage {
        // Array's withUnsafeBytes rethrows untyped: the typed error travels in a Result.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PNGError) in try PNGDecoder.decode(buffer, name: name, limits: limits) }
        }
        do {
            return try result.get()
        } catch .notPNG where isGitLFSPointer(bytes) {
            throw .gitLFSPointer(file: name)
        }
    }

    /// Reads and decodes the PNG file at `path`.
    public static func read(path: String) throws(PNGError) -> RGBAImage {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path: path)
        } catch {
            throw .unreadable(file: path, reason: error.reason)
        }
        return try decode(bytes, name: path)
    }

    /// Whether `bytes` are a Git LFS pointer file (its first line names the LFS spec).
    static func isGitLFSPointer(_ bytes: [UInt8]) -> Bool {
        let header = Array("version https://git-lfs.github.com/spec/".utf8)
        return bytes.count >= header.count && bytes.prefix(header.count).elementsEqual(header)
    }

    /// Encodes as IHDR, PLTE and tRNS for palette images, one IDAT and IEND, in the
    /// smallest exact colour type (`PNGSampleLayout`): any decoder gives back exactly
    /// `image`'s RGBA bytes, and identical pixels give identical bytes (no time or text
    /// chunk). The image must be at least 1 x 1.
    public static func encode(_ image: RGBAImage, compression: PNGCompression = .smallest) -> [UInt8] {
        precondition(image.width > 0 && image.height > 0, "a PNG cannot hold a \(image.width) x \(image.height) image")
        return PNGEncoder.encode(image, settings: compression.settings)
    }

    /// Encodes an 8-bit palette image: `indices` holds one index per pixel, row by row,
    /// each below `palette.count` (1 to 256 entries). For images of few colours, such as
    /// heatmaps, this skips the search for colours `encode` makes.
    public static func encodeIndexed(width: Int, height: Int, indices: [UInt8], palette: [PNGPaletteEntry],
                                     compression: PNGCompression = .smallest) -> [UInt8] {
        precondition(width > 0 && height > 0 && indices.count == width * height,
                     "\(indices.count) palette indices do not make a \(width) x \(height) image")
        // libspng decodes an index past the palette as opaque black, without a word.
        precondition(Int(indices.max() ?? 0) < palette.count, "palette index \(indices.max() ?? 0) with \(palette.count) entries")
        return indices.withUnsafeBufferPointer {
            PNGEncoder.encodeIndexed(width: width, height: height, indices: $0, palette: palette, settings: compression.settings)
        }
    }

    /// Encodes and writes atomically (see `FileIO.writeAtomically`).
    public static func write(_ image: RGBAImage, to path: String) throws(FileError) {
        try FileIO.writeAtomically(encode(image), to: path)
    }
}
