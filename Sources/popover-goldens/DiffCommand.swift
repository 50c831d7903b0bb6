import ArgumentParser
import Foundation
import PopoverDiff
import PopoverFiles
import PopoverImage

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG files pixel by pixel within a tolerance.",
        discussion: "Exit status: 0 within tolerance, 1 not, 2 unreadable files or bad options.")

    @Argument(help: "The expected image (PNG).")
    var expected: String

    @Argument(help: "The actual image (PNG).")
    var actual: String

    @OptionGroup var tolerance: ToleranceOptions

    @Option(help: "Write a heatmap of the differences to this PNG file.")
    var heatmap: String?

    @Flag(help: "Print the metrics as one JSON object.")
    var json = false

    func run() throws {
        let limit = try tolerance.tolerance() ?? .exact
        let result: PopoverDiff.ComparisonResult
        do {
            let expectedBytes = try FileIO.readBytes(path: expected)
            let actualBytes = try FileIO.readBytes(path: actual)
            if expectedBytes == actualBytes && heatmap == nil {
                // The same bytes are the same image, if they are an image at all: decoded
                // once, so a damaged file is an error (exit 2) even when both are the same.
                let image = try PNGFile.decode(expectedBytes, name: expected)
                result = ImageComparison.identical(width: image.width, height: image.height, tolerance: limit)
            } else {
                let expectedImage = try PNGFile.decode(expectedBytes, name: expected)
                let actualImage = try PNGFile.decode(actualBytes, name: actual)
                result = ImageComparison.compare(expected: expectedImage, actual: actualImage, tolerance: limit,
                                                 wantsDiffMap: heatmap != nil)
                if let heatmap, let map = result.diffMap {
                    try PNGFile.write(Heatmap.render(expected: expectedImage, diff: map), to: heatmap)
                }
            }
        } catch {
            throw UserError("\(error)")
        }
        if json {
            if let metrics = result.metrics {
                try printJSON(metrics)
            } else {
                // Sizes differ: no pixels were compared.
                try printJSON(SizeMismatch(error: result.failures.joined(separator: "; ")))
            }
        } else {
            print(result.summary)
        }
        if !result.pass { throw ExitCode(1) }
    }
}

/// What `diff --json` prints when the sizes differ: a verdict with the same `pass` key
/// as the metrics, and why.
struct SizeMismatch: Encodable {
    var pass = false
    var error: String
}
