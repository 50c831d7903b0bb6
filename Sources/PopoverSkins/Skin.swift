import PopoverGeometry
import PopoverRaster

/// What a skin is asked to draw: one popover background.
public struct PopoverRequest: Sendable, Hashable {
    /// The background's bounds in points, arrow included.
    public var bounds: Size
    public var direction: ArrowDirection
    /// How far the arrow's centre sits from the middle of its edge, positive to the
    /// right or downwards.
    public var arrowOffset: Double
    /// Pixels per point: 1, 2 or 3.
    public var scale: Double
    /// The rectangle, in the background's coordinates, that casts the shadow. Nil means
    /// the one the bounds call for (`ShadowGeometry.shadowRect`); an animation that
    /// moves the bounds without moving the shadow sets it explicitly.
    public var shadowRect: Rect?

    public init(bounds: Size, direction: ArrowDirection, arrowOffset: Double, scale: Double, shadowRect: Rect? = nil) {
        self.bounds = bounds
        self.direction = direction
        self.arrowOffset = arrowOffset
        self.scale = scale
        self.shadowRect = shadowRect
    }
}

/// A rendered popover background: the bitmap (bounds plus room for any shadow,
/// transparent elsewhere) and where in it the background's top-left corner sits.
public struct RenderedPopover: Sendable {
    public var pixmap: Pixmap
    /// In points from the bitmap's top-left corner.
    public var backgroundOrigin: Point

    public init(pixmap: Pixmap, backgroundOrigin: Point) {
        self.pixmap = pixmap
        self.backgroundOrigin = backgroundOrigin
    }
}

/// A way of drawing popover backgrounds. A skin is a value built from parts
/// (metrics, images or colours, tint, shadow); anything that can draw a request can be
/// one, and the harness needs nothing else from it.
public protocol Skin: Sendable {
    /// Stable, file-name-safe name: the first part of every case ID drawn with this
    /// skin, e.g. "gik-default".
    var id: String { get }
    /// One line for people: what the skin draws and from what.
    var summary: String { get }
    /// What placement needs: arrow size, corner radius, content insets.
    var metrics: PopoverMetrics { get }
    /// Whether the background casts a shadow.
    var castsShadow: Bool { get }
    /// The size in points of the bitmap `render` makes for `request`: the bounds, plus
    /// room for the shadow when there is one.
    func canvasSize(for request: PopoverRequest) -> Size
    func render(_ request: PopoverRequest) throws -> RenderedPopover
    /// The geometry `render` draws `request` from: what a golden's facts record and
    /// what its parts are judged by. Computed without drawing.
    func drawingFacts(for request: PopoverRequest) throws -> DrawingFacts
    /// Whether `other` holds every value this skin draws from, equal: then the two draw
    /// alike. The mutation analysis (tools/mutation) asks it of a skin set up again under
    /// a mutant, to know the mutant changed nothing a drawing reads from the skin. False
    /// unless the skin can tell.
    func drawsAlike(_ other: any Skin) -> Bool
}

extension Skin {
    public func canvasSize(for request: PopoverRequest) -> Size { request.bounds }
    public func drawsAlike(_ other: any Skin) -> Bool { false }
}

extension Skin where Self: Equatable {
    /// A skin whose stored values are all it draws from: alike when equal.
    public func drawsAlike(_ other: any Skin) -> Bool { (other as? Self) == self }
}

/// What can go wrong drawing a skin. Messages name the value or file at fault.
public enum SkinError: Error, Equatable, CustomStringConvertible {
    case geometry(GeometryError)
    case raster(RasterError)
    case invalidScale(Double)
    case artwork(file: String, problem: String)
    case unknownSkin(String, known: [String])
    /// A bitmap too large to draw or to write as a PNG.
    case canvasTooLarge(bounds: Size, scale: Double, limit: String)
    /// An arrow offset beyond the edge the arrow sits on.
    case arrowOffEdge(offset: Double, edge: Double)
    /// Colours, artwork, tint or the shadow switch asked of a skin that is not made of
    /// seven images.
    case customNeedsSevenImages(String)
    /// A skin's or artwork's file has a mistake; names the file and the field.
    case file(SkinFileProblem)

    public var description: String {
        switch self {
        case .geometry(let e): "\(e)"
        case .raster(let e): "\(e)"
        case .invalidScale(let s): "scale must be 1, 2 or 3, got \(s)"
        case .artwork(let file, let problem): "\(file): \(problem)"
        case .unknownSkin(let name, let known): "unknown skin '\(name)' (known: \(known.joined(separator: ", ")))"
        case .canvasTooLarge(let bounds, let scale, let limit):
            "\(bounds) points at scale \(Int(scale)) is too large: with room for the shadow the image would exceed "
                + "the limit of \(limit)"
        case .file(let problem): "\(problem)"
        case .customNeedsSevenImages(let name):
            "colours, artwork, tint and the shadow switch apply to seven-image (gik) skins only, not to '\(name)'"
        case .arrowOffEdge(let offset, let edge):
            "\(offset) moves the arrow off the popover: the edge it sits on is \(plainNumber(edge)) points long, so "
                + "the offset must lie within -\(plainNumber(edge))...\(plainNumber(edge))"
        }
    }
}

func validateScale(_ scale: Double) throws(SkinError) {
    guard scale == 1 || scale == 2 || scale == 3 else { throw .invalidScale(scale) }
}

