import Foundation
import PopoverImage
import Synchronization

/// What the page knows about the images beside it: each case's thumbnail, and each
/// image's pixel size (so the page can lay images out before they load, and zoom them
/// to exact device pixels).
public struct ReportImages: Sendable {
    /// Case ID -> thumbnail path, relative to the report folder.
    public var thumbnails: [String: String] = [:]
    /// Image path relative to the report folder -> its size in pixels.
    public var sizes: [String: ReportImageSize] = [:]
    /// Case ID -> the rectangle holding every pixel its heatmap marks (different or
    /// excused), so the page can circle a change too small to see and zoom to it.
    public var changedRegions: [String: ReportRegion] = [:]

    public init() {}

    /// At most this many thumbnails are made of heatmaps, and of actual images (for
    /// cases without a heatmap: new, missing, errors, size changes). Each costs decoding
    /// an image; past a few hundred failures the overview's colours tell the story.
    static let heatmapThumbnailLimit = 400
    static let actualThumbnailLimit = 100

    /// Reads the sizes of the images the cases saved in `folder` (the staging folder)
    /// and makes thumbnails there for cases that need attention, failures first.
    static func prepare(_ run: CheckRun, folder: String, save: @Sendable (RGBAImage, String) -> String?) -> ReportImages {
        struct Job: Sendable {
            var id: String
            var source: String
            var isHeatmap: Bool
        }
        // Choose the sources first, failures first, within the limits.
        var jobs: [Job] = []
        var heatmaps = 0, actuals = 0
        var others: [String] = []
        for r in HTMLReport.attentionOrder(run.results) {
            let a = r.artifacts
            // The heatmap says where the case changed; lacking one, the actual image says
            // what it draws now.
            if let heatmap = a.heatmap, heatmaps < heatmapThumbnailLimit {
                jobs.append(Job(id: r.id, source: heatmap, isHeatmap: true))
                heatmaps += 1
                others += [a.expected, a.actual].compactMap { $0 }
            } else if a.heatmap == nil, let actual = a.actual, actuals < actualThumbnailLimit {
                jobs.append(Job(id: r.id, source: actual, isHeatmap: false))
                actuals += 1
                others += [a.expected].compactMap { $0 }
            } else {
                others += [a.expected, a.actual, a.heatmap].compactMap { $0 }
            }
        }
        // Passing cases keep images only when the run asked for them; no thumbnails then.
        for r in run.results where r.status == .passed {
            others += [r.artifacts.expected, r.artifacts.actual, r.artifacts.heatmap].compactMap { $0 }
        }

        // Decoding is the cost: spread it over the cores.
        struct Made: Sendable {
            var size: ReportImageSize?
            var region: ReportRegion?
            var thumbnail: String?
            var thumbnailSize: ReportImageSize?
        }
        let chosen = jobs
        let results = Mutex<[Made]>(Array(repeating: Made(), count: chosen.count))
        let workers = max(1, min(chosen.count, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: chosen.isEmpty ? 0 : workers) { worker in
            for i in stride(from: worker, to: chosen.count, by: workers) {
                let job = chosen[i]
                guard let image = try? PNGFile.read(path: folder + "/" + job.source) else { continue }
                let thumbnail = ReportThumbnail.make(image, keepingColour: job.isHeatmap)
                let result = Made(size: ReportImageSize(width: image.width, height: image.height),
                                  region: job.isHeatmap ? ReportRegion.marked(in: image) : nil,
                                  thumbnail: save(thumbnail, job.id),
                                  thumbnailSize: ReportImageSize(width: thumbnail.width, height: thumbnail.height))
                results.withLock { $0[i] = result }
            }
        }
        var images = ReportImages()
        for (job, made) in zip(chosen, results.withLock { $0 }) {
            if let size = made.size { images.sizes[job.source] = size }
            if let region = made.region { images.changedRegions[job.id] = region }
            if let path = made.thumbnail {
                images.thumbnails[job.id] = path
                images.sizes[path] = made.thumbnailSize
            }
        }
        for path in others where images.sizes[path] == nil {
            if let size = headerSize(folder + "/" + path) { images.sizes[path] = size }
        }
        return images
    }

    private static func headerSize(_ path: String) -> ReportImageSize? {
        guard let bytes = try? FileIO.readBytes(path: path),
              let header = try? PNGFile.header(bytes, name: path) else { return nil }
        return ReportImageSize(width: header.width, height: header.height)
    }
}

public struct ReportImageSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A rectangle of pixels in an image of `imageWidth` x `imageHeight`.
public struct ReportRegion: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var imageWidth: Int
    public var imageHeight: Int

    public init(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }

    /// The bounding box of a heatmap's coloured pixels (R, G, B not all equal: the
    /// differences and excused pixels; equal pixels are grey), or nil when it has none.
    public static func marked(in heatmap: RGBAImage) -> ReportRegion? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        heatmap.pixels.withUnsafeBufferPointer { p in
            for y in 0..<heatmap.height {
                var i = y * heatmap.width * 4
                for x in 0..<heatmap.width {
                    if p[i] != p[i + 1] || p[i + 1] != p[i + 2] {
                        minX = min(minX, x); maxX = max(maxX, x)
                        minY = min(minY, y); maxY = max(maxY, y)
                    }
                    i += 4
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return ReportRegion(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1,
                            imageWidth: heatmap.width, imageHeight: heatmap.height)
    }
}

/// Small previews for the overview and the list of cases.
public enum ReportThumbnail {
    /// The box a thumbnail fits in, in pixels.
    public static let size = 48

    /// `image` shrunk to fit `size` x `size` (never enlarged, aspect kept), each output
    /// pixel the alpha-weighted mean of the source pixels it covers.
    ///
    /// With `keepingColour` (for heatmaps), a block holding any coloured pixel (R, G and
    /// B not all equal: a difference or an excused pixel; equal pixels are grey) averages
    /// only those, and each coloured output pixel also colours its grey neighbours, so a
    /// single different pixel still shows in the thumbnail instead of fading into the
    /// grey around it.
    public static func make(_ image: RGBAImage, fitting size: Int = ReportThumbnail.size,
                            keepingColour: Bool = false) -> RGBAImage {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return image }
        let factor = max(1, Double(max(w, h)) / Double(max(1, size)))
        let ow = max(1, min(w, Int((Double(w) / factor).rounded())))
        let oh = max(1, min(h, Int((Double(h) / factor).rounded())))
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        image.pixels.withUnsafeBufferPointer { src in
            for oy in 0..<oh {
                let y0 = oy * h / oh, y1 = max(y0 + 1, (oy + 1) * h / oh)
                for ox in 0..<ow {
                    let x0 = ox * w / ow, x1 = max(x0 + 1, (ox + 1) * w / ow)
                    // Sums over all pixels, and over coloured ones only.
                    var all = (r: 0, g: 0, b: 0, a: 0, n: 0)
                    var coloured = (r: 0, g: 0, b: 0, a: 0, n: 0)
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let i = (y * w + x) * 4
                            let r = Int(src[i]), g = Int(src[i + 1]), b = Int(src[i + 2]), a = Int(src[i + 3])
                            all.r += r * a; all.g += g * a; all.b += b * a; all.a += a; all.n += 1
                            if keepingColour, a > 0, r != g || g != b {
                                coloured.r += r * a; coloured.g += g * a; coloured.b += b * a
                                coloured.a += a; coloured.n += 1
                            }
                        }
                    }
                    let s = coloured.n > 0 ? coloured : all
                    let o = (oy * ow + ox) * 4
                    if s.a > 0 {
                        out[o] = UInt8((s.r + s.a / 2) / s.a)
                        out[o + 1] = UInt8((s.g + s.a / 2) / s.a)
                        out[o + 2] = UInt8((s.b + s.a / 2) / s.a)
                        out[o + 3] = UInt8((s.a + s.n / 2) / s.n)
                    }
                }
            }
        }
        if keepingColour { spreadColour(&out, width: ow, height: oh) }
        return RGBAImage(width: ow, height: oh, pixels: out)
    }

    private static func isColoured(_ p: [UInt8], _ o: Int) -> Bool {
        p[o + 3] > 0 && (p[o] != p[o + 1] || p[o + 1] != p[o + 2])
    }

    /// Gives each grey pixel next to (4-neighbourhood) a coloured one that colour.
    private static func spreadColour(_ pixels: inout [UInt8], width: Int, height: Int) {
        let source = pixels
        for y in 0..<height {
            for x in 0..<width where !isColoured(source, (y * width + x) * 4) {
                for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                    let n = (ny * width + nx) * 4
                    if isColoured(source, n) {
                        let o = (y * width + x) * 4
                        for c in 0..<4 { pixels[o + c] = source[n + c] }
                        break
                    }
                }
            }
        }
    }
}
