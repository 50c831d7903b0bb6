import PopoverDiff
import PopoverImage

/// Small previews for the overview and the list of cases.
public enum ReportThumbnail {
    /// The box a thumbnail fits in, in pixels.
    public static let size = 48

    /// `image` shrunk to fit `size` x `size` (never enlarged, aspect kept), each output
    /// pixel the alpha-weighted mean of the source pixels it covers.
    ///
    /// With `keepingColour` (for heatmaps), a block holding any coloured pixel (R, G and
    /// B not all equal: a difference or an excused pixel; equal pixels are grey) averages
    /// only those, and each coloured output pixel also colours its grey neighbours, so a
    /// single different pixel still shows in the thumbnail instead of fading into the
    /// grey around it.
    public static func make(_ image: RGBAImage, fitting size: Int = ReportThumbnail.size,
                            keepingColour: Bool = false) -> RGBAImage {
        image.pixels.withUnsafeBufferPointer { pixels in
            shrink(RGBASource(pixels: pixels, keepingColour: keepingColour),
                   width: image.width, height: image.height, fitting: size, keepingColour: keepingColour)
        } ?? image
    }

    /// The thumbnail of a palette heatmap: the same as `make(heatmap.rgba, keepingColour: true)`
    /// without spelling the heatmap out as RGBA first. Every entry is opaque and the
    /// greys are the first entries, so a block's greys sum as indices and only its
    /// coloured pixels look up the palette.
    public static func make(_ heatmap: IndexedHeatmap, fitting size: Int = ReportThumbnail.size) -> RGBAImage {
        let w = heatmap.width, h = heatmap.height
        guard w > 0, h > 0 else { return heatmap.rgba }
        let (ow, oh) = outputSize(w, h, fitting: size)
        let palette = heatmap.palette
        let firstGrey = Int(palette[0].red)   // greys run firstGrey, firstGrey + 1, ...
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        let columnBlock = columnBlocks(w, ow)
        // Per output column: grey index sum and count; coloured r, g, b sums and count.
        var sums = [Int](repeating: 0, count: ow * 6)
        let colours = palette.map { (Int($0.red), Int($0.green), Int($0.blue)) }
        heatmap.indices.withUnsafeBufferPointer { indices in
        columnBlock.withUnsafeBufferPointer { columnBlock in
        colours.withUnsafeBufferPointer { colours in
        sums.withUnsafeMutableBufferPointer { sums in
            for oy in 0..<oh {
                let y0 = oy * h / oh, y1 = max(y0 + 1, (oy + 1) * h / oh)
                for k in 0..<sums.count { sums[k] = 0 }
                for y in y0..<y1 {
                    let row = y * w
                    for x in 0..<w {
                        let index = indices[row + x]
                        let s = columnBlock[x] * 6
                        if IndexedHeatmap.isColoured(index) {
                            let c = colours[Int(index)]
                            sums[s + 2] &+= c.0; sums[s + 3] &+= c.1; sums[s + 4] &+= c.2; sums[s + 5] &+= 1
                        } else {
                            sums[s] &+= Int(index); sums[s + 1] &+= 1
                        }
                    }
                }
                for ox in 0..<ow {
                    let o = (oy * ow + ox) * 4, s = ox * 6
                    let n = sums[s + 5]
                    if n > 0 {
                        out[o] = UInt8((sums[s + 2] + n / 2) / n)
                        out[o + 1] = UInt8((sums[s + 3] + n / 2) / n)
                        out[o + 2] = UInt8((sums[s + 4] + n / 2) / n)
                    } else {
                        let g = UInt8(firstGrey + (sums[s] + sums[s + 1] / 2) / sums[s + 1])
                        (out[o], out[o + 1], out[o + 2]) = (g, g, g)
                    }
                    out[o + 3] = 255
                }
            }
        } } } }
        spreadColour(&out, width: ow, height: oh)
        return RGBAImage(width: ow, height: oh, pixels: out)
    }

    /// The thumbnail's size: `w` x `h` shrunk to fit `size` x `size`, never enlarged.
    private static func outputSize(_ w: Int, _ h: Int, fitting size: Int) -> (Int, Int) {
        let factor = max(1, Double(max(w, h)) / Double(max(1, size)))
        return (max(1, min(w, Int((Double(w) / factor).rounded()))), max(1, min(h, Int((Double(h) / factor).rounded()))))
    }

    /// For each source column, the output column whose block holds it.
    private static func columnBlocks(_ w: Int, _ ow: Int) -> [Int] {
        var columnBlock = [Int](repeating: 0, count: w)
        for ox in 0..<ow {
            let x0 = ox * w / ow, x1 = max(x0 + 1, (ox + 1) * w / ow)
            for x in x0..<x1 { columnBlock[x] = ox }
        }
        return columnBlock
    }

    // MARK: Shrinking

    /// Where `shrink` reads pixels: one loop, specialised for each kind of picture.
    private protocol Source {
        /// Red, green, blue and alpha of pixel `i`, and whether it is coloured (only
        /// asked when keeping colour).
        func pixel(_ i: Int) -> (r: UInt32, g: UInt32, b: UInt32, a: UInt32, coloured: Bool)
    }

    private struct RGBASource: Source {
        let pixels: UnsafeBufferPointer<UInt8>
        let keepingColour: Bool
        @inline(__always)
        func pixel(_ i: Int) -> (r: UInt32, g: UInt32, b: UInt32, a: UInt32, coloured: Bool) {
            let o = i * 4
            let r = UInt32(pixels[o]), g = UInt32(pixels[o + 1]), b = UInt32(pixels[o + 2]), a = UInt32(pixels[o + 3])
            return (r, g, b, a, keepingColour && a > 0 && (r != g || g != b))
        }
    }

    /// Nil for an empty picture (nothing to shrink).
    private static func shrink<S: Source>(_ source: S, width w: Int, height h: Int, fitting size: Int,
                                          keepingColour: Bool) -> RGBAImage? {
        guard w > 0, h > 0 else { return nil }
        let (ow, oh) = outputSize(w, h, fitting: size)
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        // Each output row sums its block of source rows, column block by column block.
        var all = [(r: UInt64, g: UInt64, b: UInt64, a: UInt64, n: UInt64)](repeating: (0, 0, 0, 0, 0), count: ow)
        var coloured = all
        let columnBlock = columnBlocks(w, ow)
        for oy in 0..<oh {
            let y0 = oy * h / oh, y1 = max(y0 + 1, (oy + 1) * h / oh)
            for ox in 0..<ow { all[ox] = (0, 0, 0, 0, 0); coloured[ox] = (0, 0, 0, 0, 0) }
            for y in y0..<y1 {
                let row = y * w
                for x in 0..<w {
                    let p = source.pixel(row + x)
                    let ox = columnBlock[x]
                    // 64-bit sums: a block of a very large picture overflows 32 bits.
                    let r = UInt64(p.r &* p.a), g = UInt64(p.g &* p.a), b = UInt64(p.b &* p.a), a = UInt64(p.a)
                    all[ox].r &+= r; all[ox].g &+= g; all[ox].b &+= b; all[ox].a &+= a; all[ox].n &+= 1
                    if p.coloured {
                        coloured[ox].r &+= r; coloured[ox].g &+= g; coloured[ox].b &+= b
                        coloured[ox].a &+= a; coloured[ox].n &+= 1
                    }
                }
            }
            for ox in 0..<ow {
                let s = coloured[ox].n > 0 ? coloured[ox] : all[ox]
                let o = (oy * ow + ox) * 4
                if s.a > 0 {
                    out[o] = UInt8((s.r + s.a / 2) / s.a)
                    out[o + 1] = UInt8((s.g + s.a / 2) / s.a)
                    out[o + 2] = UInt8((s.b + s.a / 2) / s.a)
                    out[o + 3] = UInt8((s.a + s.n / 2) / s.n)
                }
            }
        }
        if keepingColour { spreadColour(&out, width: ow, height: oh) }
        return RGBAImage(width: ow, height: oh, pixels: out)
    }

    private static func isColoured(_ p: [UInt8], _ o: Int) -> Bool {
        p[o + 3] > 0 && (p[o] != p[o + 1] || p[o + 1] != p[o + 2])
    }

    /// Gives each grey pixel next to (4-neighbourhood) a coloured one that colour.
    private static func spreadColour(_ pixels: inout [UInt8], width: Int, height: Int) {
        let source = pixels
        for y in 0..<height {
            for x in 0..<width where !isColoured(source, (y * width + x) * 4) {
                for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                    let n = (ny * width + nx) * 4
                    if isColoured(source, n) {
                        let o = (y * width + x) * 4
                        for c in 0..<4 { pixels[o + c] = source[n + c] }
                        break
                    }
                }
            }
        }
    }
}
