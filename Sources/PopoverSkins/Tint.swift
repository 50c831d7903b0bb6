import PopoverRaster

/// The fork's tint recipe (docs/specification.md §9): draw the image, fill its whole
/// rectangle with the tint colour in multiply mode, then draw the image again in
/// destination-in mode so the original's alpha survives.
///
/// The fork renders into a scale-1 context whatever the screen's scale, which blurs
/// retina output. `reproducesScaleOneBlur` does the same on purpose; by default the
/// recipe runs at the image's own scale and stays sharp.
public struct Tint: Sendable, Hashable {
    public var color: Color
    public var reproducesScaleOneBlur: Bool

    public init(color: Color, reproducesScaleOneBlur: Bool = false) {
        self.color = color
        self.reproducesScaleOneBlur = reproducesScaleOneBlur
    }

    public func apply(to image: Pixmap) throws(RasterError) -> Pixmap {
        var source = image
        if reproducesScaleOneBlur && image.scale != 1 {
            // Like UIGraphicsBeginImageContextWithOptions(size, NO, 1.0): the image is
            // drawn down to one pixel per point first.
            var small = Canvas(pointWidth: image.pointWidth, pointHeight: image.pointHeight, scale: 1)
            try small.draw(image, in: RasterRect(x: 0, y: 0, width: image.pointWidth, height: image.pointHeight))
            source = small.pixmap
        }
        let rect = RasterRect(x: 0, y: 0, width: source.pointWidth, height: source.pointHeight)
        var canvas = Canvas(Pixmap(width: source.width, height: source.height, scale: source.scale))
        try canvas.draw(source, in: rect)
        canvas.blendMode = .multiply
        canvas.fill(x: 0, y: 0, width: rect.width, height: rect.height, with: .solid(color))
        canvas.blendMode = .destinationIn
        try canvas.draw(source, in: rect)
        return canvas.pixmap
    }
}
