import Foundation
import PopoverGeometry
import PopoverFiles
import PopoverImage
import PopoverRaster

/// A folder of seven images at 1x, 2x and 3x (`up.png`, `up@2x.png`, `up@3x.png`,
/// `up-right.png`, ...) with `metrics.json` beside them: the skin's numbers and each
/// image's size and cap insets in points, as `SevenImageMetrics` encodes them.
///
/// Everything is read and checked when the set is loaded, so a missing or mis-sized
/// file is reported once, by name, before anything is drawn.
public struct ArtworkSet: Sendable, Hashable {
    public let folder: String
    public let metrics: SevenImageMetrics
    private let images: [ImageAtScale: Pixmap]

    private struct ImageAtScale: Hashable, Sendable {
        var image: ArrowImage
        var scale: Int
    }

    public static let scales = [1, 2, 3]

    public static func fileName(_ image: ArrowImage, scale: Int) -> String {
        scale == 1 ? "\(image.rawValue).png" : "\(image.rawValue)@\(scale)x.png"
    }

    public init(folder: String) throws(SkinError) {
        self.folder = folder
        let metricsPath = folder + "/metrics.json"
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: metricsPath))
        } catch {
            throw .artwork(file: metricsPath, problem: "cannot read: \((error as NSError).localizedDescription)")
        }
        do {
            metrics = try JSONDecoder().decode(SevenImageMetrics.self, from: data)
        } catch {
            throw .artwork(file: metricsPath, problem: "not valid metrics JSON: \(error)")
        }
        do {
            try metrics.validate()
        } catch {
            throw .artwork(file: metricsPath, problem: "\(error)")
        }
        var loaded: [ImageAtScale: Pixmap] = [:]
        for image in ArrowImage.allCases {
            let spec = metrics[image]
            for scale in Self.scales {
                let path = folder + "/" + Self.fileName(image, scale: scale)
                let decoded: RGBAImage
                do {
                    decoded = try PNGFile.read(path: path)
                } catch {
                    throw .artwork(file: path, problem: Self.reason(error))
                }
                let expectedWidth = Int((spec.size.width * Double(scale)).rounded())
                let expectedHeight = Int((spec.size.height * Double(scale)).rounded())
                guard decoded.width == expectedWidth, decoded.height == expectedHeight else {
                    throw .artwork(file: path, problem: "is \(decoded.width) x \(decoded.height) pixels, expected "
                        + "\(expectedWidth) x \(expectedHeight) (\(spec.size) points at scale \(scale))")
                }
                loaded[ImageAtScale(image: image, scale: scale)] = Pixmap(decoded, scale: Double(scale))
            }
        }
        images = loaded
    }

    /// The image at `scale` (1, 2 or 3).
    public func image(_ image: ArrowImage, scale: Double) throws(SkinError) -> Pixmap {
        guard let found = images[ImageAtScale(image: image, scale: Int(scale))], Double(Int(scale)) == scale else {
            throw .invalidScale(scale)
        }
        return found
    }

    /// PNG errors already name the file; keep only what is wrong.
    private static func reason(_ error: PNGError) -> String {
        let text = "\(error)"
        if let range = text.range(of: ": ") { return String(text[range.upperBound...]) }
        return text
    }

    public static func == (l: ArtworkSet, r: ArtworkSet) -> Bool { l.folder == r.folder }
    public func hash(into hasher: inout Hasher) { hasher.combine(folder) }
}
