import CLibDeflate

/// The checks made before libspng reads a file, in one pass over its bytes, where
/// libspng is lenient or says less than a report reader needs:
/// - the signature and IHDR's size first, so that a zero size is named with the size it
///   claims (libspng says only "invalid width");
/// - every chunk's CRC, ancillary ones too, naming the chunk (libspng discards an
///   ancillary chunk with a bad CRC, and a damaged IDAT surfaces as a zlib error);
/// - a cut anywhere is "truncated" (libspng stops reading at IEND's type, before its CRC);
/// - an unknown critical chunk is named;
/// - a palette image's tRNS with more alpha values than PLTE has entries is refused,
///   naming both counts (libspng decodes the image as if tRNS were not there).
enum PNGChunkCheck {
    /// The empty file, the signature, and a zero size in IHDR (when IHDR is whole with a
    /// good CRC; otherwise the chunk pass or libspng says what is wrong).
    static func checkStart(_ bytes: UnsafeRawBufferPointer, name: String) throws(PNGError) {
        guard bytes.count > 0 else { throw .empty(file: name) }
        let signature = PNGChunks.signature
        guard bytes.prefix(signature.count).elementsEqual(signature.prefix(bytes.count)) else {
            throw .notPNG(file: name)
        }
        guard bytes.count >= signature.count else { throw .truncated(file: name) }
        // Signature (8), IHDR's length (4), type (4), data (13), CRC (4).
        guard bytes.count >= 33, bigEndian(bytes, 8) == 13, bigEndian(bytes, 12) == PNGChunks.IHDR,
              crcMatches(bytes, chunkAt: 8, length: 13) else { return }
        let width = Int(bigEndian(bytes, 16)), height = Int(bigEndian(bytes, 20))
        if width == 0 || height == 0 { throw .zeroSize(file: name, width: width, height: height) }
    }

    /// Walks every chunk after the signature up to IEND. Returns whether IEND is there:
    /// false for a file that ends after whole chunks without it, which is "truncated" if
    /// the image is not complete by then and "no IEND" if it is (only decoding tells).
    static func checkChunks(_ bytes: UnsafeRawBufferPointer, name: String) throws(PNGError) -> Bool {
        let paletteImage = bytes.count >= 33 && bytes[25] == 3
        var paletteEntries = 0
        var offset = PNGChunks.signature.count
        while offset < bytes.count {
            guard bytes.count - offset >= 12 else { throw .truncated(file: name) }
            let length = Int(bigEndian(bytes, offset)), type = bigEndian(bytes, offset + 4)
            let typeName = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= PNGChunks.maxLength else {
                throw .corrupt(file: name, reason: "a chunk at byte \(offset) claims \(length) bytes, beyond PNG's 2^31 - 1")
            }
            guard bytes[offset + 4..<offset + 8].allSatisfy(isLetter) else {
                throw .corrupt(file: name, reason: "the chunk at byte \(offset) has a type that is not four letters")
            }
            guard bytes.count - offset - 12 >= length else { throw .truncated(file: name) }
            guard crcMatches(bytes, chunkAt: offset, length: length) else {
                throw .corrupt(file: name, reason: "\(typeName): CRC error")
            }
            // A capital first letter marks a chunk critical: a decoder must understand it.
            let critical = bytes[offset + 4] < UInt8(ascii: "a")
            if critical, ![PNGChunks.IHDR, PNGChunks.PLTE, PNGChunks.IDAT, PNGChunks.IEND].contains(type) {
                throw .corrupt(file: name, reason: "\(typeName): unknown critical chunk")
            }
            if paletteImage, type == PNGChunks.PLTE, paletteEntries == 0 { paletteEntries = length / 3 }
            if paletteImage, type == PNGChunks.tRNS, paletteEntries > 0, length > paletteEntries {
                throw .corrupt(file: name, reason: "tRNS holds \(length) alpha values, more than the \(paletteEntries) entries of PLTE")
            }
            if type == PNGChunks.IEND { return true }
            offset += 12 + length
        }
        return false
    }

    /// Whether the IDAT chunks' data is one whole zlib stream, its Adler-32 matching: the
    /// image data is complete, not cut after the last row's bytes. Inflates it all, so it
    /// is asked only of a file that lacks IEND.
    static func imageDataIsWhole(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int) -> Bool {
        var stream: [UInt8] = []
        var offset = PNGChunks.signature.count
        while bytes.count - offset >= 12 {
            let length = Int(bigEndian(bytes, offset))
            guard bytes.count - offset - 12 >= length else { break }
            if bigEndian(bytes, offset + 4) == PNGChunks.IDAT { stream += bytes[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        // Filtered rows: each row's samples and filter byte, and, interlaced, the partial
        // bytes and filter bytes of up to 7 passes (IHDR, whose CRC the walk has checked,
        // gives the bits a pixel: channels by bit depth).
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(bytes[25])] ?? 4
        let capacity = height * ((width * channels * Int(bytes[24]) + 7) / 8 + 4) + 16
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        let out = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { out.deallocate() }
        var written = 0
        let result = stream.withUnsafeBytes {
            libdeflate_zlib_decompress(decompressor, $0.baseAddress, $0.count, out, capacity, &written)
        }
        return result == LIBDEFLATE_SUCCESS
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    /// Whether the CRC after the chunk at `offset` (its length field) with `length` bytes
    /// of data is that of its type and data.
    private static func crcMatches(_ bytes: UnsafeRawBufferPointer, chunkAt offset: Int, length: Int) -> Bool {
        let data = UnsafeRawBufferPointer(rebasing: bytes[offset + 8..<offset + 8 + length])
        return PNGChunks.crc(type: bigEndian(bytes, offset + 4), data: data) == bigEndian(bytes, offset + 8 + length)
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
