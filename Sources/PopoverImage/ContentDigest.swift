/// A fast 64-bit content digest: XXH64, written from its public specification
/// (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md).
///
/// Not cryptographic: it tells "same bytes" from "changed bytes" at several GB/s, which is
/// what hashing every rendered image on every check needs. Values match every other
/// XXH64 implementation, so digests can be checked with standard tools.
public enum ContentDigest {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// XXH64 of `bytes` with `seed`.
    public static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let length = bytes.count
        guard let base = bytes.baseAddress, length > 0 else { return avalanche(seed &+ prime5) }
        var offset = 0
        var hash: UInt64
        if length >= 32 {
            // Four independent lanes over 32-byte stripes: the CPU runs them in parallel.
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            let lastStripe = length - 32
            while offset <= lastStripe {
                v1 = round(v1, lane(base, offset))
                v2 = round(v2, lane(base, offset + 8))
                v3 = round(v3, lane(base, offset + 16))
                v4 = round(v4, lane(base, offset + 24))
                offset += 32
            }
            hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            hash = merge(hash, v1)
            hash = merge(hash, v2)
            hash = merge(hash, v3)
            hash = merge(hash, v4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(length)
        // The tail: at most 31 bytes, in 8-, then 4-, then 1-byte steps.
        while offset + 8 <= length {
            hash ^= round(0, lane(base, offset))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= length {
            let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            hash ^= UInt64(word) &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < length {
            hash ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* prime5
            hash = rotate(hash, 11) &* prime1
            offset += 1
        }
        return avalanche(hash)
    }

    /// XXH64 of `bytes` with `seed`.
    public static func xxh64(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { xxh64($0, seed: seed) }
    }

    /// A digest as 16 lowercase hex digits, zero-padded ("ef46db3751d8e999").
    public static func hex(_ digest: UInt64) -> String {
        let digits = String(digest, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `hex(xxh64(bytes, seed: seed))`.
    public static func xxh64Hex(_ bytes: [UInt8], seed: UInt64 = 0) -> String {
        hex(xxh64(bytes, seed: seed))
    }

    // MARK: The specification's building blocks

    @inline(__always)
    private static func lane(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value &<< bits) | (value &>> (64 &- bits))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func merge(_ hash: UInt64, _ accumulator: UInt64) -> UInt64 {
        (hash ^ round(0, accumulator)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash &>> 33
        hash &*= prime2
        hash ^= hash &>> 29
        hash &*= prime3
        hash ^= hash &>> 32
        return hash
    }
}
