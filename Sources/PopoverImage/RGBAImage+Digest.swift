extension RGBAImage {
    /// XXH64 of the pixel bytes, seeded with the size (`width << 32 | height`) so that
    /// the same bytes in a different shape (4 x 1 versus 2 x 2) give a different digest.
    public var contentDigest: UInt64 {
        let seed = UInt64(truncatingIfNeeded: width) << 32 | UInt64(truncatingIfNeeded: height) & 0xFFFF_FFFF
        return ContentDigest.xxh64(pixels, seed: seed)
    }
}
