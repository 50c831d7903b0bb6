import ArgumentParser
import PopoverFiles
import PopoverImage
import PopoverSkins

struct ContactSheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "One PNG of every skin x direction x arrow position (left edge, middle, right edge).",
        discussion: "Rows: each skin in catalog order, its directions up, down, left, right. Columns: the arrow at the start of its edge, the middle, the end.")

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale = ScaleArgument(argument: "1")!

    @Option(help: "The PNG file to write.")
    var out: String

    @Option(help: "The folder of skin folders.")
    var skins = SkinCatalog.defaultSkinsFolder

    func run() throws {
        do {
            let sheet = try ContactSheet.make(skins: SkinCatalog.lineup(skinsFolder: skins).skins, scale: scale.value)
            try PNGFile.write(sheet.straightImage, to: out)
            print("wrote \(out) (\(sheet.width) x \(sheet.height) pixels)")
        } catch {
            throw UserError("\(error)")
        }
    }
}
