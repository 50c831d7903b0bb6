import Foundation
@_spi(CodecTuning) import PopoverFiles
import PopoverGeometry
import PopoverImage
import PopoverRaster
import PopoverSkins
import Testing
import TestSupport

/// Artwork as apps ship it: the seven images at 1x and 2x only, side-top in its short
/// 37 x 53 form (cap insets 43, 9, 9, 27, as the original sample app's file). The test
/// draws the folder itself: the rendered images, side-top cut down to its caps and one
/// stretchable row.
@Suite("Artwork with some scales only, and the short side-top image")
struct ArtworkScalesTests {
    /// Rows of the 37 x 67 side-top kept in the short one: the top cap (43), one row to
    /// stretch, the bottom cap (9).
    static func shortSideTop(_ full: Pixmap, scale: Int) -> RGBAImage {
        let straight = full.straightImage
        let rows = Array(0..<(44 * scale)) + Array((58 * scale)..<(67 * scale))
        var pixels: [UInt8] = []
        for y in rows { pixels += straight.pixels[(y * straight.width * 4)..<((y + 1) * straight.width * 4)] }
        return RGBAImage(width: straight.width, height: rows.count, pixels: pixels)
    }

    /// A folder like the original's: 1x and 2x, short side-top, metrics.json with
    /// side-top's size and insets.
    static func originalStyleFolder(_ folder: TemporaryFolder, statingSize: Bool = true) throws -> String {
        let path = folder.file("artwork")
        try FileIO.createDirectories(path)
        for scale in [1, 2] {
            for image in ArrowImage.allCases {
                let drawn = RenderedArtwork.render(image, size: SevenImageMetrics.standard[image].size, colors: .sampleApp,
                                                   scale: Double(scale))
                let file = image == .sideTop ? shortSideTop(drawn, scale: scale) : drawn.straightImage
                try PNGFile.write(file, to: path + "/" + ArtworkSet.fileName(image, scale: scale))
            }
        }
        let size = statingSize ? #""size": {"width": 37, "height": 53}, "# : ""
        let metrics = #"{"sideTop": {\#(size)"capInsets": {"top": 43, "left": 9, "bottom": 9, "right": 27}}}"#
        try FileIO.writeAtomically(Array(metrics.utf8), to: path + "/metrics.json")
        return path
    }

    @Test("skins draw alike only when every value they draw from is equal, an image folder's pixels included")
    func drawsAlike() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.originalStyleFolder(folder)
        let first = SevenImageSkin(id: "original", summary: "", artwork: .files(try ArtworkSet(folder: path)), shadow: nil)
        #expect(first.drawsAlike(SevenImageSkin(id: "original", summary: "", artwork: .files(try ArtworkSet(folder: path)),
                                                shadow: nil)))
        #expect(!first.drawsAlike(SevenImageSkin(id: "original", summary: "", artwork: .files(try ArtworkSet(folder: path)))))
        // One pixel of one image changed on disk: the same folder and metrics (equal by `==`,
        // what the image cache keys on), yet not alike. Its red first, while it is clear: no
        // part of what is drawn (pixels are drawn premultiplied), so alike; then its alpha.
        var down = try PNGFile.read(path: path + "/down.png")
        #expect(down.pixels[0..<4] == [0, 0, 0, 0])
        down.pixels[0] ^= 0x20
        try PNGFile.write(down, to: path + "/down.png")
        #expect(first.drawsAlike(SevenImageSkin(id: "original", summary: "", artwork: .files(try ArtworkSet(folder: path)),
                                                shadow: nil)))
        down.pixels[3] ^= 0x20
        try PNGFile.write(down, to: path + "/down.png")
        let edited = SevenImageSkin(id: "original", summary: "", artwork: .files(try ArtworkSet(folder: path)), shadow: nil)
        #expect(edited == first)
        #expect(!first.drawsAlike(edited))
        // The same pixels in a file of other bytes (compressed otherwise): another digest in
        // the facts, the same drawing.
        let before = try FileIO.readBytes(path: path + "/down.png")
        let recoded = PNGEncoder.encode(down, settings: .init(level: 1, filters: .fixed(.none)))
        #expect(recoded != before)
        try FileIO.writeAtomically(recoded, to: path + "/down.png")
        let recompressed = SevenImageSkin(id: "original", summary: "", artwork: .files(try ArtworkSet(folder: path)), shadow: nil)
        #expect(edited.drawsAlike(recompressed))
        // Other kinds of skin: alike when built alike, not across kinds.
        let path1 = PathSkin(id: "p", summary: "", fill: Color(red: 1, green: 1, blue: 1, alpha: 1),
                             outline: Color(red: 0, green: 0, blue: 0, alpha: 1))
        var path2 = path1
        #expect(path1.drawsAlike(path2))
        path2.fill.red = 0.5
        #expect(!path1.drawsAlike(path2))
        #expect(!path1.drawsAlike(first) && !first.drawsAlike(path1))
    }

    @Test("the folder loads: sizes from the files, side-top 37 x 53 with the sample app's insets")
    func loads() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        for stating in [true, false] {
            let set = try ArtworkSet(folder: try Self.originalStyleFolder(folder, statingSize: stating))
            #expect(set.metrics.sideTop == ImageSpec(width: 37, height: 53, capInsets: EdgeInsets(top: 43, left: 9, bottom: 9, right: 27)))
            #expect(set.metrics.up.size == Size(width: 57, height: 51))
            #expect(set.scales(of: .sideTop) == [1, 2])
        }
    }

    @Test("renders at 1x, 2x and 3x; 3x resamples the 2x files, close to the true 3x drawing", arguments: [1.0, 2.0, 3.0])
    func rendersAtEveryScale(_ scale: Double) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let set = try ArtworkSet(folder: try Self.originalStyleFolder(folder))
        let skin = SevenImageSkin(id: "original", summary: "", artwork: .files(set), shadow: nil)
        // An arrow near the top of a left edge: side-top, mirrored, single stretch.
        // Centre 100 - 78 = 22: the base starts at 22 - 18.5 = 3.5, before the corner (7).
        let request = PopoverRequest(bounds: Size(width: 120, height: 200), direction: .left, arrowOffset: -78, scale: scale)
        let layout = try BackgroundLayout.make(bounds: request.bounds, direction: .left, arrowOffset: -78, metrics: set.metrics)
        #expect(layout.image == .sideTop && layout.stages.count == 1)
        let rendered = try skin.render(request).pixmap
        #expect(rendered.width == Int(120 * scale) && rendered.height == Int(200 * scale))
        // Between the caps (points 43 to 191 of 200) the output repeats side-top's one
        // stretchable point: one pixel row at 1x, stretched; at 2x and 3x, s rows, which
        // tile (the 1-pixel rule is in pixels), so the pattern repeats every s rows.
        let first = Int(43 * scale), period = Int(scale)
        for y in stride(from: first + 1, to: Int(191 * scale), by: 7) {
            for x in stride(from: 0, to: rendered.width, by: 5) {
                #expect(rendered[x, y] == rendered[x, first + (y - first) % period], "row \(y), column \(x)")
            }
        }
        // At 3x, where the folder has no file, the image is the 2x file resampled: nearly
        // what drawing side-top at 3x gives.
        if scale == 3 {
            let resampled = try set.image(.up, scale: 3)
            let truth = RenderedArtwork.render(.up, size: Size(width: 57, height: 51), colors: .sampleApp, scale: 3)
            #expect(resampled.width == truth.width && resampled.height == truth.height)
            let diffs = zip(resampled.data, truth.data).map { abs(Int($0) - Int($1)) }
            let mean = Double(diffs.reduce(0, +)) / Double(diffs.count)
            #expect(mean < 3, "mean difference \(mean) from the true 3x drawing")
        }
    }

    @Test("a size that disagrees with the files names both; an image at no scale is named")
    func mistakes() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.originalStyleFolder(folder)
        try FileIO.writeAtomically(Array(#"{"sideTop": {"size": {"width": 37, "height": 67}}}"#.utf8), to: path + "/metrics.json")
        #expect { try ArtworkSet(folder: path) } throws: {
            "\($0)" == "\(path)/metrics.json: sideTop.size says 37 x 67 points, but side-top.png is 37 x 53 points"
        }
        try FileIO.writeAtomically(Array("{}".utf8), to: path + "/metrics.json")
        try FileManager.default.removeItem(atPath: path + "/down.png")
        try FileManager.default.removeItem(atPath: path + "/down@2x.png")
        #expect { try ArtworkSet(folder: path) } throws: { "\($0)".hasPrefix("\(path)/down.png: missing: no down image at any scale") }
    }
}
