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
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return image }
        let factor = max(1, Double(max(w, h)) / Double(max(1, size)))
        let ow = max(1, min(w, Int((Double(w) / factor).rounded())))
        let oh = max(1, min(h, Int((Double(h) / factor).rounded())))
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        image.pixels.withUnsafeBufferPointer { src in
            for oy in 0..<oh {
                let y0 = oy * h / oh, y1 = max(y0 + 1, (oy + 1) * h / oh)
                for ox in 0..<ow {
                    let x0 = ox * w / ow, x1 = max(x0 + 1, (ox + 1) * w / ow)
                    // Sums over all pixels, and over coloured ones only.
                    var all = (r: 0, g: 0, b: 0, a: 0, n: 0)
                    var coloured = (r: 0, g: 0, b: 0, a: 0, n: 0)
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let i = (y * w + x) * 4
                            let r = Int(src[i]), g = Int(src[i + 1]), b = Int(src[i + 2]), a = Int(src[i + 3])
                            all.r += r * a; all.g += g * a; all.b += b * a; all.a += a; all.n += 1
                            if keepingColour, a > 0, r != g || g != b {
                                coloured.r += r * a; coloured.g += g * a; coloured.b += b * a
                                coloured.a += a; coloured.n += 1
                            }
                        }
                    }
                    let s = coloured.n > 0 ? coloured : all
                    let o = (oy * ow + ox) * 4
                    if s.a > 0 {
                        out[o] = UInt8((s.r + s.a / 2) / s.a)
                        out[o + 1] = UInt8((s.g + s.a / 2) / s.a)
                        out[o + 2] = UInt8((s.b + s.a / 2) / s.a)
                        out[o + 3] = UInt8((s.a + s.n / 2) / s.n)
                    }
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
