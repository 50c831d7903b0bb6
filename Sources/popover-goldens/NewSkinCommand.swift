import ArgumentParser
import PopoverSkins

struct NewSkinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-skin",
        abstract: "Write a working skin folder (Skins/<id>/skin.json) to start from.",
        discussion: """
        The skin draws the seven images from your three colours. Its cases appear in
        `list` and `check` at once; record its goldens with `popover-goldens record <id>`.
        Edit skin.json to change the colours, add a tint, drop the shadow, read the images
        from PNG files or change the metrics (see the README's "Skins as data").
        """)

    @Argument(help: "The skin's ID: lower-case letters, digits and dashes, starting with a letter.")
    var id: String

    @Option(name: .customLong("from-colours"), parsing: .upToNextOption,
            help: "Border, gradient top and gradient bottom colours: #rrggbb[aa] #rrggbb[aa] #rrggbb[aa].")
    var colours: [ColorArgument]

    @Option(help: "A tint colour for the fork's tint recipe.")
    var tint: ColorArgument?

    @Flag(help: "Draw no shadow.")
    var noShadow = false

    @Option(help: "The folder of skin folders.")
    var skins = SkinCatalog.defaultSkinsFolder

    func validate() throws {
        guard colours.count == 3 else {
            throw ValidationError("--from-colours takes three colours (border, gradient top, gradient bottom), got \(colours.count)")
        }
    }

    func run() throws {
        let set = ColorSet(border: colours[0].color, gradientFrom: colours[1].color, gradientTo: colours[2].color)
        let file = try userFacing { () throws(SkinError) in
            try NewSkinFolder.write(id: id, in: skins, colours: set, tint: tint?.color, shadow: !noShadow)
        }
        print("wrote \(file)")
        print("next: popover-goldens list --filter \(id)/   then   popover-goldens record \(id)/")
    }
}
