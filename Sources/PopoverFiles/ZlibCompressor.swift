import CLibDeflate

/// A zlib stream (RFC 1950) of a whole buffer, compressed by libdeflate in one call.
/// The same input and level give the same bytes with the same libdeflate, which is what
/// makes encoded PNGs reproducible.
enum ZlibCompressor {
    /// libdeflate levels run 0 (stored, no compression) to 12 (slowest).
    static func compress(_ input: UnsafeRawBufferPointer, level: Int32) -> [UInt8] {
        precondition((0...12).contains(level), "libdeflate has no compression level \(level)")
        // A compressor holds the match finder's tables (a few hundred KiB); allocating one
        // per image costs far less than compressing even a small image.
        guard let compressor = libdeflate_alloc_compressor(level) else {
            fatalError("out of memory allocating a libdeflate compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, input.count)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: bound, alignment: 16)
        defer { scratch.deallocate() }
        let size = libdeflate_zlib_compress(compressor, input.baseAddress, input.count, scratch, bound)
        // The bound is libdeflate's own worst case, so this cannot happen.
        precondition(size > 0, "libdeflate could not compress \(input.count) bytes into its own bound of \(bound)")
        return Array(UnsafeRawBufferPointer(start: scratch, count: size))
    }
}
