/// How the stretchable parts of a cap-inset image fill their space.
public enum ResizingMode: String, Sendable, CaseIterable {
    /// Repeat the region at its natural size (UIKit's default).
    case tile
    /// Scale the region to fit.
    case stretch
}

/// UIKit's `resizableImage(withCapInsets:resizingMode:)`: an image whose corners keep
/// their size while its edges stretch along one axis and its centre along both.
///
/// Rules, in pixels of the image:
/// - a stretchable region exactly 1 pixel wide (or tall) is stretched along that axis
///   whatever the mode, as UIKit does; a 1-point region at scale 2 is 2 pixels and tiles;
/// - when the target is smaller than the two caps of an axis together, both caps shrink
///   by the same factor to share the target in proportion to their sizes (CSS
///   border-image's rule), the boundary between them rounded to a whole device pixel so
///   no seam opens, and the centre is left out. The original component gives no rule for
///   this; its two-stage stretch reaches it near the image-choice thresholds.
public struct ResizableImage: Sendable {
    public var image: Pixmap
    /// In points of the image (pixels / image scale).
    public var capInsets: RasterInsets
    public var mode: ResizingMode

    public init(image: Pixmap, capInsets: RasterInsets, mode: ResizingMode = .tile) {
        self.image = image
        self.capInsets = capInsets
        self.mode = mode
    }

    /// Checks the insets leave a region (possibly empty) inside the image.
    func validate() throws(RasterError) {
        let i = capInsets
        guard [i.top, i.left, i.bottom, i.right].allSatisfy({ $0.isFinite && $0 >= 0 }),
              i.left + i.right <= image.pointWidth + 1e-9, i.top + i.bottom <= image.pointHeight + 1e-9 else {
            throw .invalidImageRegion("cap insets \(i) do not fit a \(image.pointWidth) x \(image.pointHeight) point image")
        }
    }
}

extension Canvas {
    /// Draws a cap-inset image into `rect` (user space): up to nine pieces, each an image
    /// draw from its source region to its target region.
    public mutating func draw(_ resizable: ResizableImage, in rect: RasterRect,
                              filter: SamplingFilter = .bilinear) throws(RasterError) {
        try resizable.validate()
        let image = resizable.image, insets = resizable.capInsets, s = image.scale
        // Source boundaries in image pixels along each axis: 0, cap, size - cap, size.
        let sourceX = [0, insets.left * s, Double(image.width) - insets.right * s, Double(image.width)]
        let sourceY = [0, insets.top * s, Double(image.height) - insets.bottom * s, Double(image.height)]
        let ctm = transform
        let devicePerPointX = (ctm.a * ctm.a + ctm.b * ctm.b).squareRoot()
        let devicePerPointY = (ctm.c * ctm.c + ctm.d * ctm.d).squareRoot()
        let targetX = Self.targetBoundaries(start: rect.x, length: rect.width, leading: insets.left,
                                            trailing: insets.right, devicePerPoint: devicePerPointX)
        let targetY = Self.targetBoundaries(start: rect.y, length: rect.height, leading: insets.top,
                                            trailing: insets.bottom, devicePerPoint: devicePerPointY)
        // UIKit's rule is about pixels: a 1-pixel region always stretches.
        let tilesX = resizable.mode == .tile && sourceX[2] - sourceX[1] > 1 + 1e-9
        let tilesY = resizable.mode == .tile && sourceY[2] - sourceY[1] > 1 + 1e-9
        for row in 0..<3 {
            for col in 0..<3 {
                let sw = sourceX[col + 1] - sourceX[col], sh = sourceY[row + 1] - sourceY[row]
                let tw = targetX[col + 1] - targetX[col], th = targetY[row + 1] - targetY[row]
                guard sw > 1e-9, sh > 1e-9, tw > 1e-9, th > 1e-9 else { continue }
                try draw(image, in: RasterRect(x: targetX[col], y: targetY[row], width: tw, height: th),
                         source: RasterRect(x: sourceX[col], y: sourceY[row], width: sw, height: sh),
                         filter: filter, tileX: col == 1 && tilesX, tileY: row == 1 && tilesY)
            }
        }
    }

    /// Target boundaries along one axis: start, end of leading cap, start of trailing
    /// cap, end. Caps that do not fit shrink in proportion (see `ResizableImage`).
    static func targetBoundaries(start: Double, length: Double, leading: Double, trailing: Double,
                                 devicePerPoint: Double) -> [Double] {
        let end = start + length
        if leading + trailing <= length {
            return [start, start + leading, end - trailing, end]
        }
        let share = leading + trailing > 0 ? leading / (leading + trailing) : 0.5
        var split = length * share
        if devicePerPoint > 0 { split = (split * devicePerPoint).rounded() / devicePerPoint }
        return [start, start + split, start + split, end]
    }
}
