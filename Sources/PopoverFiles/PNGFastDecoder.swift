import CLibZ
import PopoverImage

/// A decoder for the PNGs `PNGEncoder` writes (and similar plain files): 8-bit grey,
/// grey with alpha, RGB, RGBA or palette (PLTE, optional tRNS), not interlaced, with no
/// other chunks. It inflates the whole image in one call to zlib, the inflater libpng
/// itself uses, then unfilters and expands to RGBA itself, where libpng works row by row
/// through its general transformations; it gives exactly the RGBA that libpng's path
/// gives. (Bench: "PNG decode, fast path" against "PNG decode, libpng".)
///
/// It answers nil, leaving the file to libpng, at the first thing it does not expect:
/// another bit depth or interlacing, any chunk beyond IHDR, PLTE, tRNS, IDAT and IEND or
/// in another order, a CRC mismatch, a size over the limits, a zlib stream zlib rejects,
/// too much or too little image data, bytes after IEND, a filter type or palette index
/// out of range. So every error, and its message, still comes from libpng, and no
/// verdict depends on which path ran.
enum PNGFastDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: PNGLimits) -> RGBAImage? {
        guard var chunks = PNGChunkReader(bytes), let header = chunks.next(), header.type == PNGChunks.IHDR,
              let format = Format(ihdr: header.data), limits.admits(width: format.width, height: format.height)
        else { return nil }

        var palette: [UInt32] = []
        var chunk = chunks.next()
        if format.kind == .palette {
            guard let plte = chunk, plte.type == PNGChunks.PLTE, let entries = readPalette(plte.data) else { return nil }
            palette = entries
            chunk = chunks.next()
            if let trns = chunk, trns.type == PNGChunks.tRNS {
                guard (1...palette.count).contains(trns.data.count) else { return nil }
                for (i, alpha) in trns.data.enumerated() {
                    palette[i] = palette[i] & 0x00FF_FFFF | UInt32(alpha) << 24
                }
                chunk = chunks.next()
            }
        }
        // One or more IDAT chunks in a row, then IEND (empty) and nothing after it.
        var idats: [UnsafeRawBufferPointer] = []
        while let idat = chunk, idat.type == PNGChunks.IDAT, idat.data.count > 0 {
            idats.append(idat.data)
            chunk = chunks.next()
        }
        guard !idats.isEmpty, let end = chunk, end.type == PNGChunks.IEND, end.data.count == 0, chunks.atEnd else {
            return nil
        }

        let rowBytes = format.width * format.kind.bytesPerPixel
        let (filteredSize, overflow) = (rowBytes + 1).multipliedReportingOverflow(by: format.height)
        guard !overflow else { return nil }
        return withJoined(idats) { stream -> RGBAImage? in
            let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredSize)
            defer { filtered.deallocate() }
            guard inflate(stream, into: filtered, count: filteredSize),
                  unfilter(filtered, rowBytes: rowBytes, height: format.height,
                           bytesPerPixel: format.kind.bytesPerPixel) else { return nil }
            return expand(filtered, format: format, palette: palette)
        }
    }

    /// What IHDR says, if it is a form this decoder handles.
    private struct Format {
        var width: Int
        var height: Int
        var kind: PNGSampleLayout.Kind

        init?(ihdr: UnsafeRawBufferPointer) {
            guard ihdr.count == 13 else { return nil }
            let p = ihdr.baseAddress!
            width = Int(readBigEndian(p))
            height = Int(readBigEndian(p + 4))
            // Sizes are 1 to 2^31 - 1; bit depth 8; compression, filter method and
            // interlacing all 0.
            guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height), ihdr[8] == 8,
                  let kind = PNGSampleLayout.Kind(rawValue: ihdr[9]), ihdr[10] == 0, ihdr[11] == 0, ihdr[12] == 0
            else { return nil }
            self.kind = kind
        }
    }

    /// PLTE's entries (opaque until tRNS says otherwise), if it holds 1 to 256 of them.
    private static func readPalette(_ data: UnsafeRawBufferPointer) -> [UInt32]? {
        guard data.count % 3 == 0, (1...256).contains(data.count / 3) else { return nil }
        return (0..<data.count / 3).map { i in
            UInt32(data[i * 3]) | UInt32(data[i * 3 + 1]) << 8 | UInt32(data[i * 3 + 2]) << 16 | 0xFF00_0000
        }
    }

    /// Runs `body` on the IDAT data as one buffer: the chunk itself when there is one,
    /// else a joined copy.
    private static func withJoined<T>(_ parts: [UnsafeRawBufferPointer], _ body: (UnsafeRawBufferPointer) -> T) -> T {
        if parts.count == 1 { return body(parts[0]) }
        let joined = parts.reduce(into: [UInt8]()) { $0.append(contentsOf: $1) }
        return joined.withUnsafeBytes(body)
    }

    /// Inflates the zlib stream into exactly `count` bytes with zlib, using all of it and
    /// checking its Adler-32; false if it is not exactly that.
    private static func inflate(_ stream: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>,
                                count: Int) -> Bool {
        guard stream.count >= 2, stream.count <= Int(UInt32.max), count <= Int(UInt32.max) else { return false }
        // libpng inflates a row at a time, keeping earlier rows only in a window of the
        // size the stream's header declares; in one call here, a match may reach any
        // earlier output. The two agree when the window is zlib's largest (as DEFLATE
        // cannot reach further) or holds the whole image; other streams go to libpng.
        let windowBits = Int(stream.load(as: UInt8.self) >> 4) + 8
        guard windowBits == 15 || (windowBits < 15 && 1 << windowBits >= count) else { return false }
        var z = z_stream()
        // Window bits 0: the window the stream's header declares, as libpng asks for.
        guard inflateInit2_(&z, 0, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&z) }
        z.next_in = UnsafeMutablePointer(mutating: stream.baseAddress!.assumingMemoryBound(to: UInt8.self))
        z.avail_in = UInt32(stream.count)
        z.next_out = out
        z.avail_out = UInt32(count)
        return CLibZ.inflate(&z, Z_FINISH) == Z_STREAM_END && z.avail_in == 0 && z.avail_out == 0
    }

    /// Undoes the row filters in place; false for an undefined filter type.
    private static func unfilter(_ data: UnsafeMutablePointer<UInt8>, rowBytes: Int, height: Int,
                                 bytesPerPixel: Int) -> Bool {
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: max(rowBytes, 1))
        zeros.initialize(repeating: 0, count: max(rowBytes, 1))
        defer { zeros.deallocate() }
        for y in 0..<height {
            let row = data + y * (rowBytes + 1)
            let above = y == 0 ? UnsafePointer(zeros) : UnsafePointer(row - rowBytes)
            guard PNGRowFilters.unfilter(row[0], row + 1, above, rowBytes, bytesPerPixel) else { return false }
        }
        return true
    }

    /// Samples (rows still prefixed with their filter type) to straight RGBA, as
    /// libpng's path converts: grey to r = g = b, alpha 255 where there is none, palette
    /// entries with tRNS alphas. Nil for a palette index past the palette.
    private static func expand(_ data: UnsafePointer<UInt8>, format: Format, palette: [UInt32]) -> RGBAImage? {
        let width = format.width, height = format.height, bpp = format.kind.bytesPerPixel
        let rowBytes = width * bpp
        var valid = true
        // Palette entries as the 4 bytes r, g, b, a in memory order.
        let lookup = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        lookup.initialize(repeating: 0, count: 256)
        defer { lookup.deallocate() }
        for (i, entry) in palette.enumerated() { lookup[i] = entry.littleEndian }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
            let o = out.baseAddress!
            for y in 0..<height {
                let s = data + y * (rowBytes + 1) + 1
                let d = o + y * width * 4
                switch format.kind {
                case .rgba:
                    d.update(from: s, count: rowBytes)
                case .rgb:
                    for x in 0..<width {
                        d[x * 4] = s[x * 3]
                        d[x * 4 + 1] = s[x * 3 + 1]
                        d[x * 4 + 2] = s[x * 3 + 2]
                        d[x * 4 + 3] = 255
                    }
                case .grey:
                    for x in 0..<width {
                        let g = s[x]
                        d[x * 4] = g
                        d[x * 4 + 1] = g
                        d[x * 4 + 2] = g
                        d[x * 4 + 3] = 255
                    }
                case .greyAlpha:
                    for x in 0..<width {
                        let g = s[x * 2]
                        d[x * 4] = g
                        d[x * 4 + 1] = g
                        d[x * 4 + 2] = g
                        d[x * 4 + 3] = s[x * 2 + 1]
                    }
                case .palette:
                    // A full 256-entry table keeps the loop free of range checks; indices
                    // past the palette are caught by the largest index seen.
                    var largest: UInt8 = 0
                    let table = UnsafeRawPointer(lookup)
                    let raw = UnsafeMutableRawPointer(d)
                    for x in 0..<width {
                        let index = s[x]
                        largest = max(largest, index)
                        raw.storeBytes(of: table.load(fromByteOffset: Int(index) * 4, as: UInt32.self),
                                       toByteOffset: x * 4, as: UInt32.self)
                    }
                    if Int(largest) >= palette.count { valid = false }
                }
            }
            initialized = width * height * 4
        }
        return valid ? RGBAImage(width: width, height: height, pixels: pixels) : nil
    }
}
