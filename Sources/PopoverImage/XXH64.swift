import CLibXXHash

/// XXH64, the 64-bit xxHash, computed by the system's libxxhash.
///
/// Not cryptographic: it tells "same bytes" from "changed bytes" fast enough to digest
/// every rendered image on every check. Values are the standard ones (`xxhsum -H1`
/// prints the same), so a digest can be checked with other tools.
public enum XXH64 {
    /// XXH64 of `bytes` with `seed`.
    public static func digest(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        CLibXXHash.XXH64(bytes.baseAddress, bytes.count, seed)
    }

    /// XXH64 of `bytes` with `seed`.
    public static func digest(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { digest($0, seed: seed) }
    }

    /// A digest as 16 lowercase hex digits, zero-padded ("ef46db3751d8e999").
    public static func hex(_ digest: UInt64) -> String { Hex.string(digest) }

    /// `hex(digest(bytes, seed: seed))`.
    public static func hexDigest(_ bytes: [UInt8], seed: UInt64 = 0) -> String {
        hex(digest(bytes, seed: seed))
    }
}
