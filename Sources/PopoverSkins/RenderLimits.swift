import PopoverFiles
import PopoverGeometry

/// What a request must respect before anything is allocated for it: a bitmap that a PNG
/// can hold without taking gigabytes, and an arrow on its edge. (NaN, infinities and
/// negative sizes are the geometry core's to refuse, with its own messages.)
public enum RenderLimits {
    /// The largest bitmap drawn: PNG's limits as the decoder enforces them.
    public static let pixels = PNGLimits.default

    public static func check(_ request: PopoverRequest, skin: any Skin) throws(SkinError) {
        let b = request.bounds
        guard b.width.isFinite, b.height.isFinite, b.width >= 0, b.height >= 0, request.scale > 0 else { return }
        let canvas = skin.canvasSize(for: request)
        let width = (canvas.width * request.scale).rounded(.up), height = (canvas.height * request.scale).rounded(.up)
        guard width <= Double(pixels.maxSide), height <= Double(pixels.maxSide),
              pixels.admits(width: Int(width), height: Int(height)) else {
            throw .canvasTooLarge(bounds: b, scale: request.scale, limit: "\(pixels)")
        }
        // An arrow far off its edge means nothing, and the raster core cannot place a
        // picture beyond Int.max device pixels (the two-asset skin draws its arrow there).
        let edge = request.direction.isVertical ? b.width : b.height
        if request.arrowOffset.isFinite && abs(request.arrowOffset) > edge {
            throw .arrowOffEdge(offset: request.arrowOffset, edge: edge)
        }
    }
}
