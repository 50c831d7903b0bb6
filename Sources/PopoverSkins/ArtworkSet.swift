import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverImage
import PopoverRaster

/// A folder of the seven images (`up.png`, `up@2x.png`, `up@3x.png`, `up-right.png`, ...)
/// with `metrics.json` beside them (see `ArtworkMetricsFile`).
///
/// A folder may hold any subset of the scales, as apps ship them (often 1x and 2x only).
/// Drawing at scale S uses each image's file for S when there is one; otherwise the file of
/// the nearest scale there is (the larger of two equally near), resampled to S the way
/// UIKit draws an image of another scale: the image keeps its size in points and each
/// device pixel samples it bilinearly at its centre (docs/specification.md §6.6). An image
/// with no file at any scale is an error naming it.
///
/// Sizes: an image's size in points is its file's pixel size divided by the file's
/// scale; every file of an image must agree, and so must metrics.json where it gives the
/// size. Everything is read and checked when the set is loaded, so a problem is reported
/// once, naming the file, before anything is drawn.
public struct ArtworkSet: Sendable, Hashable {
    public let folder: String
    public let metrics: SevenImageMetrics
    private let images: [ImageAtScale: Pixmap]
    /// The first 16 hex digits of each file's SHA-256: a golden's facts name the file it
    /// was drawn from, so an edited artwork file reads as that edit.
    private let digests: [ImageAtScale: String]

    private struct ImageAtScale: Hashable, Sendable {
        var image: ArrowImage
        var scale: Int
    }

    public static let scales = [1, 2, 3]

    public static func fileName(_ image: ArrowImage, scale: Int) -> String {
        scale == 1 ? "\(image.rawValue).png" : "\(image.rawValue)@\(scale)x.png"
    }

    /// Loads the folder, with the metrics of its metrics.json.
    public init(folder: String) throws(SkinError) {
        let contents: ArtworkMetricsFile.Contents
        do {
            contents = try ArtworkMetricsFile.read(folder + "/metrics.json")
        } catch {
            throw .file(error)
        }
        try self.init(folder: folder, metrics: contents.metrics, givenSizes: contents.givenSizes,
                      metricsFile: folder + "/metrics.json")
    }

    /// Loads the folder with metrics given elsewhere (a skin's own file): `givenSizes` are
    /// the image sizes those metrics state, checked against the files.
    init(folder: String, metrics given: SevenImageMetrics, givenSizes: [ArrowImage: Size],
         metricsFile: String) throws(SkinError) {
        self.folder = folder
        var metrics = given
        var loaded: [ImageAtScale: Pixmap] = [:]
        var digests: [ImageAtScale: String] = [:]
        for image in ArrowImage.allCases {
            var sizeFrom: (file: String, points: Size)?
            for scale in Self.scales {
                let path = folder + "/" + Self.fileName(image, scale: scale)
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let decoded: RGBAImage
                let bytes: [UInt8]
                do {
                    bytes = try FileIO.readBytes(path: path)
                } catch {
                    throw .artwork(file: path, problem: "cannot read: \(error.reason)")
                }
                do {
                    decoded = try PNGFile.decode(bytes, name: path)
                } catch {
                    throw .artwork(file: path, problem: Self.reason(error))
                }
                digests[ImageAtScale(image: image, scale: scale)] = String(SHA256.hex(bytes).prefix(16))
                let points = Size(width: Double(decoded.width) / Double(scale), height: Double(decoded.height) / Double(scale))
                if let first = sizeFrom, first.points != points {
                    throw .artwork(file: path, problem: "is \(decoded.width) x \(decoded.height) pixels, \(points) points "
                        + "at scale \(scale), but \(FilePaths.lastComponent(of: first.file)) is \(first.points) points")
                }
                sizeFrom = sizeFrom ?? (path, points)
                loaded[ImageAtScale(image: image, scale: scale)] = Pixmap(decoded, scale: Double(scale))
            }
            guard let found = sizeFrom else {
                let names = Self.scales.map { Self.fileName(image, scale: $0) }
                throw .artwork(file: folder + "/" + names[0], problem: "missing: no \(image.rawValue) image at any scale "
                    + "(\(names.joined(separator: ", ")))")
            }
            if let stated = givenSizes[image], stated != found.points {
                let key = ArtworkMetricsFile.imageKeys[image]!
                throw .artwork(file: metricsFile, problem: "\(key).size says \(stated) points, but "
                    + "\(FilePaths.lastComponent(of: found.file)) is \(found.points) points")
            }
            metrics[image].size = found.points
        }
        do {
            try metrics.validate()
        } catch {
            throw .artwork(file: metricsFile, problem: "\(error)")
        }
        self.metrics = metrics
        images = loaded
        self.digests = digests
    }

    /// The file drawing `image` at `scale` reads (its own, or the nearest scale's, as
    /// `image(_:scale:)` chooses), and its digest.
    public func source(_ image: ArrowImage, scale: Double) -> (name: String, digest: String)? {
        let wanted = Int(scale)
        let nearest = scales(of: image).min { a, b in (abs(a - wanted), -a) < (abs(b - wanted), -b) }
        guard let found = nearest, let digest = digests[ImageAtScale(image: image, scale: found)] else { return nil }
        return (Self.fileName(image, scale: found), digest)
    }

    /// The scales this folder has a file for, per image.
    public func scales(of image: ArrowImage) -> [Int] {
        Self.scales.filter { images[ImageAtScale(image: image, scale: $0)] != nil }
    }

    /// The image at `scale` (1, 2 or 3): its own file, or the nearest scale's resampled.
    public func image(_ image: ArrowImage, scale: Double) throws(SkinError) -> Pixmap {
        guard Double(Int(scale)) == scale, Self.scales.contains(Int(scale)) else { throw .invalidScale(scale) }
        let wanted = Int(scale)
        if let exact = images[ImageAtScale(image: image, scale: wanted)] { return exact }
        // Nearest available; on a tie the larger, which has more detail to give.
        let nearest = scales(of: image).min { a, b in
            (abs(a - wanted), -a) < (abs(b - wanted), -b)
        }!
        let source = images[ImageAtScale(image: image, scale: nearest)]!
        let size = metrics[image].size
        var canvas = Canvas(pointWidth: size.width, pointHeight: size.height, scale: scale)
        do {
            try canvas.draw(source, in: RasterRect(x: 0, y: 0, width: size.width, height: size.height), filter: .bilinear)
        } catch {
            throw .raster(error)
        }
        return canvas.pixmap
    }

    /// PNG errors already name the file; keep only what is wrong.
    private static func reason(_ error: PNGError) -> String {
        let text = "\(error)"
        if let range = text.range(of: ": ") { return String(text[range.upperBound...]) }
        return text
    }

    public static func == (l: ArtworkSet, r: ArtworkSet) -> Bool { l.folder == r.folder && l.metrics == r.metrics }
    /// `==`, and the same images: what drawing reads. (The files' digests go into the facts
    /// alone.)
    public func holdsAlike(_ other: ArtworkSet) -> Bool { self == other && images == other.images }
    public func hash(into hasher: inout Hasher) { hasher.combine(folder) }
}
