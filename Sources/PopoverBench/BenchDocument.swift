import Foundation

/// Every figure of a `bench` run, as JSON.
public struct BenchDocument: Codable {
    public var runs: RunFigures?
    public var renders: [Benchmarks.RenderFigure]
    public var codec: PNGCodecFigures
    public var digests: DigestFigures
    public var exactMatch: Benchmarks.Throughput
    public var pairs: [PairFigure]
    public var checks: [Benchmarks.CheckFigure]

    public init(runs: RunFigures?, renders: [Benchmarks.RenderFigure], codec: PNGCodecFigures, digests: DigestFigures,
                exactMatch: Benchmarks.Throughput, pairs: [PairFigure], checks: [Benchmarks.CheckFigure]) {
        self.runs = runs
        self.renders = renders
        self.codec = codec
        self.digests = digests
        self.exactMatch = exactMatch
        self.pairs = pairs
        self.checks = checks
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
