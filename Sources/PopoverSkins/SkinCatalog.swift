import Foundation
import PopoverGeometry
import PopoverRaster

/// The skins this project ships, by ID. Adding a skin means adding it here; the
/// harness draws whatever this list holds.
public enum SkinCatalog {
    /// Where the project's artwork lives (PNG files made by scripts/make-artwork).
    public static var artworkFolder: String {
        Bundle.module.url(forResource: "Artwork", withExtension: nil)?.path
            ?? Bundle.module.bundlePath + "/Artwork"
    }

    /// The tint colour of the tinted theme: a teal, so the multiply shows on grey.
    public static let tintColor = Color(red: 0.25, green: 0.62, blue: 0.72)

    /// Every built-in skin, in a fixed order.
    public static func all() throws(SkinError) -> [any Skin] {
        let files = try ArtworkSet(folder: artworkFolder + "/gik-files")
        return [
            SevenImageSkin(id: "gik-default", summary: "seven images rendered from the default colours, with shadow",
                           artwork: .rendered(.standard)),
            SevenImageSkin(id: "gik-sample", summary: "seven images rendered from the sample app's colours, with shadow",
                           artwork: .rendered(.sampleApp)),
            SevenImageSkin(id: "gik-files", summary: "seven images from the project's PNG artwork, with shadow",
                           artwork: .files(files)),
            // Without its shadow: exercises the shadow switch, and keeps Goldens/ small
            // (a shadow's soft corners cost more bytes than the rest of a golden).
            SevenImageSkin(id: "gik-tinted", summary: "default colours tinted teal by the fork's recipe, no shadow",
                           artwork: .rendered(.standard), tint: Tint(color: tintColor), shadow: nil),
            try TwoAssetSkin(id: "two-asset-orange", summary: "orange background and arrow images, 15-point corners",
                             folder: artworkFolder + "/two-asset-orange"),
            PathSkin(id: "path-slate", summary: "one outline, cream fill, crisp 1-pixel slate line",
                     fill: Color(red: 0.99, green: 0.965, blue: 0.89), outline: Color(red: 0.345, green: 0.43, blue: 0.46)),
        ]
    }

    public static func named(_ id: String) throws(SkinError) -> any Skin {
        let skins = try all()
        guard let skin = skins.first(where: { $0.id == id }) else {
            throw .unknownSkin(id, known: skins.map(\.id))
        }
        return skin
    }
}
