/// The PNG row filters (filter method 0) the encoder uses: each byte is predicted from
/// its left or upper neighbour (or not at all) and the difference stored (modulo 256, as
/// the format defines it). Average and Paeth, the format's other two, are not written:
/// on these images they made the files larger (docs/goldens.md).
///
/// Rows are handled through pointers: these loops run over every byte of every image
/// written, so they must not pay for bounds checks.
@_spi(CodecTuning) public enum PNGFilter: UInt8, CaseIterable, Sendable {
    case none = 0, sub = 1, up = 2
}

/// How the encoder picks a filter for each row.
@_spi(CodecTuning) public enum PNGFilterChoice: Sendable {
    /// The same filter on every row.
    case fixed(PNGFilter)
    /// Per row, the filter among `candidates` whose output has the smallest sum of
    /// absolute values, reading each byte as signed (-128...127); ties go to the earlier
    /// candidate. This is the usual heuristic (libpng's, and the PNG specification's
    /// suggestion): small differences cluster near zero, which compresses well.
    case minimumSum([PNGFilter])
}

enum PNGRowFilters {
    /// Filters `height` rows of `rowBytes` bytes at `source` into `target`, which holds
    /// `height * (rowBytes + 1)` bytes: each row's filter type, then its filtered bytes.
    static func filter(_ source: UnsafePointer<UInt8>, rowBytes: Int, height: Int, bytesPerPixel bpp: Int,
                       choice: PNGFilterChoice, into target: UnsafeMutablePointer<UInt8>) {
        // The row above the first is all zeros, which makes `up` of the first row what
        // the format says it is.
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: max(rowBytes, 1))
        zeros.initialize(repeating: 0, count: max(rowBytes, 1))
        defer { zeros.deallocate() }
        var out = target
        for y in 0..<height {
            let row = source + y * rowBytes
            let above = y == 0 ? UnsafePointer(zeros) : row - rowBytes
            let chosen: PNGFilter
            switch choice {
            case .fixed(let filter):
                chosen = filter
            case .minimumSum(let candidates):
                chosen = smallestSum(row, above, rowBytes, bpp, candidates)
            }
            out[0] = chosen.rawValue
            apply(chosen, row, above, rowBytes, bpp, into: out + 1)
            out += rowBytes + 1
        }
    }

    /// The candidate with the smallest sum; a sum of 0 cannot be beaten, so it stops the
    /// search (which gives the same choice as trying them all).
    private static func smallestSum(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                                    _ candidates: [PNGFilter]) -> PNGFilter {
        var best = candidates[0]
        var bestSum = Int.max
        for filter in candidates {
            let sum = signedMagnitudeSum(filter, row, above, n, bpp, limit: bestSum)
            if sum < bestSum {
                best = filter
                bestSum = sum
                if sum == 0 { break }
            }
        }
        return best
    }

    /// |byte as Int8|, for the heuristic: 0 -> 0, 1 -> 1, 255 -> 1, 128 -> 128.
    @inline(__always)
    private static func magnitude(_ v: UInt8) -> Int {
        Int(Int8(bitPattern: v).magnitude)
    }

    /// Sum of the magnitudes of the filtered row, computed without storing it. Stops
    /// early (returning something >= `limit`) once the sum cannot win, checked every
    /// 256 bytes so the inner loops stay simple enough to vectorise.
    private static func signedMagnitudeSum(_ filter: PNGFilter, _ row: UnsafePointer<UInt8>,
                                           _ above: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                                           limit: Int) -> Int {
        /// One byte's magnitude; the first pixel's bytes have no left neighbour.
        func at(_ i: Int) -> Int {
            magnitude(row[i] &- (filter == .up ? above[i] : filter == .sub && i >= bpp ? row[i - bpp] : 0))
        }
        let lead = min(bpp, n)
        var sum = 0, start = lead
        for i in 0..<lead { sum &+= at(i) }
        // Sixteen bytes at a time; the last few (under sixteen) byte by byte.
        let left = filter == .sub ? UnsafeRawPointer(row - bpp) : nil
        let top = filter == .up ? UnsafeRawPointer(above) : nil
        let current = UnsafeRawPointer(row)
        while start + 16 <= n {
            // At most 16 vectors per round: 16 * 128 still fits each UInt16 lane.
            var lanes = SIMD16<UInt16>()
            let end = min(n - 15, start + 256)
            while start < end {
                var v = current.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
                if let left { v &-= left.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self) }
                if let top { v &-= top.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self) }
                // |v as Int8| = min(v, -v) in unsigned bytes (128 stays 128).
                lanes &+= SIMD16<UInt16>(truncatingIfNeeded: pointwiseMin(v, 0 &- v))
                start += 16
            }
            sum &+= Int(lanes.wrappedSum())
            if sum >= limit { return sum }
        }
        for i in start..<n { sum &+= at(i) }
        return sum
    }

    /// Writes the filtered row.
    static func apply(_ filter: PNGFilter, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ n: Int,
                      _ bpp: Int, into out: UnsafeMutablePointer<UInt8>) {
        let lead = min(bpp, n)  // bytes with no left neighbour
        switch filter {
        case .none:
            out.update(from: row, count: n)
        case .sub:
            out.update(from: row, count: lead)
            subtract(row + lead, row + lead - bpp, count: n - lead, into: out + lead)
        case .up:
            subtract(row, above, count: n, into: out)
        }
    }

    /// out[i] = a[i] - b[i], sixteen bytes at a time.
    @inline(__always)
    private static func subtract(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int,
                                 into out: UnsafeMutablePointer<UInt8>) {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), ro = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 16 <= count {
            ro.storeBytes(of: ra.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                &- rb.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            out[i] = a[i] &- b[i]
            i += 1
        }
    }
}
