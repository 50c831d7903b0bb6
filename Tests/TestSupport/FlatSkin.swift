import PopoverGeometry
import PopoverRaster
import PopoverSkins

/// A skin that costs next to nothing to draw: the bounds filled with one colour, a
/// darker square where the arrow's centre is. Enough to exercise the harness.
public struct FlatSkin: Skin {
    public var id = "flat"
    public var summary = "flat colour, for harness tests"
    public var metrics = PopoverMetrics.path
    public var castsShadow: Bool { false }
    public var color = Color(red: 0.2, green: 0.5, blue: 0.8)

    public init(id: String = "flat", color: Color = Color(red: 0.2, green: 0.5, blue: 0.8)) {
        self.id = id
        self.color = color
    }

    public func render(_ request: PopoverRequest) throws -> RenderedPopover {
        var canvas = Canvas(pointWidth: request.bounds.width, pointHeight: request.bounds.height, scale: request.scale)
        canvas.fill(x: 0, y: 0, width: request.bounds.width, height: request.bounds.height, with: .solid(color))
        let along = (request.direction.isVertical ? request.bounds.width : request.bounds.height) / 2 + request.arrowOffset
        let (x, y) = request.direction.isVertical ? (along, 4.0) : (4.0, along)
        canvas.fill(x: x - 2, y: y - 2, width: 4, height: 4, with: .solid(.black))
        return RenderedPopover(pixmap: canvas.pixmap, backgroundOrigin: .zero)
    }
}
