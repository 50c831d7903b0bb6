import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverRaster
import PopoverSkins
import Testing
import TestSupport

/// Skins as data: a folder with skin.json is a skin; a folder with a mistake is named
/// (file and field) and the others still load.
@Suite("Skin folders")
struct SkinFolderTests {
    static func write(_ json: String, as id: String, in folder: TemporaryFolder) throws {
        try FileIO.createDirectories(folder.file(id))
        try FileIO.writeAtomically(Array(json.utf8), to: folder.file("\(id)/skin.json"))
    }

    static let colours = ##"{"border": "#203040", "gradientFrom": "#f0f4f8cc", "gradientTo": [0.5, 0.25, 1]}"##

    @Test("a folder added by hand is a skin: its colours, tint, shadow and metrics as written")
    func handMade() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try Self.write(##"""
            {"kind": "seven-images", "summary": "brand", "images": {"colours": \##(Self.colours)},
             "tint": {"colour": "#40a0c0"}, "shadow": false, "metrics": {"arrowBase": 31}, "portraitScenesAt3x": true}
            """##, as: "brand", in: folder)
        let lineup = SkinCatalog.lineup(skinsFolder: folder.path)
        #expect(lineup.problems.isEmpty)
        let entry = try #require(lineup.entries.first { $0.skin.id == "brand" })
        #expect(entry.portraitScenesAt3x)
        let skin = try #require(entry.skin as? SevenImageSkin)
        #expect(skin.artwork == .rendered(ColorSet(border: Color(red: 0x20 / 255.0, green: 0x30 / 255.0, blue: 0x40 / 255.0),
                                                   gradientFrom: Color(red: 0xf0 / 255.0, green: 0xf4 / 255.0, blue: 0xf8 / 255.0, alpha: 0xcc / 255.0),
                                                   gradientTo: Color(red: 0.5, green: 0.25, blue: 1))))
        #expect(skin.tint == Tint(color: Color(red: 0x40 / 255.0, green: 0xa0 / 255.0, blue: 0xc0 / 255.0)))
        #expect(skin.shadow == nil)
        #expect(skin.layoutMetrics.arrowBase == 31 && skin.layoutMetrics.arrowHeight == 19)
        // The built-in skins come after the folders.
        #expect(lineup.skins.map(\.id) == ["brand", "two-asset-orange", "path-slate"])
    }

    static let mistakes: [(String, String, String)] = [
        ("unknown key", ##"{"kind": "seven-images", "images": {"colours": \##(colours)}, "shadows": false}"##,
         "skin.json: shadows: unknown key (known keys: kind, summary, images, tint, shadow, metrics, portraitScenesAt3x)"),
        ("bad colour", ##"{"kind": "seven-images", "images": {"colours": {"border": "#12", "gradientFrom": "#fff000", "gradientTo": "#000000"}}}"##,
         ##"skin.json: images.colours.border: "#12" is not a colour"##),
        ("colour out of range", ##"{"kind": "seven-images", "images": {"colours": {"border": [1, 2, 0], "gradientFrom": "#fff000", "gradientTo": "#000000"}}}"##,
         "skin.json: images.colours.border: [1,2,0] is not a colour"),
        ("missing colour", ##"{"kind": "seven-images", "images": {"colours": {"border": "#000000", "gradientFrom": "#ffffff"}}}"##,
         "skin.json: images.colours.gradientTo: missing"),
        ("no kind", ##"{"images": {"colours": \##(colours)}}"##, "skin.json: kind: missing"),
        ("other kind", ##"{"kind": "path", "images": {"colours": \##(colours)}}"##, ##"skin.json: kind: "path" is not a kind"##),
        ("missing image file", ##"{"kind": "seven-images", "images": {"files": "."}}"##, "metrics.json: cannot read"),
        ("shadow not a boolean", ##"{"kind": "seven-images", "images": {"colours": \##(colours)}, "shadow": "yes"}"##,
         "skin.json: shadow: must be true or false"),
        ("bad metric", ##"{"kind": "seven-images", "images": {"colours": \##(colours)}, "metrics": {"arrowBase": -3}}"##,
         "skin.json: metrics.arrowBase: must be a number, 0 or more"),
        ("not JSON", "{kind: seven}", "skin.json: not valid JSON"),
    ]

    @Test("a mistake names the file and the field; the other skins still load", arguments: mistakes)
    func mistake(_ label: String, _ json: String, _ message: String) throws {
        let folder = TemporaryFolder(label)
        defer { folder.remove() }
        try Self.write(json, as: "broken", in: folder)
        try Self.write(##"{"kind": "seven-images", "images": {"colours": \##(Self.colours)}}"##, as: "fine", in: folder)
        let lineup = SkinCatalog.lineup(skinsFolder: folder.path)
        #expect(lineup.skins.map(\.id) == ["fine", "two-asset-orange", "path-slate"], "\(label)")
        let problem = try #require(lineup.problems.first, "\(label): no problem reported")
        #expect(problem.id == "broken")
        #expect(problem.message.contains(folder.file("broken/") + message), "\(label): \(problem.message)")
    }

    @Test("image files: a folder of PNGs with any subset of scales")
    func files() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let artwork = try ArtworkScalesTests.originalStyleFolder(folder)
        try FileIO.createDirectories(folder.file("original"))
        try FileManager.default.moveItem(atPath: artwork, toPath: folder.file("original/art"))
        try FileIO.writeAtomically(Array(##"{"kind": "seven-images", "images": {"files": "art"}}"##.utf8),
                                   to: folder.file("original/skin.json"))
        let skin = try #require(try SkinFolder.load(folder.file("original")).skin as? SevenImageSkin)
        #expect(skin.layoutMetrics.sideTop.size == Size(width: 37, height: 53))
        #expect(try skin.render(PopoverRequest(bounds: Size(width: 216, height: 235), direction: .up, arrowOffset: 0, scale: 3)).pixmap.width > 0)
    }

    @Test("the project's own skin folders draw what the code-defined skins drew")
    func projectFolders() throws {
        let lineup = SkinCatalog.lineup(skinsFolder: PackageFolders.skins)
        #expect(lineup.problems.isEmpty, "\(lineup.problems)")
        let byID = Dictionary(uniqueKeysWithValues: lineup.entries.map { ($0.skin.id, $0) })
        let standard = try #require(byID["gik-default"]?.skin as? SevenImageSkin)
        #expect(standard.artwork == .rendered(.standard) && standard.shadow != nil && byID["gik-default"]!.portraitScenesAt3x)
        #expect((byID["gik-sample"]?.skin as? SevenImageSkin)?.artwork == .rendered(.sampleApp))
        let tinted = try #require(byID["gik-tinted"]?.skin as? SevenImageSkin)
        #expect(tinted.tint == Tint(color: Color(red: 0.25, green: 0.62, blue: 0.72)) && tinted.shadow == nil)
        #expect((byID["gik-files"]?.skin as? SevenImageSkin)?.layoutMetrics == .sampleAppFiles)
    }
}
