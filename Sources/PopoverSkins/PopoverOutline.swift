import PopoverGeometry

/// The parts of a drawn popover a changed pixel can lie in, in the order a pixel on the
/// boundary of two is given to (the arrow first: a moved arrow also moves the border
/// around it, and "the arrow moved" is what a reviewer wants to read).
public enum PopoverPart: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case arrow, border, body, shadow, outside

    public static func < (a: PopoverPart, b: PopoverPart) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where the parts of a drawn popover lie on its canvas: the body (a rounded rectangle),
/// the arrow (a triangle on one of its edges), the border (a band either side of their
/// joint outline), the shadow's reach, and the rest.
///
/// It is built from the same layout that drew the case, so it moves with the geometry;
/// it is a model, not a tracing of the artwork: a band of `borderWidth` stands for
/// whatever the artwork draws along its outline.
public struct PopoverOutline: Sendable, Hashable, Codable {
    /// The canvas, in points, and its pixels per point.
    public var canvas: Size
    public var scale: Double
    /// The popover without its arrow, in canvas points.
    public var body: Rect
    public var cornerRadius: Double
    /// The arrow's apex and the two ends of its base, in canvas points.
    public var apex: Point
    public var baseStart: Point
    public var baseEnd: Point
    /// Points either side of the outline that count as border.
    public var borderWidth: Double
    /// Where a shadow can change pixels, in canvas points; nil when the skin casts none.
    public var shadow: Rect?

    public init(canvas: Size, scale: Double, body: Rect, cornerRadius: Double, apex: Point, baseStart: Point,
                baseEnd: Point, borderWidth: Double = 1, shadow: Rect? = nil) {
        self.canvas = canvas
        self.scale = scale
        self.body = body
        self.cornerRadius = cornerRadius
        self.apex = apex
        self.baseStart = baseStart
        self.baseEnd = baseEnd
        self.borderWidth = borderWidth
        self.shadow = shadow
    }

    /// The canvas's size in device pixels, as the drawing rounds it.
    public var pixelWidth: Int { Int((canvas.width * scale).rounded(.up)) }
    public var pixelHeight: Int { Int((canvas.height * scale).rounded(.up)) }

    /// The part the pixel at (x, y) of the canvas lies in, judged at its centre.
    public func part(atPixel x: Int, _ y: Int) -> PopoverPart {
        let p = Point(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale)
        // Half a device pixel more: an anti-aliased edge reaches into the next pixel.
        let band = borderWidth + 0.5 / scale
        let toBody = signedDistanceToBody(p)
        let toArrow = signedDistanceToArrow(p)
        if toArrow <= band && toBody > -band { return .arrow }
        let toOutline = min(toBody, toArrow)
        if abs(toOutline) <= band { return .border }
        if toOutline < 0 { return .body }
        if let shadow, shadow.contains(p) { return .shadow }
        return .outside
    }

    /// The part of every pixel of the canvas, row by row, as indices into
    /// `PopoverPart.allCases`.
    public func partMap() -> [UInt8] {
        let width = pixelWidth, height = pixelHeight
        var map = [UInt8](repeating: 0, count: width * height)
        let index = Dictionary(uniqueKeysWithValues: PopoverPart.allCases.enumerated().map { ($1, UInt8($0)) })
        for y in 0..<height {
            for x in 0..<width { map[y * width + x] = index[part(atPixel: x, y)]! }
        }
        return map
    }

    /// How many of the given pixels lie in each part.
    public func count(_ pixels: some Sequence<(x: Int, y: Int)>) -> [PopoverPart: Int] {
        var tally = [Int](repeating: 0, count: PopoverPart.allCases.count)
        for (x, y) in pixels { tally[PopoverPart.allCases.firstIndex(of: part(atPixel: x, y))!] += 1 }
        var counts: [PopoverPart: Int] = [:]
        for (i, part) in PopoverPart.allCases.enumerated() where tally[i] > 0 { counts[part] = tally[i] }
        return counts
    }

    // MARK: Distances, in points; negative inside

    func signedDistanceToBody(_ p: Point) -> Double {
        let r = min(cornerRadius, body.width / 2, body.height / 2)
        let cx = body.midX, cy = body.midY
        let qx = abs(p.x - cx) - (body.width / 2 - r), qy = abs(p.y - cy) - (body.height / 2 - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - r
    }

    func signedDistanceToArrow(_ p: Point) -> Double {
        // The triangle's winding, so "inside" does not depend on the order of its points.
        // (Its three edges by name, not from an array: this runs for every changed pixel.)
        let winding = cross(apex, baseEnd, baseStart) >= 0 ? 1.0 : -1.0
        let nearest = min(distance(p, toSegment: apex, baseEnd), distance(p, toSegment: baseEnd, baseStart),
                          distance(p, toSegment: baseStart, apex))
        let inside = cross(apex, baseEnd, p) * winding >= 0 && cross(baseEnd, baseStart, p) * winding >= 0
            && cross(baseStart, apex, p) * winding >= 0
        return inside ? -nearest : nearest
    }

    private func cross(_ a: Point, _ b: Point, _ c: Point) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    private func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
        let ex = p.x - (a.x + t * dx), ey = p.y - (a.y + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}

extension Rect {
    func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
}
