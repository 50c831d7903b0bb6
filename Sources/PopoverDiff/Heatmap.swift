#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PopoverImage

/// An opaque 8-bit sRGB colour.
public struct HeatmapColor: Sendable, Hashable, Codable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    init(hex: UInt32) {
        self.init(red: UInt8(hex >> 16), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    /// `#rrggbb`, lower case.
    public var css: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for byte in [red, green, blue] {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    public var description: String { css }
}

/// The colour scale of a heatmap, in numbers and words, for whoever draws it beside one.
public struct HeatmapLegend: Sendable, Equatable, Codable {
    public struct Stop: Sendable, Equatable, Codable {
        /// A magnitude (largest channel difference), 1...255.
        public var value: Int
        /// Text for the label, e.g. "16".
        public var label: String
        /// Where the stop sits along the legend bar, 0 (value 1) ... 1 (value 255).
        public var position: Double
        /// The heatmap colour for `value`, `#rrggbb`.
        public var color: String
    }

    /// Magnitudes 1, 2, 4, ..., 128, 255, evenly spaced because the scale is logarithmic.
    public var stops: [Stop]
    /// The colour of equal pixels' background, described (not a single colour).
    public var equalLabel: String
    /// The colour of excused and ignored pixels, `#rrggbb`, which the colour map never
    /// produces.
    public var excusedColor: String
    public var excusedLabel: String
    /// A sentence describing the scale for a caption.
    public var scale: String
}

/// Draws a ``DiffMap`` as an image a person can read.
///
/// - Equal pixels show the expected image dimmed to grey: its luma (Rec. 601,
///   `0.299 R + 0.587 G + 0.114 B`) after blending over white, mapped to
///   `grey = 0.6 * 255 + 0.35 * luma`, so 153...242, always R = G = B.
/// - Different pixels show the magma colour for their magnitude m (largest channel
///   difference, 1...255) on a logarithmic scale over the middle of the map:
///   `t = 0.15 + 0.70 * log2(m) / log2(255)`, so m = 1 is a dark indigo (clearly
///   visible on the light grey), m = 16 a magenta, m = 255 a light orange. Each
///   doubling of the difference moves the colour the same distance.
/// - Excused pixels, and differing pixels in an ignore mask, are cyan (#00ffff), which
///   magma does not contain: neither counts.
///
/// The output is opaque and has the diff map's size.
public enum Heatmap {
    /// Colour-map positions for the smallest and largest magnitude.
    static let lowEnd = 0.15
    static let highEnd = 0.85

    /// Cyan, for pixels the perceptual rules excused and differing pixels the mask ignored.
    public static let excusedColor = HeatmapColor(red: 0, green: 255, blue: 255)

    /// Magma sampled at t = i / 15, i = 0...15. Magma is the perceptually uniform colour
    /// map by Nathaniel J. Smith, Stefan van der Walt and Eric Firing, published with
    /// matplotlib under CC0; these 16 samples were written down from that published
    /// data, rounded to 8 bits.
    static let magmaStops: [HeatmapColor] = [
        0x000004, 0x0B0924, 0x20114B, 0x3B0F70, 0x57157E, 0x721F81, 0x8C2981, 0xA8327D,
        0xC43C75, 0xDE4968, 0xF1605D, 0xFA7F5E, 0xFE9F6D, 0xFEBF84, 0xFDDEA0, 0xFCFDBF,
    ].map(HeatmapColor.init(hex:))

    /// Magma at `t` in 0...1, interpolated linearly between the 16 samples.
    public static func magma(_ t: Double) -> HeatmapColor {
        let clamped = min(max(t.isNaN ? 0 : t, 0), 1)
        let scaled = clamped * Double(magmaStops.count - 1)
        let i = min(Int(scaled), magmaStops.count - 2)
        let f = scaled - Double(i)
        let a = magmaStops[i], b = magmaStops[i + 1]
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8((Double(x) + (Double(y) - Double(x)) * f).rounded())
        }
        return HeatmapColor(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue))
    }

    /// Where magnitude `m` (1...255) falls on the colour map; see the type's documentation.
    public static func mapPosition(forMagnitude m: Int) -> Double {
        let clamped = Double(min(max(m, 1), 255))
        return lowEnd + (highEnd - lowEnd) * log2(clamped) / log2(255)
    }

    /// The colour of a different pixel of magnitude `m` (values below 1 count as 1).
    public static func color(forMagnitude m: Int) -> HeatmapColor {
        colorTable[min(max(m, 1), 255)]
    }

    /// `color(forMagnitude:)` for 0...255 (entry 0 repeats entry 1).
    static let colorTable: [HeatmapColor] = (0...255).map { magma(mapPosition(forMagnitude: $0)) }

    /// The grey of an equal pixel of the expected image.
    @inline(__always)
    static func grey(r: UInt32, g: UInt32, b: UInt32, a: UInt32) -> UInt8 {
        let luma = (299 * r + 587 * g + 114 * b + 500) / 1000           // 0...255
        let overWhite = (luma * a + 255 * (255 - a) + 127) / 255          // 0...255
        return UInt8(153 + (overWhite * 35 + 50) / 100)                   // 153...242
    }

    /// The heatmap of `diff` over a dimmed copy of `expected`, which must have the
    /// diff map's size.
    public static func render(expected: RGBAImage, diff: DiffMap) -> RGBAImage {
        precondition(expected.width == diff.width && expected.height == diff.height,
                     "heatmap: expected image is \(expected.width) x \(expected.height), "
                     + "diff map \(diff.width) x \(diff.height)")
        let count = diff.width * diff.height
        let table = colorTable
        let excused = excusedColor
        // An all-equal map has no planes; every pixel is then the dimmed copy.
        let planes: (magnitudes: [UInt8], classes: [DiffMap.PixelClass])?
        switch diff.storage {
        case .allEqual: planes = nil
        case .planes(let magnitudes, let classes): planes = (magnitudes, classes)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
            expected.pixels.withUnsafeBufferPointer { source in
                for i in 0..<count {
                    let o = i * 4
                    let colour: HeatmapColor
                    switch planes?.classes[i] ?? .equal {
                    case .equal:
                        let g = grey(r: UInt32(source[o]), g: UInt32(source[o + 1]),
                                     b: UInt32(source[o + 2]), a: UInt32(source[o + 3]))
                        colour = HeatmapColor(red: g, green: g, blue: g)
                    case .different:
                        colour = table[Int(max(planes!.magnitudes[i], 1))]
                    case .excused, .ignored:
                        colour = excused
                    }
                    out[o] = colour.red
                    out[o + 1] = colour.green
                    out[o + 2] = colour.blue
                    out[o + 3] = 255
                }
            }
            initialized = count * 4
        }
        return RGBAImage(width: diff.width, height: diff.height, pixels: pixels)
    }

    /// The scale as stops and labels, for an HTML page.
    public static let legend: HeatmapLegend = {
        let values = [1, 2, 4, 8, 16, 32, 64, 128, 255]
        let stops = values.map { value in
            HeatmapLegend.Stop(
                value: value,
                label: String(value),
                position: log2(Double(value)) / log2(255),
                color: color(forMagnitude: value).css)
        }
        return HeatmapLegend(
            stops: stops,
            equalLabel: "equal (dimmed grey copy of the expected image)",
            excusedColor: excusedColor.css,
            excusedLabel: "excused (within the perceptual threshold, anti-aliasing, or ignored)",
            scale: "largest channel difference, logarithmic: each doubling moves one step along magma")
    }()
}
