import PopoverGeometry
import PopoverRaster

/// Renders one of the seven images from three colours (docs/specification.md §4): clip to
/// the outline, fill a vertical gradient from top to bottom, then stroke the outline
/// with the border colour, 1 point wide, miter joins, butt caps, with the clip still
/// in force so only the stroke's inner half shows.
public enum RenderedArtwork {
    public static func render(_ image: ArrowImage, size: Size, colors: ColorSet, scale: Double) -> Pixmap {
        var canvas = Canvas(pointWidth: size.width, pointHeight: size.height, scale: scale)
        let outline = SevenImagePaths.path(for: image)
        canvas.clip(to: outline)
        let gradient = LinearGradient(from: colors.gradientFrom, to: colors.gradientTo,
                                      start: PathPoint(size.width / 2, 0), end: PathPoint(size.width / 2, size.height))
        canvas.fill(x: 0, y: 0, width: size.width, height: size.height, with: .linearGradient(gradient))
        canvas.stroke(outline, style: StrokeStyle(width: 1, join: .miter, cap: .butt, miterLimit: 10),
                      with: .solid(colors.border))
        return canvas.pixmap
    }
}
