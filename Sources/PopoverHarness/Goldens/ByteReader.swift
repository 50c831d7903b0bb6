/// Reads little-endian numbers and byte runs, nil past the end.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func skip(_ n: Int) { offset += n }

    mutating func bytes(_ n: Int) -> [UInt8]? {
        guard n >= 0, offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    mutating func u32() -> UInt32? {
        bytes(4).map { b in b.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func u64() -> UInt64? {
        bytes(8).map { b in b.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    }
}
