import CLibDeflate

/// A zlib stream made quickly from filtered PNG rows, for `.fast` (report images).
///
/// Why not libdeflate's fastest level: it hashes every position, though these images
/// are mostly zeros after filtering (the bench prints both encoders' speed and sizes).
/// Filtered image rows repeat in a few known ways, so this looks only there:
/// at each position it tries a match at distance 1 (a run of one byte value, e.g. the
/// zeros of unchanged pixels), one pixel back (a run of one pixel value) and one row
/// back (a repeated row), takes the longest, else a literal. Runs are measured eight
/// bytes at a time. Each block of tokens then gets its own Huffman codes (RFC 1951
/// dynamic blocks), so small residuals still cost few bits.
///
/// The output is deterministic, and every code it writes is complete, as zlib (and so
/// libpng) insists for code-length codes.
enum RepeatDeflater {
    /// Input bytes per block: keeps the token buffer small and lets codes adapt.
    private static let blockInput = 1 << 18

    /// Compresses `input` (rows of `rowBytes` bytes, each after its filter-type byte,
    /// pixels of `bytesPerPixel` bytes) into a zlib stream.
    static func compress(_ input: UnsafeRawBufferPointer, rowBytes: Int, bytesPerPixel: Int) -> [UInt8] {
        let data = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let count = input.count
        // Candidate distances: a byte back, a pixel back (for pixels wider than a byte),
        // a row back while it fits DEFLATE's 32 KiB window. 0: no candidate.
        let pixel = bytesPerPixel > 1 ? bytesPerPixel : 0
        let row = rowBytes + 1 <= 32768 ? rowBytes + 1 : 0

        var writer = BitWriter(capacity: 2 * count + 1024 * (count / blockInput + 2))
        defer { writer.deallocate() }
        writer.writeBytes([0x78, 0x01])  // deflate, 32 KiB window, "fastest" level
        let tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: min(count, blockInput) + 1)
        defer { tokens.deallocate() }
        var start = 0
        repeat {
            let end = min(count, start + blockInput)
            let tokenCount = tokenize(data, from: start, to: end, pixel: pixel, row: row, into: tokens)
            writeBlock(UnsafeBufferPointer(start: tokens, count: tokenCount), final: end == count, to: &writer)
            start = end
        } while start < count
        writer.alignToByte()
        let adler = libdeflate_adler32(1, input.baseAddress, count)
        writer.writeBytes([UInt8(truncatingIfNeeded: adler >> 24), UInt8(truncatingIfNeeded: adler >> 16),
                           UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)])
        return writer.bytes()
    }

    // MARK: Tokens

    /// A literal is its byte value; a match is 1 << 31 | length << 16 | distance.
    private static let matchFlag: UInt32 = 1 << 31

    /// Tokens for `data[start..<end]` (matches may reach back before `start`).
    private static func tokenize(_ data: UnsafePointer<UInt8>, from start: Int, to end: Int, pixel: Int, row: Int,
                                 into tokens: UnsafeMutablePointer<UInt32>) -> Int {
        var n = 0
        var i = start
        while i < end {
            let limit = min(258, end - i)
            var bestLength = 0, bestDistance = 0
            if limit >= 3 && i > 0 {
                let byte = data[i]
                // Cheap first test for each: the first byte must match.
                if data[i - 1] == byte {
                    bestLength = matchLength(data + i, data + i - 1, limit: limit)
                    bestDistance = 1
                }
                if pixel != 0 && bestLength < limit && pixel <= i && data[i - pixel] == byte {
                    let length = matchLength(data + i, data + i - pixel, limit: limit)
                    if length > bestLength { bestLength = length; bestDistance = pixel }
                }
                if row != 0 && bestLength < limit && row <= i && data[i - row] == byte {
                    let length = matchLength(data + i, data + i - row, limit: limit)
                    if length > bestLength { bestLength = length; bestDistance = row }
                }
            }
            if bestLength >= 3 {
                tokens[n] = matchFlag | UInt32(bestLength) << 16 | UInt32(bestDistance)
                i += bestLength
            } else {
                tokens[n] = UInt32(data[i])
                i += 1
            }
            n += 1
        }
        return n
    }

    /// How many bytes from `a` equal those from `b` (an earlier position, possibly
    /// overlapping, as DEFLATE copies byte by byte), up to `limit`.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while length + 8 <= limit {
            let x = ra.loadUnaligned(fromByteOffset: length, as: UInt64.self)
                ^ rb.loadUnaligned(fromByteOffset: length, as: UInt64.self)
            if x != 0 { return length + UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit && a[length] == b[length] { length += 1 }
        return length
    }

    // MARK: Blocks

    private static func writeBlock(_ tokens: UnsafeBufferPointer<UInt32>, final: Bool, to writer: inout BitWriter) {
        // Tables into locals once: a static's every use would check its lazy initialiser.
        let lengthSymbols = Tables.lengthSymbol, distanceSymbols = Tables.nearDistanceSymbol
        let lengthBase = Tables.lengthBase, lengthExtra = Tables.lengthExtraBits
        let distanceBase = Tables.distanceBase, distanceExtra = Tables.distanceExtraBits
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        literalFrequencies.withUnsafeMutableBufferPointer { lf in
            distanceFrequencies.withUnsafeMutableBufferPointer { df in
                lengthSymbols.withUnsafeBufferPointer { ls in
                    distanceSymbols.withUnsafeBufferPointer { ds in
                        for token in tokens {
                            if token & matchFlag == 0 {
                                lf[Int(token)] += 1
                            } else {
                                lf[Int(ls[Int(token >> 16 & 0x1FF)])] += 1
                                df[Tables.distanceSymbol(Int(token & 0xFFFF), ds)] += 1
                            }
                        }
                    }
                }
            }
        }
        literalFrequencies[256] = 1  // end of block
        let literalLengths = HuffmanLengths.make(literalFrequencies, limit: 15)
        let distanceLengths = HuffmanLengths.make(distanceFrequencies, limit: 15)
        // Each symbol's codeword and length together: codeword | length << 16.
        let literalCodes = zip(HuffmanLengths.reversedCodes(literalLengths), literalLengths).map {
            UInt32($0) | UInt32($1) << 16
        }
        let distanceCodes = zip(HuffmanLengths.reversedCodes(distanceLengths), distanceLengths).map {
            UInt32($0) | UInt32($1) << 16
        }

        writer.write(final ? 1 : 0, bits: 1)
        writer.write(2, bits: 2)  // dynamic Huffman codes
        writeCodeLengths(literalLengths, distanceLengths, to: &writer)

        literalCodes.withUnsafeBufferPointer { lc in
            distanceCodes.withUnsafeBufferPointer { dc in
                lengthSymbols.withUnsafeBufferPointer { lsym in
                    distanceSymbols.withUnsafeBufferPointer { dsym in
                        for token in tokens {
                            if token & matchFlag == 0 {
                                let code = lc[Int(token)]
                                writer.write(UInt64(code & 0xFFFF), bits: Int(code >> 16))
                                continue
                            }
                            let length = Int(token >> 16 & 0x1FF), distance = Int(token & 0xFFFF)
                            let ls = Int(lsym[length])
                            let lcode = lc[ls]
                            writer.write(UInt64(lcode & 0xFFFF), bits: Int(lcode >> 16))
                            let le = lengthExtra[ls - 257]
                            if le > 0 { writer.write(UInt64(length - lengthBase[ls - 257]), bits: le) }
                            let ds = Tables.distanceSymbol(distance, dsym)
                            let dcode = dc[ds]
                            writer.write(UInt64(dcode & 0xFFFF), bits: Int(dcode >> 16))
                            let de = distanceExtra[ds]
                            if de > 0 { writer.write(UInt64(distance - distanceBase[ds]), bits: de) }
                        }
                    }
                }
                let end = lc[256]
                writer.write(UInt64(end & 0xFFFF), bits: Int(end >> 16))
            }
        }
    }

    /// The dynamic block header: how many codes, then all code lengths run-length
    /// coded (16: repeat the previous 3-6 times, 17: 3-10 zeros, 18: 11-138 zeros) with
    /// a Huffman code of their own.
    private static func writeCodeLengths(_ literal: [UInt8], _ distance: [UInt8], to writer: inout BitWriter) {
        let literalCount = max(257, (literal.lastIndex { $0 != 0 } ?? 0) + 1)
        let distanceCount = max(1, (distance.lastIndex { $0 != 0 } ?? 0) + 1)
        let lengths = Array(literal[..<literalCount]) + Array(distance[..<distanceCount])
        // (symbol, extra bits value) pairs.
        var runs: [(UInt8, UInt8)] = []
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var run = 1
            while i + run < lengths.count && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 { let n = min(run, 138); runs.append((18, UInt8(n - 11))); run -= n }
                if run >= 3 { runs.append((17, UInt8(run - 3))); run = 0 }
            } else {
                runs.append((value, 0))
                run -= 1
                while run >= 3 { let n = min(run, 6); runs.append((16, UInt8(n - 3))); run -= n }
            }
            for _ in 0..<run { runs.append((value, 0)) }
        }
        var frequencies = [Int](repeating: 0, count: 19)
        for (symbol, _) in runs { frequencies[Int(symbol)] += 1 }
        let codeLengths = HuffmanLengths.make(frequencies, limit: 7)
        let codes = HuffmanLengths.reversedCodes(codeLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let codeLengthCount = max(4, (order.lastIndex { codeLengths[$0] != 0 } ?? 0) + 1)

        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceCount - 1), bits: 5)
        writer.write(UInt64(codeLengthCount - 4), bits: 4)
        for k in 0..<codeLengthCount { writer.write(UInt64(codeLengths[order[k]]), bits: 3) }
        for (symbol, extra) in runs {
            writer.write(UInt64(codes[Int(symbol)]), bits: Int(codeLengths[Int(symbol)]))
            switch symbol {
            case 16: writer.write(UInt64(extra), bits: 2)
            case 17: writer.write(UInt64(extra), bits: 3)
            case 18: writer.write(UInt64(extra), bits: 7)
            default: break
            }
        }
    }

    /// DEFLATE's length and distance symbols (RFC 1951, 3.2.5).
    private enum Tables {
        static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                   1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
        static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
                                        11, 11, 12, 12, 13, 13]

        /// Symbol (257-285) for each length 3...258.
        static let lengthSymbol: [UInt16] = {
            var table = [UInt16](repeating: 0, count: 259)
            for (slot, base) in lengthBase.enumerated() {
                for length in base..<min(259, base + (1 << lengthExtraBits[slot])) { table[length] = UInt16(257 + slot) }
            }
            table[258] = 285
            return table
        }()

        /// Symbol for each distance 1...256, and for (distance - 1) >> 7 beyond.
        static let nearDistanceSymbol: [UInt8] = (0..<512).map { symbolByBase($0 < 256 ? $0 + 1 : (($0 - 256) << 7) + 1) }
        private static func symbolByBase(_ distance: Int) -> UInt8 {
            UInt8(distanceBase.lastIndex { $0 <= distance }!)
        }

        @inline(__always)
        static func distanceSymbol(_ distance: Int, _ table: UnsafeBufferPointer<UInt8>) -> Int {
            distance <= 256 ? Int(table[distance - 1]) : Int(table[256 + ((distance - 1) >> 7)])
        }
    }
}
