import Foundation
import PopoverFiles
import PopoverImage

/// The digests a check takes, measured where it takes them: SHA-256 of every committed
/// golden file (what names a golden to the digest cache and to approvals) and XXH64 of
/// decoded golden pixels (what a drawn image is compared with a cached fact by).
public struct DigestFigures: Sendable, Codable {
    public var throughputs: [ByteThroughput]

    public struct ByteThroughput: Sendable, Codable {
        public var name: String
        public var megabytes: Double
        public var seconds: Double
        public var megabytesPerSecond: Double { seconds > 0 ? megabytes / seconds : 0 }
    }

    public static func measure(goldensFolder: String, repetitions: Int = 3) throws -> DigestFigures {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: goldensFolder)
            .filter { $0.hasSuffix(".png") }.sorted().map { goldensFolder + "/" + $0 }
        guard !paths.isEmpty else { throw CodecFigureError(description: "\(goldensFolder): no PNG files") }
        var files: [[UInt8]] = []
        for path in paths { files.append(try FileIO.readBytes(path: path)) }
        // Pixels of every tenth golden: enough to time, little memory.
        var images: [RGBAImage] = []
        for (i, bytes) in files.enumerated() where i % 10 == 0 { images.append(try PNGFile.decode(bytes, name: paths[i])) }
        let fileMB = Double(files.reduce(0) { $0 + $1.count }) / 1e6
        let pixelMB = Double(images.reduce(0) { $0 + $1.pixels.count }) / 1e6
        var sink = 0
        let sha = Benchmarks.best(repetitions) {
            for bytes in files { sink &+= SHA256.hex(bytes).utf8.count }
        }
        let xxh = Benchmarks.best(repetitions) {
            for image in images { sink &+= Int(truncatingIfNeeded: XXH64.digest(image.pixels, seed: 1)) }
        }
        precondition(sink != 1)  // keeps the work from being optimised away
        return DigestFigures(throughputs: [
            ByteThroughput(name: "SHA-256 of every golden file (\(files.count) files)", megabytes: fileMB, seconds: sha),
            ByteThroughput(name: "XXH64 of decoded golden pixels (\(images.count) images)", megabytes: pixelMB, seconds: xxh),
        ])
    }
}
