import ArgumentParser
import PopoverGeometry
import PopoverImage
import PopoverRaster
import PopoverSkins

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one popover background to a PNG file.",
        discussion: """
        Skins: gik (themes default, sample, files, tinted), two-asset (orange), path (slate).
        For the gik skin, --border/--gradient-from/--gradient-to render from your colours,
        --artwork DIR reads your folder of seven images and metrics.json, --tint applies
        the fork's tint recipe and --no-shadow drops the shadow.
        """)

    @Option(help: "gik, two-asset or path.")
    var skin = "gik"

    @Option(help: "The skin's theme (default, sample, files, tinted, orange, slate).")
    var theme: String?

    @Option(help: "Where the arrow points: up, down, left or right.")
    var direction: ArrowDirection = .up

    @Option(help: "Background bounds in points, arrow included (WxH).")
    var size = SizeArgument(argument: "216x235")!

    @Option(help: "Arrow offset from the middle of its edge, in points.")
    var offset: Double = 0

    @Option(help: "Pixels per point: 1, 2 or 3.")
    var scale = ScaleArgument(argument: "2")!

    @Option(help: "Border colour (#rrggbb[aa]); with the two gradient colours, renders the gik images from them.")
    var border: ColorArgument?
    @Option(help: "Gradient colour at the top.")
    var gradientFrom: ColorArgument?
    @Option(help: "Gradient colour at the bottom.")
    var gradientTo: ColorArgument?

    @Option(help: "A folder of the seven images (1x, 2x, 3x) with metrics.json.")
    var artwork: String?

    @Option(help: "Tint colour for the fork's tint recipe.")
    var tint: ColorArgument?

    @Flag(help: "Tint at scale 1 like the fork (blurry at 2x and 3x).")
    var tintAt1x = false

    @Flag(help: "Draw no shadow.")
    var noShadow = false

    @Option(help: "The PNG file to write.")
    var out: String

    func run() throws {
        do {
            let chosen = try chooseSkin()
            let request = PopoverRequest(bounds: size.size, direction: direction, arrowOffset: offset, scale: scale.value)
            let rendered = try chosen.render(request)
            try PNGFile.write(rendered.pixmap.straightImage, to: out)
            print("wrote \(out) (\(rendered.pixmap.width) x \(rendered.pixmap.height) pixels, skin \(chosen.id))")
        } catch let error as ValidationError {
            throw error
        } catch {
            throw UserError("\(error)")
        }
    }

    private func chooseSkin() throws -> any Skin {
        let customColours = [border, gradientFrom, gradientTo].compactMap { $0 }
        let customised = !customColours.isEmpty || artwork != nil || tint != nil || noShadow
        guard skin == "gik" || !customised else {
            throw UserError("--border, --gradient-from, --gradient-to, --artwork, --tint and --no-shadow apply to the gik skin only")
        }
        if !customised {
            let defaults = ["gik": "default", "two-asset": "orange", "path": "slate"]
            return try SkinCatalog.named("\(skin)-\(theme ?? defaults[skin] ?? "default")")
        }
        let source: SevenImageArtwork
        if let artwork {
            source = .files(try ArtworkSet(folder: artwork))
        } else if !customColours.isEmpty {
            guard let border, let gradientFrom, let gradientTo else {
                throw UserError("give all three of --border, --gradient-from and --gradient-to")
            }
            source = .rendered(ColorSet(border: border.color, gradientFrom: gradientFrom.color, gradientTo: gradientTo.color))
        } else {
            guard case let base as SevenImageSkin = try SkinCatalog.named("gik-\(theme ?? "default")") else {
                throw UserError("unknown gik theme")
            }
            source = base.artwork
        }
        return SevenImageSkin(id: "gik-custom", summary: "custom", artwork: source,
                              tint: tint.map { Tint(color: $0.color, reproducesScaleOneBlur: tintAt1x) },
                              shadow: noShadow ? nil : SevenImageSkin.standardShadow)
    }
}
