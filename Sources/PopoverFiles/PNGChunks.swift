import CLibDeflate

/// A PNG file as the encoder writes it: the signature, then each chunk (length, type,
/// data, CRC-32 of type and data) as it is added, then IEND. Nothing but what the caller
/// adds is written: no time, text or gamma chunks, so the same pixels always give the
/// same bytes.
struct PNGChunkWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private var bytes = PNGChunkWriter.signature

    mutating func add(_ type: String, _ data: [UInt8]) {
        precondition(data.count <= 0x7FFF_FFFF, "a PNG chunk cannot hold \(data.count) bytes")
        append(UInt32(data.count))
        let start = bytes.count
        bytes += type.utf8
        bytes += data
        let crc = bytes[start...].withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        append(crc)
    }

    /// IHDR for an 8-bit non-interlaced image (compression and filter method 0, the only ones).
    mutating func addHeader(width: Int, height: Int, colourType: UInt8) {
        var data: [UInt8] = []
        for side in [width, height] { withUnsafeBytes(of: UInt32(side).bigEndian) { data += $0 } }
        add("IHDR", data + [8, colourType, 0, 0, 0])
    }

    /// The file, IEND added.
    mutating func finish() -> [UInt8] {
        add("IEND", [])
        return bytes
    }

    private mutating func append(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
}
