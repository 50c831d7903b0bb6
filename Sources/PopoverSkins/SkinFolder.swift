import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverRaster

/// A skin in the lineup, and how widely the case catalog checks it.
public struct SkinEntry: Sendable {
    public let skin: any Skin
    /// Whether the portrait scenes are also checked at 3x.
    public let portraitScenesAt3x: Bool
    /// Where it was defined: its skin.json, or "built in".
    public let origin: String

    public init(skin: any Skin, portraitScenesAt3x: Bool = false, origin: String = "built in") {
        self.skin = skin
        self.portraitScenesAt3x = portraitScenesAt3x
        self.origin = origin
    }
}

/// A skin defined as data: a folder `Skins/<id>/` holding `skin.json` and, for a skin
/// drawn from files, its images. The folder's name is the skin's ID.
///
/// ```json
/// {"kind": "seven-images",
///  "summary": "our brand's colours, with shadow",
///  "images": {"colours": {"border": "#203040", "gradientFrom": "#f0f4f8", "gradientTo": "#c8d0d8"}},
///  "tint": {"colour": "#40a0c0", "atScaleOne": false},
///  "shadow": true,
///  "metrics": {"arrowBase": 37},
///  "portraitScenesAt3x": false}
/// ```
///
/// - `kind`: `seven-images` (the one kind data can describe; the two-asset and path skins
///   need code of their own).
/// - `images`: either `{"colours": {"border", "gradientFrom", "gradientTo"}}`, the seven
///   images rendered from three colours, or `{"files": "."}`, read from a folder relative
///   to the skin's (any subset of 1x, 2x, 3x; see `ArtworkSet`).
/// - `tint` (optional): the fork's tint recipe in `colour`; `atScaleOne` reproduces its
///   scale-1 blur.
/// - `shadow` (optional, default true): the standard drop shadow.
/// - `metrics` (optional): numbers as in metrics.json, inline, or the name of a file in
///   the skin's folder; for image files, the artwork folder's metrics.json otherwise.
/// - `portraitScenesAt3x` (optional, default false): also check portrait scenes at 3x.
///
/// Colours are "#rrggbb", "#rrggbbaa", or [r, g, b(, a)] from 0 to 1. Unknown keys and
/// bad values are errors naming the file and the field.
public enum SkinFolder {
    public static let fileName = "skin.json"
    static let keys = ["kind", "summary", "images", "tint", "shadow", "metrics", "portraitScenesAt3x"]

    /// The skin defined in `folder`.
    public static func load(_ folder: String) throws(SkinError) -> SkinEntry {
        let id = FilePaths.lastComponent(of: folder)
        let file = folder + "/" + fileName
        let root: FileObject
        do {
            root = try FileObject.read(file)
        } catch {
            throw .file(error)
        }
        do {
            return try entry(id: id, folder: folder, root: root)
        } catch let problem as SkinFileProblem {
            throw .file(problem)
        } catch let error as SkinError {
            throw error
        } catch {
            throw .file(SkinFileProblem(file: file, field: "", message: "\(error)"))
        }
    }

    static func entry(id: String, folder: String, root: FileObject) throws -> SkinEntry {
        try root.allowOnly(keys)
        guard isValidID(id) else {
            throw SkinFileProblem(file: root.file, field: "", message: "the folder name '\(id)' cannot be a skin ID "
                + "(lower-case letters, digits and dashes, starting with a letter)")
        }
        guard let kind = try root.string("kind") else { throw root.problem("kind", "missing (write \"seven-images\")") }
        guard kind == "seven-images" else {
            throw root.problem("kind", "\"\(kind)\" is not a kind a folder can define (only \"seven-images\")")
        }
        let summary = try root.string("summary") ?? "defined in \(root.file)"
        let (metrics, givenSizes, metricsFile) = try readMetrics(root, folder: folder)
        guard let images = try root.object("images") else { throw root.problem("images", "missing") }
        try images.allowOnly(["colours", "files"])
        let artwork: SevenImageArtwork
        var layout = metrics
        switch (try images.object("colours"), try images.string("files")) {
        case (let colours?, nil):
            try colours.allowOnly(["border", "gradientFrom", "gradientTo"])
            func need(_ key: String) throws -> Color {
                guard let colour = try colours.colour(key) else { throw colours.problem(key, "missing") }
                return colour
            }
            artwork = .rendered(ColorSet(border: try need("border"), gradientFrom: try need("gradientFrom"),
                                         gradientTo: try need("gradientTo")))
            do { try layout.validate() } catch { throw SkinFileProblem(file: metricsFile, field: "", message: "\(error)") }
        case (nil, let relative?):
            let artworkFolder = relative == "." ? folder : folder + "/" + relative
            let set: ArtworkSet
            if root.has("metrics") {
                set = try ArtworkSet(folder: artworkFolder, metrics: metrics, givenSizes: givenSizes, metricsFile: metricsFile)
            } else {
                set = try ArtworkSet(folder: artworkFolder)
            }
            layout = set.metrics
            artwork = .files(set)
        default:
            throw root.problem("images", "give either \"colours\" or \"files\"")
        }
        var tint: Tint?
        if let t = try root.object("tint") {
            try t.allowOnly(["colour", "atScaleOne"])
            guard let colour = try t.colour("colour") else { throw t.problem("colour", "missing") }
            tint = Tint(color: colour, reproducesScaleOneBlur: try t.bool("atScaleOne") ?? false)
        }
        let shadow = try root.bool("shadow") ?? true
        let skin = SevenImageSkin(id: id, summary: summary, artwork: artwork, metrics: layout, tint: tint,
                                  shadow: shadow ? SevenImageSkin.standardShadow : nil)
        return SkinEntry(skin: skin, portraitScenesAt3x: try root.bool("portraitScenesAt3x") ?? false, origin: root.file)
    }

    /// The metrics a skin.json gives (inline or in a named file), the image sizes they
    /// state, and the file to name in errors.
    static func readMetrics(_ root: FileObject, folder: String)
        throws -> (SevenImageMetrics, [ArrowImage: Size], String) {
        if let name = try? root.string("metrics") {
            let contents = try ArtworkMetricsFile.read(folder + "/" + name)
            return (contents.metrics, contents.givenSizes, folder + "/" + name)
        }
        if let inline = try root.object("metrics") {
            let contents = try ArtworkMetricsFile.parse(inline)
            return (contents.metrics, contents.givenSizes, root.file)
        }
        if root.has("metrics") { throw root.problem("metrics", "must be an object or the name of a file") }
        return (.standard, [:], root.file)
    }

    /// Skin IDs begin every case ID and golden path.
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
