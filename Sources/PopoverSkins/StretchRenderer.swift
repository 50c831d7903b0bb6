import PopoverGeometry
import PopoverRaster

/// Carries out a background layout's stretches ("measure once, stretch twice").
public enum StretchRenderer {
    /// Draws `image` (already mirrored when the layout says so) through `stages` into
    /// `canvas`, with the last stage's target at `origin` (points).
    ///
    /// Every stage but the last draws into a new bitmap of its size at the canvas's
    /// scale, as `UIGraphicsBeginImageContextWithOptions` would (a fractional size
    /// rounds up to whole pixels); that bitmap is the next stage's source.
    public static func draw(_ stages: [StretchStage], image: Pixmap, into canvas: inout Canvas,
                            at origin: Point) throws(RasterError) {
        var source = image
        for (i, stage) in stages.enumerated() {
            let resizable = ResizableImage(image: source, capInsets: RasterInsets(stage.capInsets))
            if i == stages.count - 1 {
                try canvas.draw(resizable, in: RasterRect(x: origin.x, y: origin.y,
                                                          width: stage.size.width, height: stage.size.height))
            } else {
                var intermediate = Canvas(pointWidth: stage.size.width, pointHeight: stage.size.height,
                                          scale: canvas.pixmap.scale)
                try intermediate.draw(resizable, in: RasterRect(x: 0, y: 0, width: stage.size.width,
                                                                height: stage.size.height))
                source = intermediate.pixmap
            }
        }
    }
}

extension RasterInsets {
    init(_ insets: EdgeInsets) {
        self.init(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right)
    }
}

extension Pixmap {
    /// The same image flipped left to right, pixel for pixel.
    func mirrored() -> Pixmap {
        var canvas = Canvas(Pixmap(width: width, height: height, scale: scale))
        // An exact flip of whole pixels cannot fail.
        try? canvas.draw(self, in: RasterRect(x: 0, y: 0, width: pointWidth, height: pointHeight),
                         orientation: .upMirrored, filter: .nearest)
        return canvas.pixmap
    }
}
