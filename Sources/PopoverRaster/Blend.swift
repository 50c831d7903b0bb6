/// How a source pixel combines with the destination, as CoreGraphics defines its blend
/// modes on premultiplied values (S source, D destination, Sa and Da their alphas):
public enum BlendMode: String, Sendable, CaseIterable {
    /// Source over: R = S + D * (1 - Sa).
    case normal
    /// R = S * (1 - Da) + D * (1 - Sa) + S * D.
    case multiply
    /// Keeps the destination where the source is opaque: R = D * Sa.
    case destinationIn
    /// R = S.
    case copy
    /// R = 0.
    case clear
}

extension BlendMode {
    /// Blends one premultiplied source pixel (components 0...255) into `d` at `offset`,
    /// with `coverage` (0...255) the fraction of the pixel the shape covers. Partial
    /// coverage interpolates between the destination and the blend's result, so an
    /// anti-aliased edge of a "copy" or "clear" leaves part of what was there.
    @inline(__always)
    func blend(sr: Int, sg: Int, sb: Int, sa: Int, coverage c: Int,
               into d: UnsafeMutablePointer<UInt8>) {
        if c == 0 { return }
        switch self {
        case .normal:
            // Scaling the source by coverage first is exactly the interpolation above,
            // with one rounding fewer.
            var r = sr, g = sg, b = sb, a = sa
            if c != 255 {
                r = div255(r * c); g = div255(g * c); b = div255(b * c); a = div255(a * c)
            }
            if a == 255 || isClear(d) {
                d[0] = UInt8(r); d[1] = UInt8(g); d[2] = UInt8(b); d[3] = UInt8(a)
                return
            }
            if a == 0 && r == 0 && g == 0 && b == 0 { return }
            let k = 255 - a
            d[0] = UInt8(r + div255(Int(d[0]) * k))
            d[1] = UInt8(g + div255(Int(d[1]) * k))
            d[2] = UInt8(b + div255(Int(d[2]) * k))
            d[3] = UInt8(a + div255(Int(d[3]) * k))
        case .multiply:
            let dr = Int(d[0]), dg = Int(d[1]), db = Int(d[2]), da = Int(d[3])
            let ks = 255 - da, kd = 255 - sa
            // One rounding for the whole sum: (x + 127) / 255 rounds to nearest, as 255 is
            // odd and x / 255 is never exactly half-way.
            let rr = min(255, (sr * ks + dr * kd + sr * dr + 127) / 255)
            let rg = min(255, (sg * ks + dg * kd + sg * dg + 127) / 255)
            let rb = min(255, (sb * ks + db * kd + sb * db + 127) / 255)
            let ra = min(255, (sa * ks + da * kd + sa * da + 127) / 255)
            store(rr, rg, rb, ra, coverage: c, into: d)
        case .destinationIn:
            store(div255(Int(d[0]) * sa), div255(Int(d[1]) * sa), div255(Int(d[2]) * sa),
                  div255(Int(d[3]) * sa), coverage: c, into: d)
        case .copy:
            store(sr, sg, sb, sa, coverage: c, into: d)
        case .clear:
            store(0, 0, 0, 0, coverage: c, into: d)
        }
    }

    @inline(__always)
    private func store(_ r: Int, _ g: Int, _ b: Int, _ a: Int, coverage c: Int, into d: UnsafeMutablePointer<UInt8>) {
        if c == 255 {
            d[0] = UInt8(r); d[1] = UInt8(g); d[2] = UInt8(b); d[3] = UInt8(a)
        } else {
            d[0] = UInt8(lerp255(Int(d[0]), r, c))
            d[1] = UInt8(lerp255(Int(d[1]), g, c))
            d[2] = UInt8(lerp255(Int(d[2]), b, c))
            d[3] = UInt8(lerp255(Int(d[3]), a, c))
        }
    }

    /// Whether a source pixel of zero (fully transparent) leaves the destination as it is;
    /// lets drawing skip pixels outside a shape only when that is true.
    var transparentSourceIsNoOp: Bool {
        switch self {
        case .normal, .multiply: true
        case .destinationIn, .copy, .clear: false
        }
    }
}
