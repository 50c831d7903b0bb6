/// How an image's pixels are turned before drawing, as UIKit's image orientations.
public enum ImageOrientation: String, Sendable, CaseIterable {
    case up
    /// Flipped left-right.
    case upMirrored
    /// Turned half a turn.
    case down
    /// Flipped top-bottom.
    case downMirrored
    /// Turned a quarter turn counter-clockwise: the image's top is at the left.
    case left
    case leftMirrored
    /// Turned a quarter turn clockwise: the image's top is at the right.
    case right
    case rightMirrored

    /// Where a point at (u, v) of the drawn rectangle (each 0...1) comes from in the image.
    func source(_ u: Double, _ v: Double) -> (Double, Double) {
        switch self {
        case .up: (u, v)
        case .upMirrored: (1 - u, v)
        case .down: (1 - u, 1 - v)
        case .downMirrored: (u, 1 - v)
        case .right: (v, 1 - u)
        case .rightMirrored: (v, u)
        case .left: (1 - v, u)
        case .leftMirrored: (1 - v, 1 - u)
        }
    }

    /// Whether the image's width runs along the drawn rectangle's height.
    public var isQuarterTurn: Bool {
        switch self {
        case .left, .leftMirrored, .right, .rightMirrored: true
        default: false
        }
    }
}

/// How an image is sampled when its pixels do not land one-to-one on the bitmap's.
public enum SamplingFilter: String, Sendable, CaseIterable {
    /// The pixel whose square holds the sample point.
    case nearest
    /// The four nearest pixels, weighted by distance (in premultiplied values), never
    /// reaching outside the source region, so parts of a cap-inset image do not bleed.
    case bilinear
}

/// One axis of an image draw: for each device column (or row), where to sample and how
/// much of the pixel the drawn rectangle covers.
private struct AxisSamples: Equatable {
    var first: [Int32]
    var second: [Int32]
    /// Weight of `second`, 0...256.
    var weight: [Int32]
    var coverage: [Float]

    static let empty = AxisSamples(first: [], second: [], weight: [], coverage: [])

    /// The part that draws anything, with where it starts when this starts at `start`: the
    /// pixels at either end that the drawn rectangle does not cover at all left out (their
    /// coverage, and any product with it, is 0, so every path skips them).
    func covered(from start: Int) -> (start: Int, samples: AxisSamples) {
        guard let lo = coverage.firstIndex(where: { $0 > 0 }), let hi = coverage.lastIndex(where: { $0 > 0 }) else {
            return (0, .empty)
        }
        return (start + lo, AxisSamples(first: Array(first[lo...hi]), second: Array(second[lo...hi]),
                                        weight: Array(weight[lo...hi]), coverage: Array(coverage[lo...hi])))
    }
}

/// Where an image draw lands: the device pixels it touches, from (`x`, `y`), and where each
/// of their columns and rows samples the image. Worked out apart from the pixels, in a
/// function of its own, so that it can be compared as a whole (see `imageSpans`).
private struct ImageSpans: Equatable {
    var x: Int
    var y: Int
    var alongX: AxisSamples
    var alongY: AxisSamples
    /// Whether the image's x runs along the device's y (a quarter turn).
    var swap: Bool

    /// Spans are the same when they draw the same pixels: columns and rows at the edges
    /// that the rectangle does not cover at all draw nothing, so spans one pixel wider
    /// there (a range rounded outwards) are the same spans.
    static func == (l: ImageSpans, r: ImageSpans) -> Bool {
        let (lx, rx) = (l.alongX.covered(from: l.x), r.alongX.covered(from: r.x))
        let (ly, ry) = (l.alongY.covered(from: l.y), r.alongY.covered(from: r.y))
        return l.swap == r.swap && lx.start == rx.start && lx.samples == rx.samples
            && ly.start == ry.start && ly.samples == ry.samples
    }

    static let none = ImageSpans(x: 0, y: 0, alongX: .empty, alongY: .empty, swap: false)
}

extension Canvas {
    /// Draws `image` (or its `source` region, in pixels) into `rect` (user space), turned
    /// by `orientation`.
    ///
    /// Along an axis with `tile` set, the region repeats at its natural size (its pixels
    /// at the image's scale) from the rectangle's top-left instead of being stretched;
    /// tiling works with the `.up` orientation only. Rectangle edges that fall inside a
    /// pixel give that pixel partial coverage, as any shape's edge would.
    public mutating func draw(_ image: Pixmap, in rect: RasterRect, source: RasterRect? = nil,
                              orientation: ImageOrientation = .up, filter: SamplingFilter = .bilinear,
                              tileX: Bool = false, tileY: Bool = false) throws(RasterError) {
        let src = source ?? RasterRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        guard src.isFiniteAndPositive, src.x >= 0, src.y >= 0,
              src.maxX <= Double(image.width) + 1e-9, src.maxY <= Double(image.height) + 1e-9 else {
            throw .invalidImageRegion("source \(src) outside a \(image.width) x \(image.height) image")
        }
        guard rect.x.isFinite, rect.y.isFinite, rect.width.isFinite, rect.height.isFinite else {
            throw .invalidImageRegion("destination \(rect) is not finite")
        }
        if rect.width <= 0 || rect.height <= 0 { return }
        guard transform.isAxisAligned, let userFromDevice = transform.inverted else { throw .imageTransformNotAxisAligned }
        if (tileX || tileY) && orientation != .up { throw .invalidImageRegion("tiling needs the up orientation") }
        let spans = imageSpans(image, in: rect, source: src, orientation: orientation, filter: filter, tileX: tileX,
                               tileY: tileY, userFromDevice: userFromDevice)
        let alongX = spans.alongX, alongY = spans.alongY
        let px0 = spans.x, py0 = spans.y
        let columns = alongX.first.count, rows = alongY.first.count
        guard columns > 0, rows > 0 else { return }
        let clip = clipMask
        let alpha8 = coverageByte(Float(alpha))
        let mode = blendMode
        let imageWidth = image.width
        let swap = spans.swap

        // The common case in every popover: whole source pixels, no clip, no alpha,
        // source over. Same arithmetic as below, without the general machinery. Pixels the
        // rectangle does not cover draw nothing on either path, so they do not count (spans
        // that differ only there draw the same, as `ImageSpans` compares them).
        let unweighted = zip(alongX.weight, alongX.coverage).allSatisfy { $0 == 0 || $1 <= 0 }
            && zip(alongY.weight, alongY.coverage).allSatisfy { $0 == 0 || $1 <= 0 }
        if !swap && clip == nil && alpha8 == 255 && mode == .normal && unweighted {
            let coverX = alongX.coverage.map { coverageByte($0) }
            image.data.withUnsafeBufferPointer { source in
                guard let sp = source.baseAddress else { return }
                withPixels { dst, width, _ in
                    alongX.first.withUnsafeBufferPointer { sourceColumn in
                        coverX.withUnsafeBufferPointer { coverColumn in
                            for row in 0..<rows {
                                let coverY = coverageByte(alongY.coverage[row])
                                let sourceRow = sp + Int(alongY.first[row]) * imageWidth * 4
                                let destination = dst + ((py0 + row) * width + px0) * 4
                                for col in 0..<columns {
                                    let cx = Int(coverColumn[col])
                                    let c = cx == 255 && coverY == 255 ? 255
                                        : coverageByte(alongX.coverage[col] * alongY.coverage[row])
                                    if c == 0 { continue }
                                    let p = sourceRow + Int(sourceColumn[col]) * 4
                                    let d = destination + col * 4
                                    if c == 255 && (p[3] == 255 || isClear(d)) {
                                        UnsafeMutableRawPointer(d).storeBytes(
                                            of: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self), as: UInt32.self)
                                        continue
                                    }
                                    if isClear(p) { continue }
                                    BlendMode.normal.blend(sr: Int(p[0]), sg: Int(p[1]), sb: Int(p[2]), sa: Int(p[3]),
                                                           coverage: c, into: d)
                                }
                            }
                        }
                    }
                }
            }
            return
        }

        image.data.withUnsafeBufferPointer { source in
            guard let sp = source.baseAddress else { return }
            withPixels { dst, width, _ in
                for row in 0..<rows {
                    let y = py0 + row
                    let coverY = alongY.coverage[row]
                    for col in 0..<columns {
                        let x = px0 + col
                        var c = coverageByte(alongX.coverage[col] * coverY)
                        if let clip { c = div255(c * Int(clip.coverage(atX: x, y: y))) }
                        if c == 0 { continue }
                        let (xi0, xi1, xw, yi0, yi1, yw) = swap
                            ? (alongY.first[row], alongY.second[row], alongY.weight[row],
                               alongX.first[col], alongX.second[col], alongX.weight[col])
                            : (alongX.first[col], alongX.second[col], alongX.weight[col],
                               alongY.first[row], alongY.second[row], alongY.weight[row])
                        var (r, g, b, a) = samplePixel(sp, imageWidth, Int(xi0), Int(xi1), Int(xw),
                                                       Int(yi0), Int(yi1), Int(yw))
                        if a == 0 && mode.transparentSourceIsNoOp { continue }
                        if alpha8 != 255 {
                            r = div255(r * alpha8); g = div255(g * alpha8); b = div255(b * alpha8); a = div255(a * alpha8)
                        }
                        mode.blend(sr: r, sg: g, sb: b, sa: a, coverage: c, into: dst + (y * width + x) * 4)
                    }
                }
            }
        }
    }

    /// The device pixels drawing `source` of `image` into `rect` touches (the transform,
    /// axis-aligned, and the clip's bounds applied) and where each samples; `.none` when it
    /// touches none. Depends on nothing but its arguments and the canvas's state.
    private func imageSpans(_ image: Pixmap, in rect: RasterRect, source src: RasterRect, orientation: ImageOrientation,
                            filter: SamplingFilter, tileX: Bool, tileY: Bool, userFromDevice: Transform) -> ImageSpans {
        let ctm = transform

        // The drawn rectangle in device pixels, and the pixels it touches.
        let c0 = ctm.apply(rect.x, rect.y), c1 = ctm.apply(rect.maxX, rect.maxY)
        let dx0 = min(c0.x, c1.x), dx1 = max(c0.x, c1.x), dy0 = min(c0.y, c1.y), dy1 = max(c0.y, c1.y)
        // Clamped to the bitmap before converting: a rectangle far off the bitmap must not
        // overflow Int.
        let w = Double(pixmap.width), h = Double(pixmap.height)
        var px0 = Int(min(w, max(0, dx0)).rounded(.down)), px1 = Int(min(w, max(0, dx1)).rounded(.up))
        var py0 = Int(min(h, max(0, dy0)).rounded(.down)), py1 = Int(min(h, max(0, dy1)).rounded(.up))
        if let clip = clipMask {
            px0 = max(px0, clip.x); px1 = min(px1, clip.x + clip.width)
            py0 = max(py0, clip.y); py1 = min(py1, clip.y + clip.height)
        }
        guard px1 > px0, py1 > py0 else { return .none }

        // Device -> user is axis-aligned: user x comes from device x, or (quarter turn)
        // from device y.
        let swapsUser = userFromDevice.a == 0 && userFromDevice.d == 0
        // Each user axis to the image, then whether the image's x follows user x or user y.
        func userToSource(_ ux: Double, _ uy: Double) -> (Double, Double) {
            let u = (ux - rect.x) / rect.width, v = (uy - rect.y) / rect.height
            if tileX || tileY {
                let sx = tileX ? wrap((ux - rect.x) * image.scale, src.width) : u * src.width
                let sy = tileY ? wrap((uy - rect.y) * image.scale, src.height) : v * src.height
                return (src.x + sx, src.y + sy)
            }
            let (su, sv) = orientation.source(u, v)
            return (src.x + su * src.width, src.y + sv * src.height)
        }
        // Which source axis each device axis drives: sample two probe points.
        let imageXFollowsUserY = orientation.isQuarterTurn
        let imageXFollowsDeviceY = swapsUser != imageXFollowsUserY

        let columns = px1 - px0, rows = py1 - py0
        func samples(count: Int, start: Int, isDeviceX: Bool) -> AxisSamples {
            var s = AxisSamples.empty
            s.first.reserveCapacity(count); s.second.reserveCapacity(count)
            s.weight.reserveCapacity(count); s.coverage.reserveCapacity(count)
            let drivesImageX = isDeviceX != imageXFollowsDeviceY
            let (lo, hi) = drivesImageX
                ? (Int(src.x.rounded(.down)), Int((src.maxX - 1e-9).rounded(.up)) - 1)
                : (Int(src.y.rounded(.down)), Int((src.maxY - 1e-9).rounded(.up)) - 1)
            let tiled = drivesImageX ? tileX : tileY
            let tileStart = drivesImageX ? src.x : src.y
            let tileLength = drivesImageX ? src.width : src.height
            let (e0, e1) = isDeviceX ? (dx0, dx1) : (dy0, dy1)
            for i in 0..<count {
                let d = Double(start + i)
                s.coverage.append(Float(max(0, min(d + 1, e1) - max(d, e0))))
                // The sample point: this pixel's centre, the other axis at any fixed value
                // (the mapping separates), taken at the drawn rectangle's middle.
                let centre = d + 0.5
                let (ux, uy) = isDeviceX
                    ? userFromDevice.apply(centre, (dy0 + dy1) / 2)
                    : userFromDevice.apply((dx0 + dx1) / 2, centre)
                let (sx, sy) = userToSource(ux, uy)
                let coordinate = drivesImageX ? sx : sy
                switch filter {
                case .nearest:
                    let k = clampIndex(Int(coordinate.rounded(.down)), lo, hi)
                    s.first.append(Int32(k)); s.second.append(Int32(k)); s.weight.append(0)
                case .bilinear:
                    let f = coordinate - 0.5
                    let base = f.rounded(.down)
                    let w = Int32(((f - base) * 256).rounded())
                    var a = Int(base), b = Int(base) + 1
                    if tiled {
                        // Neighbours wrap around the tile rather than clamp.
                        let t0 = Int(tileStart.rounded(.down)), n = max(1, Int(tileLength.rounded()))
                        a = t0 + ((a - t0) % n + n) % n
                        b = t0 + ((b - t0) % n + n) % n
                    }
                    let first = clampIndex(a, lo, hi), second = clampIndex(b, lo, hi)
                    s.first.append(Int32(first))
                    s.second.append(Int32(second))
                    // Both neighbours clamped to one pixel: no weighting needed.
                    s.weight.append(first == second ? 0 : w)
                }
            }
            return s
        }
        return ImageSpans(x: px0, y: py0, alongX: samples(count: columns, start: px0, isDeviceX: true),
                          alongY: samples(count: rows, start: py0, isDeviceX: false), swap: imageXFollowsDeviceY)
    }
}

@inline(__always)
private func clampIndex(_ i: Int, _ lo: Int, _ hi: Int) -> Int { min(max(i, lo), max(lo, hi)) }

/// The remainder of `value` by `length`, always in 0..<length.
private func wrap(_ value: Double, _ length: Double) -> Double {
    guard length > 0 else { return 0 }
    let r = value.truncatingRemainder(dividingBy: length)
    return r < 0 ? r + length : r
}

/// Bilinear sample with 8-bit weights (0...256) and one rounding at the end.
@inline(__always)
private func samplePixel(_ src: UnsafePointer<UInt8>, _ width: Int, _ x0: Int, _ x1: Int, _ wx: Int,
                         _ y0: Int, _ y1: Int, _ wy: Int) -> (Int, Int, Int, Int) {
    let p00 = src + (y0 * width + x0) * 4
    if wx == 0 && wy == 0 {
        return (Int(p00[0]), Int(p00[1]), Int(p00[2]), Int(p00[3]))
    }
    let p01 = src + (y0 * width + x1) * 4
    let p10 = src + (y1 * width + x0) * 4
    let p11 = src + (y1 * width + x1) * 4
    @inline(__always) func channel(_ k: Int) -> Int {
        let top = Int(p00[k]) * (256 - wx) + Int(p01[k]) * wx
        let bottom = Int(p10[k]) * (256 - wx) + Int(p11[k]) * wx
        return (top * (256 - wy) + bottom * wy + 32768) >> 16
    }
    return (channel(0), channel(1), channel(2), channel(3))
}
