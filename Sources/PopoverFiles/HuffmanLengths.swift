/// Huffman code lengths and canonical codes for DEFLATE.
enum HuffmanLengths {
    /// Optimal code lengths for `frequencies`, none longer than `limit`, 0 for symbols
    /// that never occur. At least two symbols always get codes (dummies if need be), so
    /// the code is complete, as zlib insists for code-length codes. Ties are broken by
    /// symbol number, so the result depends only on the frequencies.
    static func make(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var frequencies = frequencies
        var used = frequencies.indices.filter { frequencies[$0] > 0 }
        for symbol in frequencies.indices where used.count < 2 && frequencies[symbol] == 0 {
            frequencies[symbol] = 1
            used.append(symbol)
        }
        while true {
            let lengths = unlimited(frequencies, used: used)
            if lengths.max()! <= limit { return lengths }
            // Too deep: flatten the distribution and try again (rare; converges, since
            // equal frequencies give a balanced tree of depth log2(286) < 9).
            for symbol in used { frequencies[symbol] = (frequencies[symbol] + 1) / 2 }
        }
    }

    /// Plain Huffman lengths: leaves sorted by (frequency, symbol), merged with the
    /// two-queue method.
    private static func unlimited(_ frequencies: [Int], used: [Int]) -> [UInt8] {
        let leaves = used.sorted { (frequencies[$0], $0) < (frequencies[$1], $1) }
        let n = leaves.count
        var weight = leaves.map { frequencies[$0] } + [Int](repeating: 0, count: n - 1)
        var parent = [Int](repeating: 0, count: 2 * n - 1)
        var nextLeaf = 0, nextInternal = n
        func takeSmallest(_ created: Int) -> Int {
            // Prefer a leaf on equal weight: deterministic, and keeps the tree shallow.
            if nextLeaf < n && (nextInternal >= created || weight[nextLeaf] <= weight[nextInternal]) {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextInternal += 1
            return nextInternal - 1
        }
        for created in n..<(2 * n - 1) {
            let a = takeSmallest(created), b = takeSmallest(created)
            weight[created] = weight[a] + weight[b]
            parent[a] = created
            parent[b] = created
        }
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        for node in stride(from: 2 * n - 3, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        for (i, symbol) in leaves.enumerated() { lengths[symbol] = UInt8(depth[i]) }
        return lengths
    }

    /// Canonical codewords (RFC 1951, 3.2.2), bit-reversed so they can be written least
    /// significant bit first.
    static func reversedCodes(_ lengths: [UInt8]) -> [UInt16] {
        var count = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { count[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + count[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let l = Int(length)
            let codeword = next[l]
            next[l] += 1
            var reversed = 0
            for bit in 0..<l where codeword >> bit & 1 == 1 { reversed |= 1 << (l - 1 - bit) }
            return UInt16(reversed)
        }
    }
}
