import PopoverGeometry
import PopoverRaster

/// A skin asked for the way `render` asks: a catalog skin by family and theme
/// (`gik` + `sample` is `gik-sample`; each family has a default theme) or by its whole
/// ID, or a seven-image skin made from your colours or artwork folder, with a tint and
/// with or without its shadow.
public struct SkinChoice: Sendable {
    /// Each family's theme when none is named.
    public static let defaultThemes = ["gik": "default", "two-asset": "orange", "path": "slate"]

    public var family = "gik"
    public var theme: String?
    /// Renders the seven images from these colours.
    public var colours: ColorSet?
    /// Reads the seven images from this folder (see `ArtworkSet`).
    public var artworkFolder: String?
    public var tint: Tint?
    public var shadow = true

    public init() {}

    /// Whether anything beyond family and theme was asked for.
    public var isCustom: Bool { colours != nil || artworkFolder != nil || tint != nil || !shadow }

    /// The skin, from `skins` (the catalog's) or made to order.
    public func make(from skins: [any Skin]) throws(SkinError) -> any Skin {
        func named(_ id: String) throws(SkinError) -> any Skin {
            guard let skin = skins.first(where: { $0.id == id }) else { throw .unknownSkin(id, known: skins.map(\.id)) }
            return skin
        }
        if !isCustom {
            if theme == nil, skins.contains(where: { $0.id == family }) { return try named(family) }
            return try named("\(family)-\(theme ?? Self.defaultThemes[family] ?? "default")")
        }
        guard family == "gik" else { throw .customNeedsSevenImages(family) }
        let source: SevenImageArtwork
        if let artworkFolder {
            source = .files(try ArtworkSet(folder: artworkFolder))
        } else if let colours {
            source = .rendered(colours)
        } else {
            guard let base = try named("gik-\(theme ?? "default")") as? SevenImageSkin else {
                throw .customNeedsSevenImages("gik-\(theme ?? "default")")
            }
            source = base.artwork
        }
        return SevenImageSkin(id: "gik-custom", summary: "custom", artwork: source, tint: tint,
                              shadow: shadow ? SevenImageSkin.standardShadow : nil)
    }
}
