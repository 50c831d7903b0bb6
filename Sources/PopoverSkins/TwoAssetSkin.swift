import Foundation
import PopoverGeometry
import PopoverFiles
import PopoverImage
import PopoverRaster

/// The two-asset skin of the "skinning the popover" article (docs/specification.md §10): a
/// stretchable background (cap insets 40, stretch mode) whose corners a 15-point mask
/// rounds, and a separate arrow image drawn pointing up, turned to the arrow's
/// direction, on top. Its seam between body and arrow is part of the look.
public struct TwoAssetSkin: Skin, Equatable {
    public var id: String
    public var summary: String
    public var metrics: PopoverMetrics
    public var castsShadow: Bool { false }
    public let folder: String
    private let backgrounds: [Int: Pixmap]
    private let arrows: [Int: Pixmap]
    public let backgroundCapInsets: Double
    public let arrowSize: Size

    /// Loads `background.png` and `arrow.png` at 1x, 2x, 3x (`@2x`, `@3x`) and
    /// `metrics.json` from `folder`.
    public init(id: String, summary: String, folder: String, metrics: PopoverMetrics = .twoAsset) throws(SkinError) {
        self.id = id
        self.summary = summary
        self.folder = folder
        self.metrics = metrics
        struct Spec: Decodable {
            struct Image: Decodable {
                var width: Double
                var height: Double
                var capInsets: Double?
            }
            var background: Image
            var arrow: Image
        }
        let metricsPath = folder + "/metrics.json"
        let spec: Spec
        do {
            spec = try JSONFile.decode(Spec.self, from: try FileIO.readBytes(path: metricsPath))
        } catch let error as FileError {
            throw .artwork(file: metricsPath, problem: "cannot read the artwork's sizes: \(error.reason)")
        } catch {
            throw .artwork(file: metricsPath, problem: "cannot read the artwork's sizes: \(error)")
        }
        backgroundCapInsets = spec.background.capInsets ?? 0
        arrowSize = Size(width: spec.arrow.width, height: spec.arrow.height)
        func load(_ name: String, _ size: Spec.Image) throws(SkinError) -> [Int: Pixmap] {
            var out: [Int: Pixmap] = [:]
            for scale in ArtworkSet.scales {
                let path = folder + "/" + (scale == 1 ? "\(name).png" : "\(name)@\(scale)x.png")
                let image: RGBAImage
                do {
                    image = try PNGFile.read(path: path)
                } catch {
                    throw .artwork(file: path, problem: "\(error)")
                }
                let w = Int((size.width * Double(scale)).rounded()), h = Int((size.height * Double(scale)).rounded())
                guard image.width == w, image.height == h else {
                    throw .artwork(file: path, problem: "is \(image.width) x \(image.height) pixels, expected \(w) x \(h)")
                }
                out[scale] = Pixmap(image, scale: Double(scale))
            }
            return out
        }
        backgrounds = try load("background", spec.background)
        arrows = try load("arrow", spec.arrow)
    }

    public func render(_ request: PopoverRequest) throws -> RenderedPopover {
        try validateScale(request.scale)
        let b = request.bounds, h = metrics.arrowHeight
        let minimum = metrics.minimumBounds(for: request.direction)
        guard b.isFiniteAndNonNegative else { throw SkinError.geometry(.invalidBounds(b)) }
        guard request.arrowOffset.isFinite else { throw SkinError.geometry(.nonFiniteArrowOffset(request.arrowOffset)) }
        guard b.width >= minimum.width, b.height >= minimum.height else {
            throw SkinError.geometry(.boundsTooSmall(bounds: b, direction: request.direction, minimum: minimum))
        }
        // The background is the bounds less the arrow's strip; the arrow's centre sits
        // in that strip, moved along the edge by the offset.
        let background: Rect
        let centre: Point
        let turn: Double
        switch request.direction {
        case .up:
            background = Rect(x: 0, y: h, width: b.width, height: b.height - h)
            centre = Point(x: background.width / 2 + request.arrowOffset, y: h / 2)
            turn = 0
        case .down:
            background = Rect(x: 0, y: 0, width: b.width, height: b.height - h)
            centre = Point(x: background.width / 2 + request.arrowOffset, y: background.height + h / 2)
            turn = .pi
        case .left:
            background = Rect(x: h, y: 0, width: b.width - h, height: b.height)
            centre = Point(x: h / 2, y: background.height / 2 + request.arrowOffset)
            turn = 3 * .pi / 2
        case .right:
            background = Rect(x: 0, y: 0, width: b.width - h, height: b.height)
            centre = Point(x: background.width + h / 2, y: background.height / 2 + request.arrowOffset)
            turn = .pi / 2
        }
        let scale = Int(request.scale)
        guard let backgroundImage = backgrounds[scale], let arrowImage = arrows[scale] else {
            throw SkinError.invalidScale(request.scale)
        }
        var canvas = Canvas(pointWidth: b.width, pointHeight: b.height, scale: request.scale)
        do {
            canvas.save()
            var mask = Path()
            mask.addRoundedRect(x: background.minX, y: background.minY, width: background.width,
                                height: background.height, radius: metrics.cornerRadius)
            canvas.clip(to: mask)
            let c = backgroundCapInsets
            try canvas.draw(ResizableImage(image: backgroundImage, capInsets: RasterInsets(top: c, left: c, bottom: c, right: c),
                                           mode: .stretch),
                            in: RasterRect(x: background.minX, y: background.minY, width: background.width,
                                           height: background.height))
            canvas.restore()
            canvas.save()
            canvas.translate(centre.x, centre.y)
            canvas.rotate(turn)
            try canvas.draw(arrowImage, in: RasterRect(x: -arrowSize.width / 2, y: -arrowSize.height / 2,
                                                       width: arrowSize.width, height: arrowSize.height))
            canvas.restore()
        } catch {
            throw SkinError.raster(error)
        }
        return RenderedPopover(pixmap: canvas.pixmap, backgroundOrigin: .zero)
    }
}
