import PopoverGeometry
import PopoverRaster

/// What a skin draws a request from: the facts a golden records (the metrics used, the
/// image chosen and its stretches, where the arrow's apex lands, the canvas, the
/// shadow) and the outline its parts are judged by.
///
/// Every fact is computed from geometry alone, never from pixels, so computing them is
/// cheap and they say *why* two drawings differ where the pixels only say *that* they do.
public struct DrawingFacts: Sendable, Hashable {
    public var facts: Facts
    public var outline: PopoverOutline

    public init(facts: Facts, outline: PopoverOutline) {
        self.facts = facts
        self.outline = outline
    }

    /// The facts every skin records, given where the background sits on its canvas and
    /// where its arrow's apex lands (in the background's points).
    static func common(_ request: PopoverRequest, metrics: FactValue, canvas: Size, origin: Point, apex: Point) -> Facts {
        let s = request.scale
        return Facts([
            "bounds": .size(request.bounds),
            "direction": .text(request.direction.rawValue),
            "offset": .number(request.arrowOffset),
            "scale": .number(s),
            "metrics": metrics,
            "canvas": .group(Facts(["width": .number(canvas.width), "height": .number(canvas.height),
                                    "originX": .number(origin.x), "originY": .number(origin.y),
                                    "pixelWidth": .number((canvas.width * s).rounded(.up)),
                                    "pixelHeight": .number((canvas.height * s).rounded(.up))])),
            "apex": .group(Facts(["x": .number(apex.x), "y": .number(apex.y),
                                  "pixelX": .number((origin.x + apex.x) * s), "pixelY": .number((origin.y + apex.y) * s)])),
        ])
    }

    /// The outline of a popover whose arrow sits in a strip of `metrics.arrowHeight` on
    /// the request's side, its base `metrics.arrowBase` wide and centred on `centre`
    /// (the arrow's position along its edge, from the edge's start), in canvas points.
    static func stripOutline(_ request: PopoverRequest, metrics: PopoverMetrics, canvas: Size, origin: Point,
                             centre: Double, shadow: Rect? = nil) -> (outline: PopoverOutline, apex: Point) {
        let b = request.bounds, h = metrics.arrowHeight, half = metrics.arrowBase / 2
        let body: Rect, apex: Point, start: Point, end: Point
        switch request.direction {
        case .up:
            body = Rect(x: 0, y: h, width: b.width, height: b.height - h)
            apex = Point(x: centre, y: 0)
            (start, end) = (Point(x: centre - half, y: h), Point(x: centre + half, y: h))
        case .down:
            body = Rect(x: 0, y: 0, width: b.width, height: b.height - h)
            apex = Point(x: centre, y: b.height)
            (start, end) = (Point(x: centre - half, y: b.height - h), Point(x: centre + half, y: b.height - h))
        case .left:
            body = Rect(x: h, y: 0, width: b.width - h, height: b.height)
            apex = Point(x: 0, y: centre)
            (start, end) = (Point(x: h, y: centre - half), Point(x: h, y: centre + half))
        case .right:
            body = Rect(x: 0, y: 0, width: b.width - h, height: b.height)
            apex = Point(x: b.width, y: centre)
            (start, end) = (Point(x: b.width - h, y: centre - half), Point(x: b.width - h, y: centre + half))
        }
        func moved(_ p: Point) -> Point { Point(x: p.x + origin.x, y: p.y + origin.y) }
        let outline = PopoverOutline(
            canvas: canvas, scale: request.scale,
            body: Rect(x: body.minX + origin.x, y: body.minY + origin.y, width: body.width, height: body.height),
            cornerRadius: metrics.cornerRadius, apex: moved(apex), baseStart: moved(start), baseEnd: moved(end),
            shadow: shadow)
        return (outline, apex)
    }
}

extension Skin {
    /// A skin that says nothing more about how it draws: its metrics, the arrow centred
    /// at the requested offset in the strip its height takes, the canvas as the bounds.
    public func drawingFacts(for request: PopoverRequest) throws -> DrawingFacts {
        let canvas = canvasSize(for: request)
        let edge = request.direction.isVertical ? request.bounds.width : request.bounds.height
        let (outline, apex) = DrawingFacts.stripOutline(request, metrics: metrics, canvas: canvas, origin: .zero,
                                                        centre: edge / 2 + request.arrowOffset)
        return DrawingFacts(facts: DrawingFacts.common(request, metrics: .metrics(metrics), canvas: canvas, origin: .zero,
                                                       apex: apex),
                            outline: outline)
    }
}

// MARK: The seven-image skin

extension SevenImageSkin {
    /// The image chosen, whether mirrored, each stretch stage, the shadow's rectangle; the
    /// apex and the outline are the image's own landmarks (from the outline data file)
    /// carried through the stretches, so they land where the drawing puts them.
    public func drawingFacts(for request: PopoverRequest) throws -> DrawingFacts {
        let layout = try layout(for: request)
        return try drawingFacts(for: request, layout: layout)
    }

    /// The facts of drawing `request` through a given layout, as `render(_:layout:)`
    /// draws it (a test's doctored layout has facts too).
    public func drawingFacts(for request: PopoverRequest, layout: BackgroundLayout) throws -> DrawingFacts {
        try validateScale(request.scale)
        let frame = CanvasFrame(bounds: request.bounds, shadow: shadow, scale: request.scale)
        let imageSize = layoutMetrics[layout.image].size
        let landmarks = SevenImageLandmarks.of(layout.image, size: imageSize, mirrored: layout.mirrored)
        let through = { (p: Point) in layout.place(p, imageSize: imageSize, scale: request.scale) }
        let apex = through(landmarks.apex)
        let bodyStart = through(landmarks.bodyMin), bodyEnd = through(landmarks.bodyMax)
        var facts = DrawingFacts.common(request, metrics: .metrics(layoutMetrics, image: layout.image), canvas: frame.size,
                                        origin: frame.origin, apex: apex)
        facts["skin"] = inputFacts(image: layout.image, scale: request.scale)
        facts["image"] = .text(layout.image.rawValue)
        facts["mirrored"] = .flag(layout.mirrored)
        facts["stages"] = .list(layout.stages.map(FactValue.stage))

        var reach: Rect?
        if let shadow {
            let rect = try shadowRect(for: request)
            facts["shadow"] = .rect(rect)
            let r = shadow.reach(scale: request.scale)
            reach = Rect(x: frame.origin.x + rect.minX + shadow.offsetX - r, y: frame.origin.y + rect.minY + shadow.offsetY - r,
                         width: rect.width + 2 * r, height: rect.height + 2 * r)
        }
        func onCanvas(_ p: Point) -> Point { Point(x: p.x + frame.origin.x, y: p.y + frame.origin.y) }
        let outline = PopoverOutline(
            canvas: frame.size, scale: request.scale,
            body: Rect(x: min(bodyStart.x, bodyEnd.x) + frame.origin.x, y: min(bodyStart.y, bodyEnd.y) + frame.origin.y,
                       width: abs(bodyEnd.x - bodyStart.x), height: abs(bodyEnd.y - bodyStart.y)),
            cornerRadius: layoutMetrics.cornerRadius, apex: onCanvas(apex),
            baseStart: onCanvas(through(landmarks.baseStart)), baseEnd: onCanvas(through(landmarks.baseEnd)),
            shadow: reach)
        return DrawingFacts(facts: facts, outline: outline)
    }
}

extension SevenImageSkin {
    /// The skin's inputs a drawing uses beyond its metrics, named as skin.json names them
    /// (`images.colours.border`, `tint.colour`, `shadow`; for artwork files the file
    /// drawn from and its digest): what tells "the skin was edited" from "the code
    /// changed" when a golden fails.
    func inputFacts(image: ArrowImage, scale: Double) -> FactValue {
        var inputs = Facts()
        switch artwork {
        case .rendered(let colours):
            inputs["images"] = .group(Facts(["colours": .group(Facts([
                "border": .text(Self.colourText(colours.border)), "gradientFrom": .text(Self.colourText(colours.gradientFrom)),
                "gradientTo": .text(Self.colourText(colours.gradientTo))]))]))
        case .files(let set):
            if let file = set.source(image, scale: scale) {
                inputs["images"] = .group(Facts(["file": .text(file.name), "fileDigest": .text(file.digest)]))
            }
        }
        if let tint {
            inputs["tint"] = .group(Facts(["colour": .text(Self.colourText(tint.color)),
                                           "atScaleOne": .flag(tint.reproducesScaleOneBlur)]))
        }
        inputs["shadow"] = .flag(shadow != nil)
        return .group(inputs)
    }

    /// A colour as skin.json writes it, `[r, g, b, a]` from 0 to 1, to six places.
    static func colourText(_ c: Color) -> String {
        "[" + [c.red, c.green, c.blue, c.alpha].map { plainNumber(($0 * 1e6).rounded() / 1e6) }.joined(separator: ", ") + "]"
    }
}

/// Where an image's arrow and body sit, in the image's points: read from the outline
/// data file (each outline starts at its apex, goes to one end of the arrow's base and
/// comes back from the other; its other points bound the body), then flipped and
/// mirrored as the image is.
struct SevenImageLandmarks {
    var apex: Point
    var baseStart: Point
    var baseEnd: Point
    var bodyMin: Point
    var bodyMax: Point

    static func of(_ image: ArrowImage, size: Size, mirrored: Bool) -> SevenImageLandmarks {
        var marks = standard[image]!
        // Artwork of another size than the outlines': keep each landmark's distance from
        // the image's nearer edges.
        let standardSize = image.standardSpec.size
        if size != standardSize {
            func fit(_ p: Point) -> Point {
                Point(x: p.x > standardSize.width / 2 ? size.width - (standardSize.width - p.x) : p.x,
                      y: p.y > standardSize.height / 2 ? size.height - (standardSize.height - p.y) : p.y)
            }
            marks = SevenImageLandmarks(apex: fit(marks.apex), baseStart: fit(marks.baseStart), baseEnd: fit(marks.baseEnd),
                                        bodyMin: fit(marks.bodyMin), bodyMax: fit(marks.bodyMax))
        }
        guard mirrored else { return marks }
        func flip(_ p: Point) -> Point { Point(x: size.width - p.x, y: p.y) }
        return SevenImageLandmarks(apex: flip(marks.apex), baseStart: flip(marks.baseEnd), baseEnd: flip(marks.baseStart),
                                   bodyMin: flip(marks.bodyMin), bodyMax: flip(marks.bodyMax))
    }

    static let standard: [ArrowImage: SevenImageLandmarks] = {
        do {
            return try read(PackageResources.seven_image_outlines_json)
        } catch {
            fatalError("Resources/seven-image-outlines.json: \(error)")
        }
    }()

    static func read(_ bytes: [UInt8]) throws -> [ArrowImage: SevenImageLandmarks] {
        let outlines = try OutlineFile.commands(bytes)
        let flips = try OutlineFile.flipHeights(bytes)
        var result: [ArrowImage: SevenImageLandmarks] = [:]
        for image in ArrowImage.allCases {
            guard let (name, flipHeight) = flips[image], let commands = outlines[name],
                  commands.first?.0 == "move", commands.count >= 4 else {
                throw OutlineFile.Problem(description: "images.\(image.rawValue): no outline starting at its apex")
            }
            // Every point a command names (curve and arc controls included: they bound the body).
            let drawn = commands.filter { $0.0 != "close" }
            func point(_ command: (String, [Double])) -> Point {
                let n = command.1
                return Point(x: n[n.count - 2], y: n[n.count - 1])
            }
            func flipped(_ p: Point) -> Point { flipHeight.map { Point(x: p.x, y: $0 - p.y) } ?? p }
            let apex = point(drawn[0]), start = point(drawn[drawn.count - 1]), end = point(drawn[1])
            var xs: [Double] = [], ys: [Double] = []
            for command in drawn.dropFirst() {
                let n = command.1
                for i in stride(from: 0, to: n.count - 1, by: 2) where command.0 != "arcTo" || i < 4 {
                    xs.append(n[i])
                    ys.append(n[i + 1])
                }
            }
            // The body is what lies beyond the arrow's base: leave out the apex's side.
            let bodyMin = Point(x: xs.min()!, y: ys.min()!), bodyMax = Point(x: xs.max()!, y: ys.max()!)
            let a = flipped(apex), s = flipped(start), e = flipped(end)
            let low = flipped(bodyMin), high = flipped(bodyMax)
            result[image] = SevenImageLandmarks(apex: a, baseStart: s, baseEnd: e,
                                                bodyMin: Point(x: min(low.x, high.x), y: min(low.y, high.y)),
                                                bodyMax: Point(x: max(low.x, high.x), y: max(low.y, high.y)))
        }
        return result
    }
}

extension BackgroundLayout {
    /// Where a point of the (mirrored) image lands in the bounds after every stage's
    /// stretch. Caps keep their points; the stretchable middle spreads over what the
    /// target leaves; a target shorter than both caps shrinks them as the renderer does
    /// (docs/specification.md §6.3).
    func place(_ p: Point, imageSize: Size, scale: Double) -> Point {
        var x = p.x, y = p.y
        var source = imageSize
        for stage in stages {
            let i = stage.capInsets
            x = Self.placeAlong(x, source: source.width, lead: i.left, trail: i.right, target: stage.size.width, scale: scale)
            y = Self.placeAlong(y, source: source.height, lead: i.top, trail: i.bottom, target: stage.size.height, scale: scale)
            source = stage.size
        }
        return Point(x: x, y: y)
    }

    static func placeAlong(_ v: Double, source: Double, lead: Double, trail: Double, target: Double, scale: Double) -> Double {
        if target < lead + trail {
            let share = lead + trail == 0 ? target / 2 : target * lead / (lead + trail)
            let split = (share * scale).rounded() / scale
            if v <= lead { return lead == 0 ? 0 : v * split / lead }
            return target - (source - v) * (target - split) / max(trail, .leastNonzeroMagnitude)
        }
        if v <= lead { return v }
        if v >= source - trail { return target - (source - v) }
        let middle = source - lead - trail
        return lead + (v - lead) * (target - lead - trail) / max(middle, .leastNonzeroMagnitude)
    }
}

// MARK: The two-asset and path skins

extension TwoAssetSkin {
    /// The background's rectangle, the arrow image's centre and turn.
    public func drawingFacts(for request: PopoverRequest) throws -> DrawingFacts {
        try validateScale(request.scale)
        let edge = request.direction.isVertical ? request.bounds.width : request.bounds.height
        let centre = edge / 2 + request.arrowOffset
        let canvas = canvasSize(for: request)
        let (outline, apex) = DrawingFacts.stripOutline(request, metrics: metrics, canvas: canvas, origin: .zero, centre: centre)
        var facts = DrawingFacts.common(request, metrics: .metrics(metrics), canvas: canvas, origin: .zero, apex: apex)
        facts["background"] = .rect(outline.body)
        facts["arrowImage"] = .size(arrowSize)
        return DrawingFacts(facts: facts, outline: outline)
    }
}

extension PathSkin {
    /// The outline's arrow, kept between the corners' arcs as the drawing keeps it.
    public func drawingFacts(for request: PopoverRequest) throws -> DrawingFacts {
        try validateScale(request.scale)
        let b = request.bounds, d = request.direction
        let edge = d.isVertical ? b.width : b.height
        let inset = 0.5 / request.scale, r = metrics.cornerRadius, half = metrics.arrowBase / 2
        let lowest = inset + r + half, highest = edge - inset - r - half
        let centre = min(max(edge / 2 + request.arrowOffset, lowest), max(lowest, highest))
        let canvas = canvasSize(for: request)
        let (outline, apex) = DrawingFacts.stripOutline(request, metrics: metrics, canvas: canvas, origin: .zero, centre: centre)
        var facts = DrawingFacts.common(request, metrics: .metrics(metrics), canvas: canvas, origin: .zero, apex: apex)
        facts["arrowClamped"] = .flag(centre != edge / 2 + request.arrowOffset)
        return DrawingFacts(facts: facts, outline: outline)
    }
}
