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

    /// The pieces drawing this image into `rect` (user space, under `transform`) takes, in
    /// order: up to nine, each a region of the image and the rectangle it is drawn into; nil
    /// when the insets leave no region (possibly empty) inside the image. Worked out apart
    /// from the pixels, so that it can be compared as a whole.
    func pieces(in rect: RasterRect, transform ctm: Transform) -> [ImagePiece]? {
        let insets = capInsets, s = image.scale
        guard [insets.top, insets.left, insets.bottom, insets.right].allSatisfy({ $0.isFinite && $0 >= 0 }),
              insets.left + insets.right <= image.pointWidth + 1e-9, insets.top + insets.bottom <= image.pointHeight + 1e-9
        else { return nil }
        // Source boundaries in image pixels along each axis: 0, cap, size - cap, size.
        let sourceX = [0, insets.left * s, Double(image.width) - insets.right * s, Double(image.width)]
        let sourceY = [0, insets.top * s, Double(image.height) - insets.bottom * s, Double(image.height)]
        let devicePerPointX = (ctm.a * ctm.a + ctm.b * ctm.b).squareRoot()
        let devicePerPointY = (ctm.c * ctm.c + ctm.d * ctm.d).squareRoot()
        let targetX = Self.targetBoundaries(start: rect.x, length: rect.width, leading: insets.left,
                                            trailing: insets.right, devicePerPoint: devicePerPointX)
        let targetY = Self.targetBoundaries(start: rect.y, length: rect.height, leading: insets.top,
                                            trailing: insets.bottom, devicePerPoint: devicePerPointY)
        let tilesX = mode == .tile && Self.tiles(sourceX)
        let tilesY = mode == .tile && Self.tiles(sourceY)
        var pieces: [ImagePiece] = []
        for row in 0..<3 {
            for col in 0..<3 {
                let sw = sourceX[col + 1] - sourceX[col], sh = sourceY[row + 1] - sourceY[row]
                let tw = targetX[col + 1] - targetX[col], th = targetY[row + 1] - targetY[row]
                guard sw > 1e-9, sh > 1e-9, tw > 1e-9, th > 1e-9 else { continue }
                pieces.append(ImagePiece(source: RasterRect(x: sourceX[col], y: sourceY[row], width: sw, height: sh),
                                         target: RasterRect(x: targetX[col], y: targetY[row], width: tw, height: th),
                                         tileX: col == 1 && tilesX, tileY: row == 1 && tilesY))
            }
        }
        return pieces
    }

    /// Whether the middle region between `source`'s boundaries (image pixels) tiles in tile
    /// mode: UIKit's rule is about pixels, and a 1-pixel region always stretches.
    static func tiles(_ source: [Double]) -> Bool {
        source[2] - source[1] > 1 + 1e-9
    }

    /// Target boundaries along one axis: start, end of leading cap, start of trailing
    /// cap, end. Caps that do not fit shrink in proportion (the rules above).
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

/// One piece of a cap-inset image's drawing: a region of the image, in pixels, drawn into a
/// rectangle in user space, tiled or stretched along each axis.
struct ImagePiece: Equatable {
    var source: RasterRect
    var target: RasterRect
    var tileX: Bool
    var tileY: Bool
}

extension Canvas {
    /// Draws a cap-inset image into `rect` (user space): up to nine pieces, each an image
    /// draw from its source region to its target region.
    public mutating func draw(_ resizable: ResizableImage, in rect: RasterRect,
                              filter: SamplingFilter = .bilinear) throws(RasterError) {
        guard let pieces = resizable.pieces(in: rect, transform: transform) else {
            let image = resizable.image
            throw .invalidImageRegion(
                "cap insets \(resizable.capInsets) do not fit a \(image.pointWidth) x \(image.pointHeight) point image")
        }
        for piece in pieces {
            try draw(resizable.image, in: piece.target, source: piece.source, filter: filter,
                     tileX: piece.tileX, tileY: piece.tileY)
        }
    }
}
