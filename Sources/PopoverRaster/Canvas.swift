/// What went wrong drawing: the raster core refuses requests it cannot honour rather
/// than guessing.
public enum RasterError: Error, Equatable, CustomStringConvertible {
    /// Images can be drawn only under transforms that keep them on the pixel grid
    /// (scales, flips, translations and quarter turns).
    case imageTransformNotAxisAligned
    case invalidImageRegion(String)

    public var description: String {
        switch self {
        case .imageTransformNotAxisAligned:
            "images are drawn only under scales, flips, translations and quarter turns"
        case .invalidImageRegion(let what):
            "invalid image region: \(what)"
        }
    }
}

/// A drawing context over a `Pixmap`, in the manner of a CoreGraphics bitmap context:
/// a current transform (starting at the pixmap's scale, so user space is in points), a
/// clip, a blend mode and an alpha, saved and restored as a stack.
public struct Canvas: Sendable {
    public private(set) var pixmap: Pixmap

    private struct State: Sendable {
        var transform: Transform
        var clip: CoverageMask?
        var blendMode: BlendMode = .normal
        var alpha: Double = 1
    }
    private var state: State
    private var saved: [State] = []

    public init(_ pixmap: Pixmap) {
        self.pixmap = pixmap
        state = State(transform: .scale(pixmap.scale, pixmap.scale))
    }

    /// A canvas over a new transparent bitmap of `pointWidth` x `pointHeight` points.
    public init(pointWidth: Double, pointHeight: Double, scale: Double) {
        self.init(Pixmap(pointWidth: pointWidth, pointHeight: pointHeight, scale: scale))
    }

    // MARK: State

    /// User space to device pixels.
    public var transform: Transform { state.transform }
    public var blendMode: BlendMode {
        get { state.blendMode }
        set { state.blendMode = newValue }
    }
    /// Multiplies every source pixel's alpha (and premultiplied colour).
    public var alpha: Double {
        get { state.alpha }
        set { state.alpha = min(1, max(0, newValue.isNaN ? 1 : newValue)) }
    }
    public var clipMask: CoverageMask? { state.clip }

    public mutating func save() { saved.append(state) }

    /// Returns to the last saved state; does nothing when nothing was saved.
    public mutating func restore() {
        if let last = saved.popLast() { state = last }
    }

    /// Changes user space: `t` applies before the current transform.
    public mutating func concatenate(_ t: Transform) { state.transform = state.transform.prepending(t) }
    public mutating func translate(_ x: Double, _ y: Double) { concatenate(.translation(x, y)) }
    public mutating func scale(_ sx: Double, _ sy: Double) { concatenate(.scale(sx, sy)) }
    public mutating func rotate(_ angle: Double) { concatenate(.rotation(angle)) }

    /// Narrows the clip to `path` (anti-aliased); in force until the state is restored.
    public mutating func clip(to path: Path, rule: FillRule = .nonZero) {
        let mask = coverage(of: path, rule: rule)
        let full = state.clip ?? .full(width: pixmap.width, height: pixmap.height)
        state.clip = full.intersected(with: mask)
    }

    // MARK: Shapes

    /// Fills `path` with `paint`.
    public mutating func fill(_ path: Path, with paint: Paint, rule: FillRule = .nonZero) {
        composite(coverage(of: path, rule: rule), paint: paint)
    }

    /// Strokes `path`. The pen is laid in user space and the outline transformed, so a
    /// scaled or rotated user space strokes exactly.
    public mutating func stroke(_ path: Path, style: StrokeStyle, with paint: Paint) {
        composite(coverage(ofStroke: path, style: style), paint: paint)
    }

    /// Coverage of `path` stroked with `style` under the current transform, before the clip.
    public func coverage(ofStroke path: Path, style: StrokeStyle) -> CoverageMask {
        let scale = max(abs(state.transform.determinant).squareRoot(), 1e-12)
        let tolerance = flatteningTolerance / scale
        let stroker = Stroker(style: style, tolerance: tolerance)
        let outline = stroker.outline(of: flatten(path, tolerance: tolerance)).map { line in
            var device = line
            device.points = line.points.map { $0.applying(state.transform) }
            return device
        }
        return Rasterizer.coverage(of: outline, rule: .nonZero, bitmapWidth: pixmap.width, bitmapHeight: pixmap.height)
    }

    /// Fills a rectangle in user space.
    public mutating func fill(x: Double, y: Double, width: Double, height: Double, with paint: Paint) {
        var path = Path()
        path.addRect(x: x, y: y, width: width, height: height)
        fill(path, with: paint)
    }

    /// Coverage of `path` under the current transform, before the clip.
    public func coverage(of path: Path, rule: FillRule = .nonZero) -> CoverageMask {
        Rasterizer.coverage(of: flatten(path.applying(state.transform)), rule: rule,
                            bitmapWidth: pixmap.width, bitmapHeight: pixmap.height)
    }

    // MARK: Compositing

    /// Draws `paint` through `mask`, the clip and the alpha with the current blend mode.
    mutating func composite(_ mask: CoverageMask, paint: Paint) {
        guard let shader = Shader(paint, deviceFromUser: state.transform) else { return }
        var region = mask
        if let clip = state.clip { region = region.intersected(with: clip) }
        let alpha8 = coverageByte(Float(state.alpha))
        let mode = state.blendMode
        let width = pixmap.width
        if mode == .normal, let solid = shader.constantPixel {
            compositeSolid(region, solid, alpha: alpha8)
            return
        }
        pixmap.data.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<region.height {
                let y = region.y + row
                for col in 0..<region.width {
                    let c = Int(region.values[row * region.width + col])
                    if c == 0 { continue }
                    let x = region.x + col
                    guard let p = shader.pixel(x: x, y: y) else { continue }
                    if p.a == 0 && mode.transparentSourceIsNoOp { continue }
                    var sr = Int(p.r), sg = Int(p.g), sb = Int(p.b), sa = Int(p.a)
                    if alpha8 != 255 {
                        sr = div255(sr * alpha8); sg = div255(sg * alpha8); sb = div255(sb * alpha8); sa = div255(sa * alpha8)
                    }
                    mode.blend(sr: sr, sg: sg, sb: sb, sa: sa, coverage: c, into: base + (y * width + x) * 4)
                }
            }
        }
    }

    /// Source over with one colour: the colour scaled by each coverage value is looked
    /// up, not multiplied, since shadows and fills cover large areas.
    private mutating func compositeSolid(_ region: CoverageMask, _ pixel: PremultipliedPixel, alpha: Int) {
        var r = Int(pixel.r), g = Int(pixel.g), b = Int(pixel.b), a = Int(pixel.a)
        if alpha != 255 { r = div255(r * alpha); g = div255(g * alpha); b = div255(b * alpha); a = div255(a * alpha) }
        if a == 0 && r == 0 && g == 0 && b == 0 { return }
        // scaled[c] = the colour at coverage c, packed as the four bytes in memory order.
        var scaled = [UInt32](repeating: 0, count: 256)
        for c in 1..<256 {
            let bytes = [div255(r * c), div255(g * c), div255(b * c), div255(a * c)]
            scaled[c] = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        }
        let width = pixmap.width
        withPixels { dst, _, _ in
            scaled.withUnsafeBufferPointer { table in
                region.values.withUnsafeBufferPointer { mask in
                    for row in 0..<region.height {
                        let line = dst + ((region.y + row) * width + region.x) * 4
                        let coverage = row * region.width
                        for col in 0..<region.width {
                            let c = Int(mask[coverage + col])
                            if c == 0 { continue }
                            let word = table[c]
                            let d = line + col * 4
                            let raw = UnsafeMutableRawPointer(d)
                            let sa = Int(word >> 24)
                            if sa == 255 || raw.loadUnaligned(as: UInt32.self) == 0 {
                                raw.storeBytes(of: word.littleEndian, as: UInt32.self)
                                continue
                            }
                            let k = 255 - sa
                            d[0] = UInt8(Int(word & 0xFF) + div255(Int(d[0]) * k))
                            d[1] = UInt8(Int((word >> 8) & 0xFF) + div255(Int(d[1]) * k))
                            d[2] = UInt8(Int((word >> 16) & 0xFF) + div255(Int(d[2]) * k))
                            d[3] = UInt8(sa + div255(Int(d[3]) * k))
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` over the bitmap's bytes; nothing happens for an empty bitmap.
    mutating func withPixels(_ body: (UnsafeMutablePointer<UInt8>, Int, Int) -> Void) {
        let (w, h) = (pixmap.width, pixmap.height)
        pixmap.data.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { body(base, w, h) }
        }
    }
}
