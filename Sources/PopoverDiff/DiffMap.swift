/// Where two images differ, pixel by pixel, for drawing a heatmap.
///
/// Rows top to bottom, like ``PopoverImage/RGBAImage``. For pixel `i = y * width + x`,
/// `magnitudes[i]` is the largest absolute difference of its four channels (0 where the
/// pixel is equal, including pixels transparent in both images) and `classes[i]` says
/// how the comparison judged it.
///
/// A map in which every pixel is equal (the comparison of identical images) holds no
/// planes at all until `magnitudes` or `classes` is read, so asking for a diff map costs
/// identical images nothing.
public struct DiffMap: Sendable, Equatable {
    /// How the comparison judged one pixel.
    public enum PixelClass: UInt8, Sendable, Equatable, Codable {
        /// Identical bytes, or alpha 0 in both images.
        case equal
        /// Counted as different.
        case different
        /// Different bytes but not counted: within the perceptual threshold, or
        /// anti-aliasing (only when a perceptual threshold is set).
        case excused
        /// Different bytes but not counted: in the comparison's ignore mask.
        case ignored
    }

    enum Storage: Sendable {
        case allEqual
        case planes(magnitudes: [UInt8], classes: [PixelClass])
    }

    public let width: Int
    public let height: Int
    var storage: Storage
    /// The smallest rectangle holding every pixel that is not `.equal`, found while the
    /// comparison fills the map; nil when every pixel is equal.
    public internal(set) var changedRegion: PixelRegion?

    /// Wraps the two planes, which must each hold `width * height` entries.
    public init(width: Int, height: Int, magnitudes: [UInt8], classes: [PixelClass]) {
        precondition(width >= 0 && height >= 0, "negative diff map size \(width) x \(height)")
        precondition(magnitudes.count == width * height && classes.count == width * height,
                     "diff map planes do not match \(width) x \(height)")
        self.width = width
        self.height = height
        self.storage = .planes(magnitudes: magnitudes, classes: classes)
        var marked = MarkedBounds()
        for y in 0..<height {
            for x in 0..<width where classes[y * width + x] != .equal { marked.include(x: x, y: y) }
        }
        changedRegion = marked.region
    }

    /// A map of a given size with every pixel equal.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative diff map size \(width) x \(height)")
        self.width = width
        self.height = height
        self.storage = .allEqual
    }

    /// True when no pixel differs (known without looking at every pixel for maps made
    /// by `init(width:height:)` or by comparing identical images).
    public var isAllEqual: Bool {
        switch storage {
        case .allEqual: return true
        case .planes(_, let classes): return classes.allSatisfy { $0 == .equal }
        }
    }

    /// Per pixel, the largest channel difference (0 where equal).
    public var magnitudes: [UInt8] {
        switch storage {
        case .allEqual: return [UInt8](repeating: 0, count: width * height)
        case .planes(let magnitudes, _): return magnitudes
        }
    }

    /// Per pixel, the comparison's judgement.
    public var classes: [PixelClass] {
        switch storage {
        case .allEqual: return [PixelClass](repeating: .equal, count: width * height)
        case .planes(_, let classes): return classes
        }
    }

    /// The judgement of the pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> (magnitude: UInt8, pixelClass: PixelClass) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside \(width) x \(height)")
        switch storage {
        case .allEqual: return (0, .equal)
        case .planes(let magnitudes, let classes):
            let i = y * width + x
            return (magnitudes[i], classes[i])
        }
    }

    public static func == (lhs: DiffMap, rhs: DiffMap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        if case .allEqual = lhs.storage, case .allEqual = rhs.storage { return true }
        return lhs.magnitudes == rhs.magnitudes && lhs.classes == rhs.classes
    }

    /// Mutable access to both planes at once (made on first use), for the comparison's
    /// inner loop. Only called for non-empty maps.
    mutating func withPlanes<R>(
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<PixelClass>) -> R
    ) -> R {
        var magnitudes: [UInt8], classes: [PixelClass]
        switch storage {
        case .allEqual:
            magnitudes = [UInt8](repeating: 0, count: width * height)
            classes = [PixelClass](repeating: .equal, count: width * height)
        case .planes(let m, let c):
            magnitudes = m
            classes = c
        }
        storage = .allEqual  // drop the references so the planes are uniquely owned
        let result = magnitudes.withUnsafeMutableBufferPointer { m in
            classes.withUnsafeMutableBufferPointer { c in
                body(m.baseAddress!, c.baseAddress!)
            }
        }
        storage = .planes(magnitudes: magnitudes, classes: classes)
        return result
    }
}

/// A rectangle of whole pixels: `width` x `height` from column `x`, row `y`.
public struct PixelRegion: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// The smallest rectangle holding every pixel the scan marked (different, excused or ignored).
struct MarkedBounds {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

    @inline(__always)
    mutating func include(x: Int, y: Int) {
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    var region: PixelRegion? {
        maxX < 0 ? nil : PixelRegion(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
