/// Walks a zlib stream (RFC 1950/1951) symbol by symbol without writing any output, to
/// say whether zlib itself, as libpng drives it, would inflate it without complaint.
///
/// Why: the fast decoder inflates with libdeflate, which is more lenient than zlib in a
/// few corners: it accepts literal/length symbols 286 and 287 and distance symbols 30
/// and 31, more than 286 or 30 codes in a dynamic header, an incomplete code-length
/// code, and decodes the unused codeword of a one-symbol code, or a distance from an
/// empty distance code, where zlib reports an error. A hostile file built on one of
/// those would decode on the fast path yet fail through libpng: a changed verdict. So a
/// stream must pass this audit, which is at least as strict as zlib in every respect,
/// before libdeflate's output is used. It is stricter in places (every literal/length
/// code must be complete), which costs nothing but a fallback to libpng for streams
/// our encoder (libdeflate) never writes.
///
/// Cost: it reads every symbol but copies nothing, so it is proportional to the
/// compressed size, about a hundredth of the pixels for typical goldens.
struct ZlibStreamAudit {
    /// True if `stream` is one complete zlib stream, using every byte, that inflates to
    /// exactly `expectedSize` bytes and that zlib would accept. (The Adler-32 checksum is
    /// left to libdeflate, which verifies it.)
    static func accepts(_ stream: UnsafeRawBufferPointer, expectedSize: Int) -> Bool {
        guard stream.count >= 6, let base = stream.baseAddress else { return false }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let cmf = Int(bytes[0]), flg = Int(bytes[1])
        // Method 8 (deflate), a window of at most 32 KiB, a valid check, no preset dictionary.
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, (cmf << 8 | flg) % 31 == 0, flg & 0x20 == 0 else { return false }
        var audit = ZlibStreamAudit(bits: BitReader(bytes + 2, count: stream.count - 2), limit: expectedSize)
        guard audit.walkBlocks() else { return false }
        // Then the checksum, byte aligned, and nothing after it.
        audit.bits.alignToByte()
        return audit.produced == expectedSize && audit.bits.bytesConsumed + 4 == stream.count - 2
    }

    private var bits: BitReader
    private let limit: Int
    /// Bytes the stream has produced so far.
    private var produced = 0

    private init(bits: BitReader, limit: Int) {
        self.bits = bits
        self.limit = limit
    }

    private mutating func walkBlocks() -> Bool {
        var final = false
        while !final {
            guard let header = bits.read(3) else { return false }
            final = header & 1 == 1
            switch header >> 1 {
            case 0:
                guard storedBlock() else { return false }
            case 1:
                guard codedBlock(literals: HuffmanCode.fixedLiterals, distances: HuffmanCode.fixedDistances) else {
                    return false
                }
            case 2:
                guard let (literals, distances) = dynamicCodes(),
                      codedBlock(literals: literals, distances: distances) else { return false }
            default:
                return false  // block type 3 is reserved
            }
        }
        return true
    }

    private mutating func storedBlock() -> Bool {
        bits.alignToByte()
        guard let length = bits.read(16), let complement = bits.read(16), length == ~complement & 0xFFFF,
              bits.skipBytes(Int(length)) else { return false }
        produced += Int(length)
        return produced <= limit
    }

    /// Symbols until end-of-block; each length must have a distance within what has been
    /// produced (zlib has no preset window), and no symbol may be one zlib refuses.
    private mutating func codedBlock(literals: HuffmanCode, distances: HuffmanCode) -> Bool {
        while true {
            guard let symbol = literals.decode(&bits) else { return false }
            if symbol < 256 {
                produced += 1
                if produced > limit { return false }
                continue
            }
            if symbol == 256 { return true }
            let slot = symbol - 257
            guard slot < 29, let extra = bits.read(Self.lengthExtra[slot]) else { return false }
            let length = Self.lengthBase[slot] + Int(extra)
            guard let code = distances.decode(&bits), code < 30, let more = bits.read(Self.distanceExtra[code]) else {
                return false
            }
            let distance = Self.distanceBase[code] + Int(more)
            guard distance <= produced else { return false }
            produced += length
            if produced > limit { return false }
        }
    }

    /// The two codes of a dynamic block, from its header.
    private mutating func dynamicCodes() -> (HuffmanCode, HuffmanCode)? {
        guard let hlit = bits.read(5), let hdist = bits.read(5), let hclen = bits.read(4) else { return nil }
        let literalCount = Int(hlit) + 257, distanceCount = Int(hdist) + 1
        // zlib: "too many length or distance symbols".
        guard literalCount <= 286, distanceCount <= 30 else { return nil }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<(Int(hclen) + 4) {
            guard let length = bits.read(3) else { return nil }
            codeLengthLengths[Self.codeLengthOrder[i]] = UInt8(length)
        }
        // zlib refuses an incomplete code-length code outright.
        guard let codeLengthCode = HuffmanCode(lengths: codeLengthLengths), codeLengthCode.isComplete else { return nil }
        var lengths = [UInt8]()
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            guard let symbol = codeLengthCode.decode(&bits) else { return nil }
            var repeated: UInt8 = 0
            var count = 0
            switch symbol {
            case 0..<16:
                lengths.append(UInt8(symbol))
                continue
            case 16:
                guard let previous = lengths.last, let extra = bits.read(2) else { return nil }
                repeated = previous
                count = 3 + Int(extra)
            case 17:
                guard let extra = bits.read(3) else { return nil }
                count = 3 + Int(extra)
            default:
                guard let extra = bits.read(7) else { return nil }
                count = 11 + Int(extra)
            }
            guard lengths.count + count <= literalCount + distanceCount else { return nil }
            lengths += repeatElement(repeated, count: count)
        }
        let literalLengths = Array(lengths[..<literalCount]), distanceLengths = Array(lengths[literalCount...])
        // End-of-block must have a code; the literal/length code must be complete (zlib
        // would allow a lone one-bit code too; our encoder never writes one).
        guard literalLengths[256] != 0, let literals = HuffmanCode(lengths: literalLengths), literals.isComplete,
              let distances = HuffmanCode(lengths: distanceLengths), distances.isUsableDistanceCode else { return nil }
        return (literals, distances)
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                     67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
                                        11, 11, 12, 12, 13, 13]
}
