import PopoverGeometry
import PopoverRaster

/// The path skin of the "drawRect" article (docs/specification.md §11): the background is
/// one outline, filled and stroked, with the arrow cut into the edge it points from.
///
/// The outline walks the popover rectangle (the bounds less the arrow's strip) with
/// arcs whose centres are the corners of that rectangle inset by the corner radius.
/// Every straight edge is moved half a device pixel inwards and the line is one device
/// pixel wide, so edges land crisply on whole pixels at every scale (the article did
/// this with 0.5 points at scale 1). The arrow keeps to the straight part of its edge:
/// an offset that would push it into a corner stops where it meets the corner's arc.
public struct PathSkin: Skin, Equatable {
    public var id: String
    public var summary: String
    public var metrics: PopoverMetrics
    public var fill: Color
    public var outline: Color
    public var castsShadow: Bool { false }

    public init(id: String, summary: String, fill: Color, outline: Color, metrics: PopoverMetrics = .path) {
        self.id = id
        self.summary = summary
        self.fill = fill
        self.outline = outline
        self.metrics = metrics
    }

    public func render(_ request: PopoverRequest) throws -> RenderedPopover {
        try validateScale(request.scale)
        let b = request.bounds
        guard b.isFiniteAndNonNegative else { throw SkinError.geometry(.invalidBounds(b)) }
        guard request.arrowOffset.isFinite else { throw SkinError.geometry(.nonFiniteArrowOffset(request.arrowOffset)) }
        let minimum = metrics.minimumBounds(for: request.direction)
        guard b.width >= minimum.width, b.height >= minimum.height else {
            throw SkinError.geometry(.boundsTooSmall(bounds: b, direction: request.direction, minimum: minimum))
        }
        let path = outlinePath(request)
        var canvas = Canvas(pointWidth: b.width, pointHeight: b.height, scale: request.scale)
        canvas.fill(path, with: .solid(fill))
        canvas.stroke(path, style: StrokeStyle(width: 1 / request.scale, join: .miter, cap: .butt), with: .solid(outline))
        return RenderedPopover(pixmap: canvas.pixmap, backgroundOrigin: .zero)
    }

    /// The outline, clockwise on screen from the top-left corner.
    public func outlinePath(_ request: PopoverRequest) -> Path {
        let b = request.bounds, h = metrics.arrowHeight, r = metrics.cornerRadius, half = metrics.arrowBase / 2
        let d = request.direction
        let outer = Rect(x: d == .left ? h : 0, y: d == .up ? h : 0,
                         width: b.width - (d.isVertical ? 0 : h), height: b.height - (d.isVertical ? h : 0))
        let inset = 0.5 / request.scale
        let x0 = outer.minX + inset, x1 = outer.maxX - inset, y0 = outer.minY + inset, y1 = outer.maxY - inset
        // The arrow's centre along its edge, kept between the corners' arcs.
        let along = d.isVertical ? (x0, x1, outer.midX) : (y0, y1, outer.midY)
        let lowest = along.0 + r + half, highest = along.1 - r - half
        let c = min(max(along.2 + request.arrowOffset, lowest), max(lowest, highest))

        var p = Path()
        p.move(to: x0 + r, y0)
        if d == .up {
            p.line(to: c - half, y0); p.line(to: c, inset); p.line(to: c + half, y0)
        }
        p.line(to: x1 - r, y0)
        p.addArc(centerX: x1 - r, y0 + r, radius: r, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        if d == .right {
            p.line(to: x1, c - half); p.line(to: b.width - inset, c); p.line(to: x1, c + half)
        }
        p.line(to: x1, y1 - r)
        p.addArc(centerX: x1 - r, y1 - r, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        if d == .down {
            p.line(to: c + half, y1); p.line(to: c, b.height - inset); p.line(to: c - half, y1)
        }
        p.line(to: x0 + r, y1)
        p.addArc(centerX: x0 + r, y1 - r, radius: r, startAngle: .pi / 2, endAngle: .pi, clockwise: true)
        if d == .left {
            p.line(to: x0, c + half); p.line(to: inset, c); p.line(to: x0, c - half)
        }
        p.line(to: x0, y0 + r)
        p.addArc(centerX: x0 + r, y0 + r, radius: r, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: true)
        p.close()
        return p
    }
}
