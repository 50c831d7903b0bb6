import Foundation
import PopoverRaster
import Testing

/// Shapes whose edges cross or overlap inside pixels, drawn on a 32 x 32 point canvas:
/// closed polygons in points, each one subpath.
enum Overlap: String, CaseIterable, CustomTestStringConvertible {
    case star, rectanglesSameWay, rectanglesOppositeWays, rotatedRectangles
    case circlesSameWay, circlesOppositeWays, bowTie, tracedTwice, outAndBack

    var testDescription: String { rawValue }

    typealias Point = Referee.Point

    var polygons: [[Point]] {
        switch self {
        case .star:
            // A pentagram: each vertex joined to the next but one.
            return [(0..<5).map { k in
                let angle = -Double.pi / 2 + Double(2 * k) * 2 * Double.pi / 5
                return (16 + 13 * cos(angle), 16.3 + 13 * sin(angle))
            }]
        case .rectanglesSameWay:
            return [Self.rectangle(3.3, 4.6, 15.2, 11.7), Self.rectangle(9.45, 8.15, 14.6, 13.3)]
        case .rectanglesOppositeWays:
            return [Self.rectangle(3.3, 4.6, 15.2, 11.7), Self.rectangle(9.45, 8.15, 14.6, 13.3).reversed()]
        case .rotatedRectangles:
            let turn = { (p: Point) -> Point in
                let (c, s) = (cos(0.37), sin(0.37))
                return (16 + c * (p.x - 16) - s * (p.y - 16), 16 + s * (p.x - 16) + c * (p.y - 16))
            }
            return [Self.rectangle(5.3, 6.6, 15.2, 11.7).map(turn), Self.rectangle(10.45, 11.15, 14.6, 9.3).map(turn)]
        case .circlesSameWay:
            return [Self.circle(12.6, 15.8, 8.7), Self.circle(19.3, 16.9, 8.2)]
        case .circlesOppositeWays:
            return [Self.circle(12.6, 15.8, 8.7), Self.circle(19.3, 16.9, 8.2).reversed()]
        case .bowTie:
            return [[(4.2, 5.1), (27.7, 26.4), (27.3, 5.6), (4.6, 27.9)]]
        case .tracedTwice:
            // One triangle, gone round twice in a single subpath: winding 2 inside.
            let triangle: [Point] = [(4.3, 5.2), (27.6, 9.7), (11.1, 27.4)]
            return [triangle + triangle]
        case .outAndBack:
            // A triangle with a spike that goes out along a line and comes back on it:
            // the spike encloses nothing.
            return [[(4.3, 5.2), (27.6, 9.7), (15.2, 12.9), (29.1, 28.3), (15.2, 12.9), (11.1, 27.4)]]
        }
    }

    static func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [Point] {
        [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    }

    /// A circle as a 256-gon, so the core and the referee see the same outline (the core
    /// approximates arcs with cubics, which would be a second, unrelated difference).
    static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> [Point] {
        (0..<256).map { k in
            let angle = Double(k) * 2 * Double.pi / 256
            return (cx + r * cos(angle), cy + r * sin(angle))
        }
    }

    var path: Path {
        var p = Path()
        for polygon in polygons {
            p.move(to: polygon[0].x, polygon[0].y)
            for q in polygon.dropFirst() { p.line(to: q.x, q.y) }
            p.close()
        }
        return p
    }
}
