import ArgumentParser
import Foundation
import PopoverGeometry
import PopoverSkins

struct PlacementCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "placement",
        abstract: "Place a sample-app anchor's popover: direction, frame and arrow offset.")

    @Option(help: "One of the sample app's anchors, popover1 ... popover16.")
    var anchor: String

    @Option(help: "portrait or landscape.")
    var orientation: Orientation

    @Option(help: "Force one arrow direction (default: the anchor's own).")
    var direction: ArrowDirection?

    @Option(help: "Place for this skin's metrics (default: the seven-image skin).")
    var skin: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(help: "The folder of skin folders.")
    var skins = SkinCatalog.defaultSkinsFolder

    func run() throws {
        let placement: Placement
        do {
            let metrics = try skin.map { try SkinCatalog.lineup(skinsFolder: skins).named($0).metrics } ?? .sevenImage
            placement = try Placement.make(anchor: try Anchor.named(anchor), orientation: orientation,
                                           permitted: direction.map { .only($0) }, metrics: metrics)
        } catch {
            throw UserError("\(error)")
        }
        if json {
            try printJSON(placement)
        } else {
            printLines("\(placement)")
        }
    }
}
