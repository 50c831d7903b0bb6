/// How overlapping subpaths decide what is inside.
public enum FillRule: String, Sendable, CaseIterable {
    /// Inside where the winding number is not zero (CoreGraphics' default).
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd
}

/// Per-pixel coverage (0 = outside, 255 = fully inside) over a rectangle of a bitmap:
/// what a path covers, or what a clip lets through.
public struct CoverageMask: Sendable, Equatable {
    /// The mask's top-left pixel in the bitmap.
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int
    /// `width * height` bytes, rows top to bottom.
    public var values: [UInt8]

    public init(x: Int, y: Int, width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height, "mask of \(width)x\(height) needs \(width * height) values")
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.values = values
    }

    public static func empty() -> CoverageMask { CoverageMask(x: 0, y: 0, width: 0, height: 0, values: []) }

    /// A mask that lets everything through over a `width` x `height` bitmap.
    public static func full(width: Int, height: Int) -> CoverageMask {
        CoverageMask(x: 0, y: 0, width: width, height: height,
                     values: [UInt8](repeating: 255, count: width * height))
    }

    /// Coverage at bitmap pixel (px, py); 0 outside the mask's rectangle.
    public func coverage(atX px: Int, y py: Int) -> UInt8 {
        let lx = px - x, ly = py - y
        guard lx >= 0, ly >= 0, lx < width, ly < height else { return 0 }
        return values[ly * width + lx]
    }

    /// The sum of coverage in pixels (255 = one whole pixel): a path's area.
    public var coveredArea: Double {
        Double(values.reduce(0) { $0 + Int($1) }) / 255
    }

    /// Both masks at once: coverage multiplied, over the intersection of their rectangles.
    public func intersected(with other: CoverageMask) -> CoverageMask {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return CoverageMask(x: x0, y: y0, width: 0, height: 0, values: []) }
        var out = [UInt8](repeating: 0, count: (x1 - x0) * (y1 - y0))
        for row in y0..<y1 {
            for col in x0..<x1 {
                let a = Int(values[(row - y) * width + col - x])
                let b = Int(other.values[(row - other.y) * other.width + col - other.x])
                out[(row - y0) * (x1 - x0) + col - x0] = UInt8(div255(a * b))
            }
        }
        return CoverageMask(x: x0, y: y0, width: x1 - x0, height: y1 - y0, values: out)
    }
}
