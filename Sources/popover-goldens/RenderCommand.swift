import ArgumentParser
import PopoverFiles
import PopoverGeometry
import PopoverHarness
import PopoverSkins

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one popover background to a PNG file.",
        discussion: """
        Skins: gik (themes default, sample, files, tinted), two-asset (orange), path (slate), or any skin ID.
        For the gik skin, --border/--gradient-from/--gradient-to render from your colours,
        --artwork DIR reads your folder of seven images and metrics.json, --tint applies
        the fork's tint recipe and --no-shadow drops the shadow.
        --case ID renders one golden case exactly as the check draws it (see `list`).
        """)

    @Option(name: .customLong("case"), help: "A case ID (see `list`): render it as the check does; the other drawing options do not apply.")
    var caseID: String?

    @Option(help: "gik, two-asset, path, or a skin ID.")
    var skin = "gik"

    @Option(help: "The skin's theme (default, sample, files, tinted, orange, slate).")
    var theme: String?

    @Option(help: "Where the arrow points: up, down, left or right.")
    var direction: ArrowDirection = .up

    // Unconditional: "--size -5x10" and "--offset -3" take the value rather than read it
    // as an option, so the value is checked and named.
    @Option(parsing: .unconditional, help: "Background bounds in points, arrow included (WxH).")
    var size = SizeArgument(argument: "216x235")!

    @Option(parsing: .unconditional, help: "Arrow offset from the middle of its edge, in points.")
    var offset: Double = 0

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale = ScaleArgument(argument: "2")!

    @Option(help: "Border colour (#rrggbb[aa]); with the two gradient colours, renders the gik images from them.")
    var border: ColorArgument?
    @Option(help: "Gradient colour at the top.")
    var gradientFrom: ColorArgument?
    @Option(help: "Gradient colour at the bottom.")
    var gradientTo: ColorArgument?

    @Option(help: "A folder of the seven images (any of 1x, 2x, 3x) with metrics.json.")
    var artwork: String?

    @Option(help: "Tint colour for the fork's tint recipe.")
    var tint: ColorArgument?

    @Flag(name: .customLong("tint-at-1x"), help: "Tint at scale 1 like the fork (blurry at 2x and 3x).")
    var tintAtOneX = false

    @Flag(help: "Draw no shadow.")
    var noShadow = false

    @Flag(help: "Write the part map instead: each pixel in the colour of the part it lies in (arrow red, border yellow, body blue, shadow grey, outside white), as a failing case's parts and `ignore` judge them.")
    var parts = false

    @Option(help: "The PNG file to write.")
    var out: String

    @Option(help: "The folder of skin folders.")
    var skins = "Skins"

    func run() throws {
        if let caseID { return try renderCase(caseID) }
        let catalog = loadCatalog(skins: skins)
        let wanted = try choice()
        let chosen = try userFacing { () throws(SkinError) in try wanted.make(from: catalog.skins) }
        let request = PopoverRequest(bounds: size.size, direction: direction, arrowOffset: offset, scale: scale.value)
        do {
            try RenderLimits.check(request, skin: chosen)
        } catch .canvasTooLarge(let bounds, let scale, let limit) {
            throw UserError("--size: \(SkinError.canvasTooLarge(bounds: bounds, scale: scale, limit: limit))")
        } catch {
            throw UserError("--offset: \(error)")
        }
        try userFacing {
            if parts { return try writeParts(chosen.drawingFacts(for: request).outline, what: "skin \(chosen.id)") }
            let rendered = try chosen.render(request)
            try PNGFile.write(rendered.pixmap.straightImage, to: out)
            print("wrote \(out) (\(rendered.pixmap.width) x \(rendered.pixmap.height) pixels, skin \(chosen.id))")
        }
    }

    /// The part map as a palette PNG.
    private func writeParts(_ outline: PopoverOutline, what: String) throws {
        let palette: [PopoverPart: PNGPaletteEntry] = [
            .arrow: PNGPaletteEntry(red: 0xd0, green: 0x30, blue: 0x30), .border: PNGPaletteEntry(red: 0xf0, green: 0xc0, blue: 0x20),
            .body: PNGPaletteEntry(red: 0x40, green: 0x70, blue: 0xc0), .shadow: PNGPaletteEntry(red: 0x90, green: 0x90, blue: 0x90),
            .outside: PNGPaletteEntry(red: 0xff, green: 0xff, blue: 0xff),
        ]
        let bytes = PNGFile.encodeIndexed(width: outline.pixelWidth, height: outline.pixelHeight, indices: outline.partMap(),
                                          palette: PopoverPart.allCases.map { palette[$0]! })
        try FileIO.writeAtomically(bytes, to: out)
        print("wrote \(out) (\(outline.pixelWidth) x \(outline.pixelHeight) pixels, the parts of \(what))")
    }

    private func choice() throws -> SkinChoice {
        var choice = SkinChoice()
        choice.family = skin
        choice.theme = theme
        let colours = [border, gradientFrom, gradientTo].compactMap { $0?.color }
        if !colours.isEmpty {
            guard colours.count == 3 else { throw UserError("give all three of --border, --gradient-from and --gradient-to") }
            choice.colours = ColorSet(border: colours[0], gradientFrom: colours[1], gradientTo: colours[2])
        }
        choice.artworkFolder = artwork
        choice.tint = tint.map { Tint(color: $0.color, reproducesScaleOneBlur: tintAtOneX) }
        choice.shadow = !noShadow
        return choice
    }

    /// A golden case, drawn by its skin exactly as `check` draws it.
    private func renderCase(_ id: String) throws {
        let catalog = loadCatalog(skins: skins)
        guard let c = catalog.cases.first(where: { $0.id == id }), let skin = catalog.skin(c.skinID) else {
            throw UserError("\(HarnessError.unknownCase(id))")
        }
        try userFacing {
            if parts { return try writeParts(catalog.facts(of: c).outline, what: "case \(id)") }
            let rendered = try skin.render(c.request)
            try PNGFile.write(rendered.pixmap.straightImage, to: out)
            print("wrote \(out) (\(rendered.pixmap.width) x \(rendered.pixmap.height) pixels, case \(id))")
        }
    }
}
