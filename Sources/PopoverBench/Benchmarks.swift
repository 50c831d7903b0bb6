import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
import PopoverFiles
import PopoverImage
import PopoverRaster
import PopoverSkins

/// Measurements behind the README's performance figures: drawing, PNG coding,
/// comparison (ours and ImageMagick's on the same pairs), and whole checks.
///
/// Every figure is the best of a few repetitions (the least disturbed by whatever else
/// the machine is doing), single-threaded unless it says otherwise.
public struct Benchmarks: Sendable {
    public let catalog: CaseCatalog
    public let goldensFolder: String
    /// Repetitions per measurement.
    public var repetitions = 3
    /// Where the pairs and raw files for ImageMagick go.
    public let scratch: String

    public init(catalog: CaseCatalog, goldensFolder: String, scratch: String) {
        self.catalog = catalog
        self.goldensFolder = goldensFolder
        self.scratch = scratch
    }

    // MARK: Results

    public struct RenderFigure: Sendable, Codable {
        public var skin: String
        public var scale: Int
        public var cases: Int
        public var millisecondsPerCase: Double
        public var megapixelsPerSecond: Double
    }

    public struct Throughput: Sendable, Codable {
        public var name: String
        public var megapixels: Double
        public var seconds: Double
        public var megapixelsPerSecond: Double { seconds > 0 ? megapixels / seconds : 0 }
    }

    /// One pair compared by us and by ImageMagick.
    public struct PairFigure: Sendable, Codable {
        public var kind: String
        public var pixels: Int
        public var differentPixels: Int
        public var imageMagickAE: Int?
        /// Files to verdict, decoding included: ours, `compare a.png b.png`.
        public var oursFilesSeconds: Double
        public var imageMagickFilesSeconds: Double?
        /// Decoded pixels: ours in memory; ImageMagick reading the same pixels raw (`rgba:`).
        public var oursPixelsSeconds: Double
        public var imageMagickRawSeconds: Double?
    }

    public struct CheckFigure: Sendable, Codable {
        public var cases: Int
        public var jobs: Int
        public var seconds: Double
    }
}

extension Benchmarks {
    static func best(_ repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, repetitions) {
            let start = ContinuousClock.now
            try body()
            let (whole, attoseconds) = (ContinuousClock.now - start).components
            best = min(best, Double(whole) + Double(attoseconds) * 1e-18)
        }
        return best
    }

    /// Drawing time per case, by skin and scale, over every case of each (or the first
    /// `limit` of each).
    public func renderFigures(limit: Int? = nil) throws -> [RenderFigure] {
        var out: [RenderFigure] = []
        for skin in catalog.skins {
            for scale in [1, 2, 3] {
                var cases = catalog.cases.filter { $0.skinID == skin.id && $0.scale == scale }
                if let limit { cases = Array(cases.prefix(limit)) }
                guard !cases.isEmpty else { continue }
                // Warm the source-image cache first: it is filled once per process.
                _ = try skin.render(cases[0].request)
                var pixels = 0
                let seconds = try Self.best(repetitions) {
                    pixels = 0
                    for c in cases {
                        let p = try skin.render(c.request).pixmap
                        pixels += p.width * p.height
                    }
                }
                out.append(RenderFigure(skin: skin.id, scale: scale, cases: cases.count,
                                        millisecondsPerCase: seconds * 1000 / Double(cases.count),
                                        megapixelsPerSecond: Double(pixels) / 1e6 / seconds))
            }
        }
        return out
    }

    /// PNG decoding and encoding over a spread of committed goldens.
    public func pngFigures(sample: Int = 200) throws -> [Throughput] {
        let ids = stride(from: 0, to: catalog.cases.count, by: max(1, catalog.cases.count / sample))
            .map { catalog.cases[$0].id }
        let store = GoldenStore(folder: goldensFolder)
        var files: [[UInt8]] = []
        for id in ids {
            guard case .found(let bytes) = store.read(id) else { throw HarnessError.io("\(store.path(for: id)): missing") }
            files.append(bytes)
        }
        var images: [RGBAImage] = []
        let decode = try Self.best(repetitions) {
            images = try files.enumerated().map { try PNGFile.decode($1, name: ids[$0]) }
        }
        let megapixels = Double(images.reduce(0) { $0 + $1.pixelCount }) / 1e6
        let smallest = Self.best(repetitions) { for i in images { _ = PNGFile.encode(i) } }
        let fast = Self.best(repetitions) { for i in images { _ = PNGFile.encode(i, compression: .fast) } }
        return [
            Throughput(name: "PNG decode (\(ids.count) goldens)", megapixels: megapixels, seconds: decode),
            Throughput(name: "PNG encode, zlib level 9 (goldens)", megapixels: megapixels, seconds: smallest),
            Throughput(name: "PNG encode, zlib level 1 (report images)", megapixels: megapixels, seconds: fast),
        ]
    }

    /// The exact-match path: identical buffers compared in memory, many times over.
    public func exactMatchThroughput() throws -> Throughput {
        let c = try largestCase()
        let image = try decodedGolden(c.id)
        let copy = RGBAImage(width: image.width, height: image.height, pixels: image.pixels + [])
        let rounds = 200
        let seconds = Self.best(repetitions) {
            for _ in 0..<rounds {
                precondition(ImageComparison.compare(expected: image, actual: copy, tolerance: .exact).pass)
            }
        }
        return Throughput(name: "exact match in memory (\(c.id), x\(rounds))",
                          megapixels: Double(image.pixelCount * rounds) / 1e6, seconds: seconds)
    }

    /// Pairs of (golden, changed render): identical, slightly different (the arrow moved
    /// one point), very different (every pixel's colour inverted), each compared by us
    /// and by ImageMagick's `compare -metric AE`, from files and from pixels.
    public func pairFigures() throws -> [PairFigure] {
        let c = try largestCase()
        guard let skin = catalog.skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
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
        try FileIO.createDirectories(scratch)
        var out: [PairFigure] = []
        for (kind, actual) in [("identical", golden), ("slightly different", slightly), ("very different", inverted)] {
            let name = kind.replacingOccurrences(of: " ", with: "-")
            let a = scratch + "/expected.png", b = scratch + "/\(name).png"
            try PNGFile.write(golden, to: a)
            try PNGFile.write(actual, to: b)
            let rawA = scratch + "/expected.rgba", rawB = scratch + "/\(name).rgba"
            try FileIO.writeAtomically(golden.pixels, to: rawA)
            try FileIO.writeAtomically(actual.pixels, to: rawB)

            var counted = 0
            let files = try Self.best(repetitions) {
                let e = try PNGFile.read(path: a), g = try PNGFile.read(path: b)
                counted = ImageComparison.compare(expected: e, actual: g, tolerance: .exact).metrics?.differentPixels ?? -1
            }
            let pixels = Self.best(repetitions) {
                _ = ImageComparison.compare(expected: golden, actual: actual, tolerance: .exact)
            }
            var figure = PairFigure(kind: kind, pixels: golden.pixelCount, differentPixels: counted,
                                    oursFilesSeconds: files, oursPixelsSeconds: pixels)
            if ImageMagick.isInstalled {
                var ae: Int?
                figure.imageMagickFilesSeconds = try Self.best(repetitions) {
                    ae = try ImageMagick.absoluteErrorCount(a, b)
                }
                figure.imageMagickAE = ae
                let size = "\(golden.width)x\(golden.height)"
                figure.imageMagickRawSeconds = try Self.best(repetitions) {
                    _ = try ImageMagick.absoluteErrorCount("rgba:" + rawA, "rgba:" + rawB, rawSize: size)
                }
            }
            out.append(figure)
        }
        return out
    }

    /// Whole checks in-process over growing shares of the cases, to show the cost is
    /// linear in their number.
    public func checkFigures(shares: [Double] = [0.25, 0.5, 1], jobs: [Int] = [1, 2]) throws -> [CheckFigure] {
        var out: [CheckFigure] = []
        for threads in jobs {
            for share in shares {
                let count = Int((Double(catalog.cases.count) * share).rounded())
                // An even spread of the catalog, so every share has the same mix of skins.
                let cases = (0..<count).map { catalog.cases[$0 * catalog.cases.count / count] }
                var options = CheckOptions()
                options.goldensFolder = goldensFolder
                options.jobs = threads
                let runner = CheckRunner(catalog: catalog, options: options)
                let seconds = try Self.best(repetitions) {
                    let run = try runner.run(cases: cases)
                    guard run.exitCode == 0 else {
                        throw HarnessError.io("the check failed (\(run.failures.count) cases): benchmark goldens must match")
                    }
                }
                out.append(CheckFigure(cases: count, jobs: threads, seconds: seconds))
            }
        }
        return out
    }

    /// The biggest canvas of the default skin at 2x whose arrow moves when its offset
    /// does (the keyboard animation's first frame, 1.9 Mpx), so the "slightly
    /// different" pair differs.
    private func largestCase() throws -> GoldenCase {
        let id = "gik-default/up/keyboard-popover2-portrait-t0ms@2x"
        guard let c = catalog.cases.first(where: { $0.id == id }) else { throw HarnessError.unknownCase(id) }
        return c
    }

    private func decodedGolden(_ id: String) throws -> RGBAImage {
        try PNGFile.read(path: GoldenStore(folder: goldensFolder).path(for: id))
    }
}

/// ImageMagick's `compare`, for measuring against.
public enum ImageMagick {
    public static let compare = "/usr/bin/compare"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: compare) }

    /// `compare -precision 16 -channel RGBA -metric AE -fuzz 0 A B null:`; the count it
    /// prints (`-precision 16`: by default it prints 6 significant digits, "1.89046e+06").
    /// `rawSize` reads both as raw 8-bit RGBA of that size.
    public static func absoluteErrorCount(_ a: String, _ b: String, rawSize: String? = nil) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compare)
        var arguments = ["-precision", "16", "-channel", "RGBA", "-metric", "AE", "-fuzz", "0"]
        if let rawSize { arguments += ["-size", rawSize, "-depth", "8"] }
        process.arguments = arguments + [a, b, "null:"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError.io("compare \(a) \(b): printed '\(text.prefix(200))'")
        }
        return Int(value)
    }
}
