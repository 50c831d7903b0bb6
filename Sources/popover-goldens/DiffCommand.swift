import ArgumentParser
import Foundation
import PopoverDiff
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
        let expectedImage: RGBAImage
        do {
            expectedImage = try PNGFile.read(path: expected)
            let actualImage = try PNGFile.read(path: actual)
            result = ImageComparison.compare(expected: expectedImage, actual: actualImage, tolerance: limit,
                                             wantsDiffMap: heatmap != nil)
        } catch {
            throw UserError("\(error)")
        }
        if let heatmap, let map = result.diffMap {
            do {
                try PNGFile.write(Heatmap.render(expected: expectedImage, diff: map), to: heatmap)
            } catch {
                throw UserError("\(error)")
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let metrics = result.metrics {
                print(String(decoding: try encoder.encode(metrics), as: UTF8.self))
            } else {
                // Sizes differ: no pixels were compared.
                let failure = ["pass": "false", "error": result.failures.joined(separator: "; ")]
                print(String(decoding: try encoder.encode(failure), as: UTF8.self))
            }
        } else {
            print(result.summary)
        }
        if !result.pass { throw ExitCode(1) }
    }
}
