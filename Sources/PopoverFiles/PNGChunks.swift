import CLibDeflate

/// The PNG container as `PNGChunkCheck` reads it: the signature and chunks (length, type,
/// data, CRC-32 of type and data).
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Chunk lengths are 31-bit (PNG forbids 2^31 and above).
    static let maxLength = 0x7FFF_FFFF

    /// CRC-32 of a chunk's type and data, through libdeflate (same polynomial as PNG's).
    static func crc(type: UInt32, data: UnsafeRawBufferPointer) -> UInt32 {
        var typeBytes = type.bigEndian
        let crc = withUnsafeBytes(of: &typeBytes) { libdeflate_crc32(0, $0.baseAddress, 4) }
        guard data.count > 0 else { return crc }
        return libdeflate_crc32(crc, data.baseAddress, data.count)
    }

    /// A chunk type as the big-endian number of its four ASCII letters.
    static func type(_ name: StaticString) -> UInt32 {
        precondition(name.utf8CodeUnitCount == 4)
        let p = name.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    static let IHDR = type("IHDR"), PLTE = type("PLTE"), tRNS = type("tRNS")
    static let IDAT = type("IDAT"), IEND = type("IEND")
}
