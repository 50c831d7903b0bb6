import PopoverGeometry
import PopoverRaster

/// The outlines the seven images are drawn from (reference section 2), in the image's
/// points. Up images carry the arrow on top pointing up; side images carry it on the
/// right pointing right.
public enum SevenImagePaths {
    public static func path(for image: ArrowImage) -> Path {
        switch image {
        case .up: return upPath
        case .upRight: return upRightPath
        case .down: return upPath.applying(flip(height: 51))
        case .downRight: return upRightPath.applying(flip(height: 51))
        case .side: return sidePath
        case .sideTop: return sideBottomPath.applying(flip(height: 67))
        case .sideBottom: return sideBottomPath
        }
    }

    /// y -> height - y.
    private static func flip(height: Double) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: height)
    }

    /// U: the arrow in the middle of the top edge.
    private static let upPath: Path = {
        var p = Path()
        p.move(to: 28, 1)
        p.line(to: 46, 19)
        p.line(to: 48, 19)
        p.arc(tangentTo: 55, 19, 55, 26, radius: 7)
        p.line(to: 55, 42)
        p.arc(tangentTo: 55, 49, 48, 49, radius: 7)
        p.line(to: 8, 49)
        p.arc(tangentTo: 1, 49, 1, 42, radius: 7)
        p.line(to: 1, 26)
        p.arc(tangentTo: 1, 19, 8, 19, radius: 7)
        p.line(to: 10, 19)
        p.close()
        return p
    }()

    /// UR: the arrow runs into the top-right corner, whose curve replaces the arc.
    private static let upRightPath: Path = {
        var p = Path()
        p.move(to: 28, 1)
        p.line(to: 46, 19)
        p.curve(to: 50, 26, control1: 49, 21, control2: 50, 23)
        p.line(to: 50, 42)
        p.arc(tangentTo: 50, 49, 43, 49, radius: 7)
        p.line(to: 8, 49)
        p.arc(tangentTo: 1, 49, 1, 42, radius: 7)
        p.line(to: 1, 26)
        p.arc(tangentTo: 1, 19, 8, 19, radius: 7)
        p.line(to: 10, 19)
        p.close()
        return p
    }()

    /// S: a narrow body (x 1...17) with the arrow on its right, 7 below the middle.
    private static let sidePath: Path = {
        var p = Path()
        p.move(to: 35, 43)
        p.line(to: 17, 61)
        p.line(to: 17, 63)
        p.arc(tangentTo: 17, 70, 10, 70, radius: 7)
        p.line(to: 8, 70)
        p.arc(tangentTo: 1, 70, 1, 63, radius: 7)
        p.line(to: 1, 8)
        p.arc(tangentTo: 1, 1, 8, 1, radius: 7)
        p.line(to: 10, 1)
        p.arc(tangentTo: 17, 1, 17, 8, radius: 7)
        p.line(to: 17, 25)
        p.close()
        return p
    }()

    /// SB: the arrow runs into the bottom-right corner.
    private static let sideBottomPath: Path = {
        var p = Path()
        p.move(to: 35, 43)
        p.line(to: 17, 61)
        p.curve(to: 10, 65, control1: 15, 64, control2: 13, 65)
        p.line(to: 8, 65)
        p.arc(tangentTo: 1, 65, 1, 58, radius: 7)
        p.line(to: 1, 8)
        p.arc(tangentTo: 1, 1, 8, 1, radius: 7)
        p.line(to: 10, 1)
        p.arc(tangentTo: 17, 1, 17, 8, radius: 7)
        p.line(to: 17, 25)
        p.close()
        return p
    }()
}
