/// The largest image a decode will produce. Checked against the header before any pixel
/// memory is allocated, so a hostile or damaged file cannot make us reserve gigabytes.
public struct PNGLimits: Sendable, Equatable, CustomStringConvertible {
    /// Largest width and largest height, each.
    public var maxSide: Int
    /// Largest `width * height`.
    public var maxPixels: Int

    public init(maxSide: Int, maxPixels: Int) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
    }

    /// 16384 on a side and 64 Mpx in total, where 1 Mpx is 2^20 pixels: at most
    /// 67,108,864 pixels, a 256 MiB RGBA buffer. Far beyond any popover, still safe.
    public static let `default` = PNGLimits(maxSide: 16_384, maxPixels: 64 << 20)

    /// Whether an image of this size is allowed.
    public func admits(width: Int, height: Int) -> Bool {
        guard width <= maxSide, height <= maxSide else { return false }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maxPixels
    }

    /// "16384 on a side / 64 Mpx", as used in error messages.
    public var description: String {
        let mebi = 1 << 20
        let pixels = maxPixels > 0 && maxPixels % mebi == 0 ? "\(maxPixels / mebi) Mpx" : "\(maxPixels) pixels"
        return "\(maxSide) on a side / \(pixels)"
    }
}
