import ArgumentParser
import Foundation
import PopoverGeometry

struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Show which image a background uses and how it is stretched.")

    @Option(help: "Where the arrow points: up, down, left or right.")
    var direction: ArrowDirection

    @Option(help: "The background's bounds in points, arrow included (WxH).")
    var size: SizeArgument

    @Option(help: "How far the arrow's centre sits from the middle of its edge, in points.")
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
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(layout), as: UTF8.self))
        } else {
            print(layout.table)
        }
    }
}
