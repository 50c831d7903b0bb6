import ArgumentParser
import PopoverGeometry
import PopoverHarness
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
        --case ID renders one golden case exactly as the check draws it (see `list`).
        """)

    @Option(name: .customLong("case"), help: "A case ID (see `list`): render it as the check does; the other drawing options do not apply.")
    var caseID: String?

    @Option(help: "gik, two-asset or path.")
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
        if let caseID { return try renderCase(caseID) }
        try checkPixelSize()
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

    /// A golden case, drawn by its skin exactly as `check` draws it.
    private func renderCase(_ id: String) throws {
        let catalog = try loadCatalog()
        guard let c = catalog.cases.first(where: { $0.id == id }), let skin = catalog.skin(c.skinID) else {
            throw UserError("\(HarnessError.unknownCase(id))")
        }
        do {
            let rendered = try skin.render(c.request)
            try PNGFile.write(rendered.pixmap.straightImage, to: out)
            print("wrote \(out) (\(rendered.pixmap.width) x \(rendered.pixmap.height) pixels, case \(id))")
        } catch {
            throw UserError("\(error)")
        }
    }

    /// Room a shadow may add on each side, in points: the standard shadow (radius 20,
    /// offset 10) reaches about 70; this is generous.
    static let shadowRoom = 128.0

    /// Refuses bounds whose image could not be written as a PNG (or would take gigabytes)
    /// before anything is allocated, and offsets beyond the arrow's edge; the geometry
    /// core checks NaN, infinities and signs.
    private func checkPixelSize() throws {
        let w = size.size.width, h = size.size.height
        guard w.isFinite, h.isFinite, w >= 0, h >= 0 else { return }
        let limits = PNGLimits.default
        let pixelWidth = ((w + 2 * Self.shadowRoom) * scale.value).rounded(.up)
        let pixelHeight = ((h + 2 * Self.shadowRoom) * scale.value).rounded(.up)
        guard pixelWidth <= Double(limits.maxSide), pixelHeight <= Double(limits.maxSide),
              limits.admits(width: Int(pixelWidth), height: Int(pixelHeight)) else {
            throw UserError("--size: \(size.size) points at scale \(Int(scale.value)) is too large: with room for "
                + "the shadow the image would exceed the limit of \(limits)")
        }
        // An arrow far off its edge means nothing, and the raster core cannot place a
        // picture beyond Int.max device pixels (the two-asset skin draws its arrow there).
        let edge = direction.isVertical ? w : h
        if offset.isFinite && abs(offset) > edge {
            let length = edge == edge.rounded() && edge < 1e15 ? String(Int(edge)) : "\(edge)"
            throw UserError("--offset: \(offset) moves the arrow off the popover: the edge it sits on is "
                + "\(length) points long, so the offset must lie within -\(length)...\(length)")
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
