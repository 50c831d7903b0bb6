import PopoverGeometry
import PopoverRaster

/// Where the seven images come from.
public enum SevenImageArtwork: Sendable, Hashable {
    /// Rendered from three colours (docs/specification.md §4).
    case rendered(ColorSet)
    /// Read from a folder of PNG files with their metrics.
    case files(ArtworkSet)
}

/// The original component's skin: seven stretchable images chosen by where the arrow
/// sits, mirrored for left arrows, stretched once or twice so the arrow lands where it
/// is asked to, over a drop shadow.
public struct SevenImageSkin: Skin, Equatable {
    public var id: String
    public var summary: String
    public var layoutMetrics: SevenImageMetrics
    public var artwork: SevenImageArtwork
    public var tint: Tint?
    /// Nil: no shadow.
    public var shadow: Shadow?

    /// The shadow of docs/specification.md §7.1: black, opacity 0.9, radius 20, offset (0, 10).
    public static let standardShadow: Shadow = {
        let spec = ShadowSpec.standard
        return Shadow(color: Color(red: spec.color.red, green: spec.color.green, blue: spec.color.blue,
                                   alpha: spec.color.alpha),
                      opacity: spec.opacity, radius: spec.radius,
                      offsetX: spec.offset.width, offsetY: spec.offset.height)
    }()

    /// A skin from parts. With image files, the metrics come from the files' metrics.json.
    public init(id: String, summary: String, artwork: SevenImageArtwork, metrics: SevenImageMetrics? = nil,
                tint: Tint? = nil, shadow: Shadow? = SevenImageSkin.standardShadow) {
        self.id = id
        self.summary = summary
        self.artwork = artwork
        if let metrics {
            layoutMetrics = metrics
        } else if case .files(let set) = artwork {
            layoutMetrics = set.metrics
        } else {
            layoutMetrics = .standard
        }
        self.tint = tint
        self.shadow = shadow
    }

    public var metrics: PopoverMetrics { layoutMetrics.popoverMetrics }

    /// `==` compares an image folder by its path and metrics (what the image cache keys
    /// on); drawing alike needs its images too.
    public func drawsAlike(_ other: any Skin) -> Bool {
        guard let other = other as? SevenImageSkin, self == other else { return false }
        if case .files(let mine) = artwork, case .files(let theirs) = other.artwork { return mine.holdsAlike(theirs) }
        return true
    }
    public var castsShadow: Bool { shadow != nil }

    public func canvasSize(for request: PopoverRequest) -> Size {
        CanvasFrame(bounds: request.bounds, shadow: shadow, scale: request.scale).size
    }

    /// One of the seven images at `scale`, tinted and mirrored as asked.
    public func sourceImage(_ image: ArrowImage, scale: Double, mirrored: Bool = false) throws(SkinError) -> Pixmap {
        try validateScale(scale)
        let key = SourceImageKey(artwork: artwork, image: image, size: layoutMetrics[image].size, scale: scale,
                                 tint: tint, mirrored: mirrored)
        do {
            return try PixmapCache.shared.pixmap(for: key) {
                if mirrored { return try sourceImage(image, scale: scale).mirrored() }
                var pixmap: Pixmap
                switch artwork {
                case .rendered(let colors):
                    pixmap = RenderedArtwork.render(image, size: layoutMetrics[image].size, colors: colors, scale: scale)
                case .files(let set):
                    pixmap = try set.image(image, scale: scale)
                }
                if let tint { pixmap = try tint.apply(to: pixmap) }
                return pixmap
            }
        } catch let error as SkinError {
            throw error
        } catch let error as RasterError {
            throw .raster(error)
        } catch {
            throw .artwork(file: "\(artwork)", problem: "\(error)")
        }
    }

    /// The layout the geometry core computes for `request` with this skin's metrics.
    func layout(for request: PopoverRequest) throws(SkinError) -> BackgroundLayout {
        do {
            return try BackgroundLayout.make(bounds: request.bounds, direction: request.direction,
                                             arrowOffset: request.arrowOffset, metrics: layoutMetrics)
        } catch {
            throw .geometry(error)
        }
    }

    /// The rectangle that casts the shadow: the request's own, or the one the geometry
    /// core derives from the bounds and the arrow.
    func shadowRect(for request: PopoverRequest) throws(SkinError) -> Rect {
        if let explicit = request.shadowRect { return explicit }
        do {
            return try ShadowGeometry.shadowRect(bounds: request.bounds, direction: request.direction,
                                                 arrowHeight: layoutMetrics.arrowHeight)
        } catch {
            throw .geometry(error)
        }
    }

    public func render(_ request: PopoverRequest) throws -> RenderedPopover {
        let layout = try layout(for: request)
        return try render(request, layout: layout)
    }

    /// Draws `request` through a given layout: the normal path passes the layout the
    /// geometry core computes; a test may pass a doctored one (say, without the
    /// rounding fix) to see what it would look like.
    public func render(_ request: PopoverRequest, layout: BackgroundLayout) throws -> RenderedPopover {
        try validateScale(request.scale)
        let frame = CanvasFrame(bounds: request.bounds, shadow: shadow, scale: request.scale)
        var canvas = Canvas(pointWidth: frame.size.width, pointHeight: frame.size.height, scale: request.scale)
        if let shadow {
            let rect = try shadowRect(for: request)
            var path = Path()
            path.addRect(x: frame.origin.x + rect.minX, y: frame.origin.y + rect.minY, width: rect.width, height: rect.height)
            canvas.drawShadow(of: path, shadow)
        }
        let image = try sourceImage(layout.image, scale: request.scale, mirrored: layout.mirrored)
        do {
            try StretchRenderer.draw(layout.stages, image: image, into: &canvas, at: frame.origin)
        } catch {
            throw SkinError.raster(error)
        }
        return RenderedPopover(pixmap: canvas.pixmap, backgroundOrigin: frame.origin)
    }
}

/// The bitmap a popover is drawn into: its bounds plus, when it casts a shadow, room
/// for everything the shadow can reach, in whole points so the background starts on a
/// pixel boundary at every scale.
struct CanvasFrame {
    var size: Size
    var origin: Point

    init(bounds: Size, shadow: Shadow?, scale: Double) {
        guard let shadow else {
            size = bounds
            origin = .zero
            return
        }
        let reach = shadow.reach(scale: scale)
        let left = max(0, (reach - shadow.offsetX).rounded(.up)), right = max(0, (reach + shadow.offsetX).rounded(.up))
        let top = max(0, (reach - shadow.offsetY).rounded(.up)), bottom = max(0, (reach + shadow.offsetY).rounded(.up))
        size = Size(width: bounds.width + left + right, height: bounds.height + top + bottom)
        origin = Point(x: left, y: top)
    }
}
