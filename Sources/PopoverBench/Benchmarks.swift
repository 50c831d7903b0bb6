import Foundation
import PopoverDiff
import PopoverFiles
import PopoverHarness
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

    public struct CheckFigure: Sendable, Codable {
        public var cases: Int
        public var jobs: Int
        public var seconds: Double
    }
}

extension Benchmarks {
    public static func best(_ repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
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
    func largestCase() throws -> GoldenCase {
        let id = "gik-default/up/keyboard-popover2-portrait-t0ms@2x"
        guard let c = catalog.cases.first(where: { $0.id == id }) else { throw HarnessError.unknownCase(id) }
        return c
    }

    func decodedGolden(_ id: String) throws -> RGBAImage {
        try PNGFile.read(path: GoldenStore(folder: goldensFolder).path(for: id))
    }
}
