import ArgumentParser
import Foundation
import PopoverDiff
import PopoverFiles
import PopoverImage

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG files pixel by pixel within a tolerance.",
        discussion: """
        Exit status: 0 within tolerance, 1 not, 2 unreadable files or bad options. With \
        --json, standard output holds one JSON object in every case: the metrics and the \
        changed region, or {"error": ..., "pass": false}.
        """)

    @Argument(help: "The expected image (PNG).")
    var expected: String

    @Argument(help: "The actual image (PNG).")
    var actual: String

    @OptionGroup var tolerance: ToleranceOptions

    @Option(help: "Write a heatmap of the differences to this PNG file.")
    var heatmap: String?

    @Flag(help: "Print the metrics and the changed region as one JSON object.")
    var json = false

    func run() throws {
        let result: PopoverDiff.ComparisonResult
        do {
            result = try compareFiles(tolerance: try tolerance.tolerance() ?? .exact)
        } catch {
            // The message goes to standard error as for any bad input (exit 2); a reader
            // of --json still gets an object with the verdict.
            if json { try printJSON(DiffFailure(error: "\(error)")) }
            throw error
        }
        if json {
            if let metrics = result.metrics {
                try printJSON(DiffMetrics(metrics: metrics, changedRegion: result.diffMap?.changedRegion))
            } else {
                // Sizes differ: no pixels were compared.
                try printJSON(DiffFailure(error: result.failures.joined(separator: "; ")))
            }
        } else {
            printLines(result.summary)
        }
        if !result.pass { throw ExitCode(1) }
    }

    /// Reads, decodes and compares both files, writing the heatmap if asked. Throws a
    /// `UserError` naming every file that cannot be read or decoded, both when both are bad.
    func compareFiles(tolerance limit: Tolerance) throws -> PopoverDiff.ComparisonResult {
        var problems: [String] = []
        func attempt<T>(_ body: () throws -> T) -> T? {
            do { return try body() } catch { problems.append("\(error)"); return nil }
        }
        let expectedBytes = attempt { try FileIO.readBytes(path: expected) }
        let actualBytes = attempt { try FileIO.readBytes(path: actual) }
        if let expectedBytes, expectedBytes == actualBytes && heatmap == nil {
            // The same bytes are the same image, if they are an image at all: decoded once,
            // and when they are not, both files are named.
            guard let image = attempt({ try PNGFile.decode(expectedBytes, name: expected) }) else {
                _ = attempt { try PNGFile.decode(expectedBytes, name: actual) }
                throw UserError(problems.joined(separator: "; "))
            }
            return ImageComparison.identical(width: image.width, height: image.height, tolerance: limit)
        }
        let expectedImage = expectedBytes.flatMap { bytes in attempt { try PNGFile.decode(bytes, name: expected) } }
        let actualImage = actualBytes.flatMap { bytes in attempt { try PNGFile.decode(bytes, name: actual) } }
        guard let expectedImage, let actualImage else { throw UserError(problems.joined(separator: "; ")) }
        // The diff map gives the heatmap and the changed region; counting alone is faster.
        let result = ImageComparison.compare(expected: expectedImage, actual: actualImage, tolerance: limit,
                                             wantsDiffMap: heatmap != nil || json)
        if let heatmap, let map = result.diffMap {
            try userFacing { try PNGFile.write(Heatmap.render(expected: expectedImage, diff: map), to: heatmap) }
        }
        return result
    }
}

/// What `diff --json` prints when the images were compared: the metrics' keys and
/// `changedRegion`, the smallest rectangle holding every differing pixel
/// (`{"x", "y", "width", "height"}`), null when none differs.
struct DiffMetrics: Encodable {
    var metrics: ComparisonMetrics
    var changedRegion: PixelRegion?

    enum Key: String, CodingKey { case changedRegion }

    func encode(to encoder: any Encoder) throws {
        try metrics.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        if let changedRegion {
            try container.encode(changedRegion, forKey: .changedRegion)
        } else {
            try container.encodeNil(forKey: .changedRegion)
        }
    }
}

/// What `diff --json` prints when there is no comparison to report (the sizes differ,
/// a file cannot be read, an option is bad): the same `pass` key as the metrics, and why.
struct DiffFailure: Encodable {
    var pass = false
    var error: String
}
