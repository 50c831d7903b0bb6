import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverRaster

/// Comparing one pair of images, ours against ImageMagick's `compare`, like with like:
///
/// - two PNG files to a verdict, each tool as a whole process run from the shell
///   (`popover-goldens diff A B` against `compare -metric AE A B null:`): start-up,
///   reading, decoding and comparing, as a script would pay for them;
/// - decoded pixels to a verdict: ours in memory on two separate buffers, against
///   ImageMagick comparing the same pixels read raw (`rgba:`) with the time it takes only
///   to start and load them (`convert rgba:A rgba:B null:`) taken off and shown apart.
public struct PairFigure: Sendable, Codable {
    public var kind: String
    public var pixels: Int
    public var differentPixels: Int
    public var imageMagickAE: Int?
    /// Files to verdict, as processes: `popover-goldens diff` and `compare`.
    public var oursProcess: ChildRun
    public var imageMagickProcess: ChildRun?
    /// Files to verdict in this process (reading, decoding, comparing): what a check pays.
    public var oursInProcessSeconds: Double
    /// Decoded pixels: ours in memory, separate buffers.
    public var oursPixelsSeconds: Double
    /// ImageMagick on raw pixels: the whole process, and its start-up and loading alone.
    public var imageMagickRaw: ChildRun?
    public var imageMagickLoad: ChildRun?

    /// ImageMagick's comparing alone: the raw run less its start-up and loading.
    public var imageMagickCompareSeconds: Double? {
        guard let raw = imageMagickRaw, let load = imageMagickLoad else { return nil }
        return max(raw.wallSeconds - load.wallSeconds, 0)
    }
}

extension Benchmarks {
    /// The pairs: the largest golden against itself (a separate copy), against the same
    /// case with the arrow moved one point, and against its colours inverted (every pixel
    /// different). `tool` is the popover-goldens executable to time as a process.
    public func pairFigures(tool: String) throws -> [PairFigure] {
        let c = try largestCase()
        guard let skin = catalog.skin(c.skinID) else { throw BenchError("no skin \(c.skinID)") }
        let golden = try decodedGolden(c.id)
        var moved = c.request
        moved.arrowOffset += 1
        let slightly = try skin.render(moved).pixmap.straightImage
        var inverted = golden
        for i in stride(from: 0, to: inverted.pixels.count, by: 4) {
            inverted.pixels[i] = 255 &- inverted.pixels[i]
            inverted.pixels[i + 1] = 255 &- inverted.pixels[i + 1]
            inverted.pixels[i + 2] = 255 &- inverted.pixels[i + 2]
            inverted.pixels[i + 3] = 255
        }
        // A separate buffer with the same pixels, so "identical" compares two memories.
        let copy = RGBAImage(width: golden.width, height: golden.height, pixels: golden.pixels.map { $0 })
        try FileIO.createDirectories(scratch)
        var out: [PairFigure] = []
        for (kind, actual) in [("identical", copy), ("slightly different", slightly), ("very different", inverted)] {
            let name = kind.replacingOccurrences(of: " ", with: "-")
            let a = scratch + "/expected.png", b = scratch + "/\(name).png"
            try PNGFile.write(golden, to: a)
            try PNGFile.write(actual, to: b)
            let rawA = scratch + "/expected.rgba", rawB = scratch + "/\(name).rgba"
            try FileIO.writeAtomically(golden.pixels, to: rawA)
            try FileIO.writeAtomically(actual.pixels, to: rawB)

            var counted = 0
            let inProcess = try Self.best(repetitions) {
                let e = try PNGFile.read(path: a), g = try PNGFile.read(path: b)
                counted = ImageComparison.compare(expected: e, actual: g, tolerance: .exact).metrics?.differentPixels ?? -1
            }
            let pixels = Self.best(repetitions) {
                _ = ImageComparison.compare(expected: golden, actual: actual, tolerance: .exact)
            }
            let ours = try ChildRun.best(repetitions) { try ChildRun.run(tool, ["diff", a, b]) }
            var figure = PairFigure(kind: kind, pixels: golden.pixelCount, differentPixels: counted, oursProcess: ours,
                                    oursInProcessSeconds: inProcess, oursPixelsSeconds: pixels)
            if ImageMagick.isInstalled {
                figure.imageMagickAE = try ImageMagick.absoluteErrorCount(a, b)
                figure.imageMagickProcess = try ChildRun.best(repetitions) {
                    try ChildRun.run(ImageMagick.compare, ImageMagick.compareArguments(a, b))
                }
                let size = "\(golden.width)x\(golden.height)"
                figure.imageMagickRaw = try ChildRun.best(repetitions) {
                    try ChildRun.run(ImageMagick.compare, ImageMagick.compareArguments("rgba:" + rawA, "rgba:" + rawB, rawSize: size))
                }
                figure.imageMagickLoad = try ChildRun.best(repetitions) {
                    try ChildRun.run(ImageMagick.convert, ImageMagick.loadArguments("rgba:" + rawA, "rgba:" + rawB, rawSize: size))
                }
            }
            out.append(figure)
        }
        return out
    }
}
