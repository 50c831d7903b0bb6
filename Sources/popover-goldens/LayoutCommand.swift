import ArgumentParser
import Foundation
import PopoverGeometry

struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Show which image a background uses and how it is stretched.")

    @Option(help: "Where the arrow points: up, down, left or right.")
    var direction: ArrowDirection

    // Unconditional: "--size -5x10" and "--offset -3" take the value rather than read it
    // as an option, so the value is checked and named.
    @Option(parsing: .unconditional, help: "The background's bounds in points, arrow included (WxH).")
    var size: SizeArgument

    @Option(parsing: .unconditional, help: "How far the arrow's centre sits from the middle of its edge, in points.")
    var offset: Double = 0

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let layout: BackgroundLayout
        do {
            layout = try BackgroundLayout.make(bounds: size.size, direction: direction, arrowOffset: offset)
        } catch {
            throw UserError("\(error)")
        }
        // The two-stage length is rounded through Float (see StageLength), which overflows
        // to infinity for bounds beyond about 6.8e38 points: refuse rather than print inf.
        let values = layout.stages.flatMap { [$0.size.width, $0.size.height, $0.capInsets.top, $0.capInsets.left,
                                              $0.capInsets.bottom, $0.capInsets.right] }
        guard values.allSatisfy(\.isFinite) else {
            throw UserError("--size: \(size.size) is too large: its stretch stages are not finite numbers")
        }
        if json {
            try printJSON(layout)
        } else {
            printLines(layout.table)
        }
    }
}
