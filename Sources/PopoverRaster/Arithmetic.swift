// 8-bit fixed-point helpers. Blending works on integers so that the same inputs give the
// same bytes on every machine and thread count; every division by 255 rounds to nearest.

/// round(x / 255) for 0 <= x <= 65535, without a division.
@inline(__always)
func div255(_ x: Int) -> Int {
    let t = x + 128
    return (t + (t >> 8)) >> 8
}

/// Interpolates from `d` towards `r` by `c`/255, rounded: how partial coverage applies
/// any blend result to the destination.
@inline(__always)
func lerp255(_ d: Int, _ r: Int, _ c: Int) -> Int {
    div255(r * c + d * (255 - c))
}

/// A coverage fraction (0...1) as an 8-bit weight.
@inline(__always)
func coverageByte(_ c: Float) -> Int {
    c <= 0 ? 0 : (c >= 1 ? 255 : Int(c * 255 + 0.5))
}

/// Whether the premultiplied pixel at `p` is all zero, nothing drawn there: one load and
/// one comparison, which the blending fast paths take for every pixel they write.
@inline(__always)
func isClear(_ p: UnsafePointer<UInt8>) -> Bool {
    UnsafeRawPointer(p).loadUnaligned(as: UInt32.self) == 0
}
