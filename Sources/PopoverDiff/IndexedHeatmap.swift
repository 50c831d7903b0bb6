import PopoverImage

/// A heatmap as one byte per pixel and a palette of at most 256 colours: what a report
/// keeps of a failing case, a quarter of the RGBA heatmap's size and quick to compress.
///
/// The palette: entries 0...89 are the greys of equal pixels (153...242, the dimmed copy
/// of the expected image, see `Heatmap`); entry 90 is the cyan of excused and ignored
/// pixels; entries 91...255 are magma at 165 even steps of the logarithmic scale, each
/// different pixel taking the step nearest its magnitude's place. Next to
/// `Heatmap.render`'s exact colours a step is at most half a step of 165 away on the
/// scale: invisible, and nothing is read from a heatmap but by eye.
public struct IndexedHeatmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let indices: [UInt8]
    /// Red, green, blue of each entry (all opaque).
    public let palette: [HeatmapColor]

    static let greys = 90
    static let excusedIndex: UInt8 = 90
    static let firstStep = 91
    static let steps = 165

    /// The palette, the same for every heatmap.
    public static let standardPalette: [HeatmapColor] = {
        var palette: [HeatmapColor] = []
        for g in 0..<greys {
            let level = UInt8(153 + g)
            palette.append(HeatmapColor(red: level, green: level, blue: level))
        }
        palette.append(Heatmap.excusedColor)
        for step in 0..<steps {
            let position = Heatmap.lowEnd + (Heatmap.highEnd - Heatmap.lowEnd) * Double(step) / Double(steps - 1)
            palette.append(Heatmap.magma(position))
        }
        return palette
    }()

    /// Magnitude (0...255) -> palette index of a different pixel.
    static let stepIndex: [UInt8] = (0...255).map { (m: Int) -> UInt8 in
        let span: Double = Heatmap.highEnd - Heatmap.lowEnd
        let t: Double = (Heatmap.mapPosition(forMagnitude: m) - Heatmap.lowEnd) / span
        let step: Int = Int((t * Double(steps - 1)).rounded())
        return UInt8(firstStep + step)
    }

    /// The heatmap of `diff` over a dimmed copy of `expected` (which must have its size).
    public static func render(expected: RGBAImage, diff: DiffMap) -> IndexedHeatmap {
        precondition(expected.width == diff.width && expected.height == diff.height,
                     "heatmap: expected image is \(expected.width) x \(expected.height), diff map \(diff.width) x \(diff.height)")
        let count = diff.width * diff.height
        // One pass over raw buffers: a report of a run where everything fails makes a
        // heatmap of every golden, so this loop runs over every pixel of the catalog.
        let planes: (magnitudes: [UInt8], classes: [DiffMap.PixelClass])? = switch diff.storage {
        case .allEqual: nil
        case .planes(let magnitudes, let classes): (magnitudes, classes)
        }
        let noMagnitudes: [UInt8] = [], noClasses: [DiffMap.PixelClass] = []
        let indices = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            expected.pixels.withUnsafeBufferPointer { source in
            greyIndexTable.withUnsafeBufferPointer { greys in
            stepIndex.withUnsafeBufferPointer { steps in
            (planes?.magnitudes ?? noMagnitudes).withUnsafeBufferPointer { m in
            (planes?.classes ?? noClasses).withUnsafeBufferPointer { c in
                // Pixels come in runs (clear surroundings, flat fills): a run's grey is
                // looked up once.
                var last = (pixel: UInt32(0), index: greyIndex(0, greys))
                func grey(_ i: Int) -> UInt8 {
                    let o = i * 4
                    let pixel = UInt32(source[o]) | UInt32(source[o + 1]) << 8 | UInt32(source[o + 2]) << 16
                        | UInt32(source[o + 3]) << 24
                    if pixel != last.pixel { last = (pixel, greyIndex(pixel, greys)) }
                    return last.index
                }
                if planes == nil {
                    for i in 0..<count { out[i] = grey(i) }
                    return
                }
                for i in 0..<count {
                    switch c[i] {
                    case .equal: out[i] = grey(i)
                    case .different: out[i] = steps[Int(max(m[i], 1))]
                    case .excused, .ignored: out[i] = excusedIndex
                    }
                }
            } } } } }
            initialized = count
        }
        return IndexedHeatmap(width: diff.width, height: diff.height, indices: indices, palette: standardPalette)
    }

    /// The grey index of every (luma, alpha), at `luma << 8 | alpha`: `Heatmap.grey`
    /// as a 64 KiB table, so the loop over every pixel neither branches nor divides.
    private static let greyIndexTable: [UInt8] = (0..<65536).map { (key: Int) -> UInt8 in
        let luma = UInt32(key >> 8), alpha = UInt32(key & 255)
        return Heatmap.grey(r: luma, g: luma, b: luma, a: alpha) - 153
    }

    @inline(__always)
    private static func greyIndex(_ rgba: UInt32, _ table: UnsafeBufferPointer<UInt8>) -> UInt8 {
        let r = rgba & 0xFF, g = (rgba >> 8) & 0xFF, b = (rgba >> 16) & 0xFF
        // The same integer luma `Heatmap.grey` computes (grey of r = g = b = luma is luma).
        let luma = (299 &* r &+ 587 &* g &+ 114 &* b &+ 500) / 1000
        return table[Int(luma << 8 | rgba >> 24)]
    }

    /// Whether palette entry `index` is a colour (a different or excused pixel) rather
    /// than one of the greys of equal pixels.
    @inline(__always)
    public static func isColoured(_ index: UInt8) -> Bool { Int(index) >= greys }

    /// The same heatmap as RGBA, for a thumbnail.
    public var rgba: RGBAImage {
        var pixels = [UInt8](repeating: 255, count: indices.count * 4)
        for (i, index) in indices.enumerated() {
            let c = palette[Int(index)]
            pixels[i * 4] = c.red
            pixels[i * 4 + 1] = c.green
            pixels[i * 4 + 2] = c.blue
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
