/// A canonical Huffman code (RFC 1951, 3.2.2) for decoding: a table over the next
/// `tableBits` bits for short codewords, and the canonical walk bit by bit for longer
/// ones.
struct HuffmanCode {
    private static let tableBits = 9
    /// symbol << 4 | length, or 0 for "longer than tableBits, or not a codeword".
    private var table: [UInt16]
    /// Codewords of each length, and the symbols sorted by codeword.
    private var counts: [Int]
    private var symbols: [Int]
    /// Of the 2^15 codespace, how much the codewords fill.
    private let used: Int

    /// Nil when the lengths over-subscribe the codespace (no prefix code has them).
    init?(lengths: [UInt8]) {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var used = 0
        for length in 1...15 { used += counts[length] << (15 - length) }
        guard used <= 1 << 15 else { return nil }
        self.used = used
        self.counts = counts
        // Canonical order: by length, then by symbol.
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        var symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[Int(length)]] = symbol
            offsets[Int(length)] += 1
        }
        self.symbols = symbols
        var table = [UInt16](repeating: 0, count: 1 << Self.tableBits)
        var code = 0
        var index = 0
        for length in 1...15 {
            for _ in 0..<counts[length] {
                if length <= Self.tableBits {
                    // The codeword's bits arrive first bit first: index the table reversed.
                    var reversed = 0
                    for bit in 0..<length where code >> bit & 1 == 1 { reversed |= 1 << (length - 1 - bit) }
                    let entry = UInt16(symbols[index] << 4 | length)
                    for fill in stride(from: reversed, to: 1 << Self.tableBits, by: 1 << length) { table[fill] = entry }
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
        self.table = table
    }

    /// Every bit string starts a codeword.
    var isComplete: Bool { used == 1 << 15 }

    /// What zlib accepts for a distance code: complete, empty (a block without
    /// matches), or a single one-bit codeword (whose other codeword, `1`, does not
    /// decode: the table leaves it empty, as zlib does).
    var isUsableDistanceCode: Bool {
        isComplete || used == 0 || (used == 1 << 14 && counts[1] == 1)
    }

    static let fixedLiterals = HuffmanCode(lengths: [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
        + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8))!
    static let fixedDistances = HuffmanCode(lengths: [UInt8](repeating: 5, count: 32))!

    /// The next symbol, or nil for a bit string that is no codeword or runs past the end.
    @inline(__always)
    func decode(_ bits: inout BitReader) -> Int? {
        let (peeked, real) = bits.peek(15)
        let entry = Int(table[Int(peeked) & ((1 << Self.tableBits) - 1)])
        if entry != 0 {
            let length = entry & 15
            guard length <= real else { return nil }
            bits.consume(length)
            return entry >> 4
        }
        // Longer codewords: the canonical walk (codes of each length are consecutive).
        var code = 0, first = 0, index = 0
        for length in 1...15 {
            guard length <= real else { return nil }
            code |= Int(peeked >> UInt32(length - 1)) & 1
            let count = counts[length]
            if code - first < count {
                bits.consume(length)
                return symbols[index + code - first]
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        return nil
    }
}
