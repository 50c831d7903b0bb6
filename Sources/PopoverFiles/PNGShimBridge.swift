import CPNGShim

/// Calls into the C shim and turns its status codes into `PNGError`s. Internal: the
/// public surface is `PNGFile`.
enum PNGShimBridge {
    /// Room for libpng's messages, which are short ("IDAT: CRC error").
    private static let messageCapacity = 256

    /// Runs `body` with a message buffer on the stack; returns its status and message.
    static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (status: Int32, message: String) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: messageCapacity) { buffer in
            let base = buffer.baseAddress!
            base.initialize(repeating: 0, count: messageCapacity)
            let status = body(base, messageCapacity)
            base[messageCapacity - 1] = 0  // the shim always terminates; this makes it certain
            return (status, String(cString: base))
        }
    }

    static func cLimits(_ limits: PNGLimits) -> pngshim_limits {
        // PNG sizes are 31-bit, so a larger side limit means "no side limit".
        let side = UInt32(clamping: min(max(limits.maxSide, 0), 0x7FFF_FFFF))
        return pngshim_limits(max_side: side, max_pixels: UInt64(max(limits.maxPixels, 0)))
    }

    /// Limits that never refuse a size PNG can express, for reading headers.
    static let unlimited = pngshim_limits(max_side: 0x7FFF_FFFF, max_pixels: .max)

    static func error(status: Int32, message: String, header: pngshim_header, name: String,
                      limits: PNGLimits) -> PNGError {
        switch status {
        case PNGSHIM_EMPTY: return .empty(file: name)
        case PNGSHIM_NOT_PNG: return .notPNG(file: name)
        case PNGSHIM_TRUNCATED: return .truncated(file: name)
        case PNGSHIM_CORRUPT: return .corrupt(file: name, reason: message)
        case PNGSHIM_ZERO_SIZE:
            return .zeroSize(file: name, width: Int(header.width), height: Int(header.height))
        case PNGSHIM_TOO_LARGE:
            return .tooLarge(file: name, width: Int(header.width), height: Int(header.height), limits: limits)
        case PNGSHIM_OUT_OF_MEMORY:
            return .decoderFailure(file: name, reason: "out of memory (\(message))")
        default:
            return .decoderFailure(file: name, reason: message.isEmpty ? "libpng shim status \(status)" : message)
        }
    }

    static func header(from raw: pngshim_header, name: String) throws(PNGError) -> PNGHeader {
        // libpng has validated IHDR by now, so an unknown colour type cannot happen; it is
        // still reported rather than trapped on.
        guard let colourType = PNGColourType(rawValue: Int(raw.colour_type)) else {
            throw .corrupt(file: name, reason: "IHDR: unknown colour type \(raw.colour_type)")
        }
        return PNGHeader(width: Int(raw.width), height: Int(raw.height), bitDepth: Int(raw.bit_depth),
                         colourType: colourType, interlaced: raw.interlaced != 0)
    }
}
