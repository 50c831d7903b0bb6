import CLibDeflate

/// The PNG container as the encoder writes it: the signature and chunks (length, type,
/// data, CRC-32 of type and data), assembled by `PNGChunkWriter`.
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

/// Builds a PNG file in one exactly sized array: every chunk is added with its data,
/// and the array is allocated once the total is known (`bytes`). Nothing but what the
/// caller adds is written: no time, text or gamma chunks, so the same pixels always
/// give the same bytes.
struct PNGChunkWriter {
    private var chunks: [(type: UInt32, data: [UInt8])] = []

    mutating func add(_ type: UInt32, _ data: [UInt8]) {
        precondition(data.count <= PNGChunks.maxLength, "a PNG chunk cannot hold \(data.count) bytes")
        chunks.append((type, data))
    }

    /// IHDR for a non-interlaced image (compression and filter method 0, the only ones).
    mutating func addHeader(width: Int, height: Int, bitDepth: UInt8, colourType: UInt8) {
        var data = [UInt8]()
        data.reserveCapacity(13)
        appendBigEndian(UInt32(width), to: &data)
        appendBigEndian(UInt32(height), to: &data)
        data += [bitDepth, colourType, 0, 0, 0]
        add(PNGChunks.IHDR, data)
    }

    /// The file: signature, the chunks in the order added, then IEND.
    func bytes() -> [UInt8] {
        let all = chunks + [(PNGChunks.IEND, [])]
        let total = PNGChunks.signature.count + all.reduce(0) { $0 + 12 + $1.data.count }
        var out = [UInt8]()
        out.reserveCapacity(total)
        out += PNGChunks.signature
        for chunk in all {
            appendBigEndian(UInt32(chunk.data.count), to: &out)
            appendBigEndian(chunk.type, to: &out)
            out += chunk.data
            let crc = chunk.data.withUnsafeBytes { PNGChunks.crc(type: chunk.type, data: $0) }
            appendBigEndian(crc, to: &out)
        }
        return out
    }
}

func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value))
}
