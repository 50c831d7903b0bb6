import Foundation
import PopoverGeometry
import PopoverRaster

/// The skins a check draws: one folder per skin under `Skins/` (see `SkinFolder`), then
/// the skins that need code of their own, built in.
public enum SkinCatalog {
    /// Where skin folders live, relative to the project folder.
    public static let defaultSkinsFolder = "Skins"

    /// Where the built-in skins' artwork lives (PNG files made by scripts/make-artwork).
    public static var artworkFolder: String {
        Bundle.module.url(forResource: "Artwork", withExtension: nil)?.path
            ?? Bundle.module.bundlePath + "/Artwork"
    }

    /// The skins that need code: the two-asset skin and the path skin.
    public static func builtIn() throws(SkinError) -> [SkinEntry] {
        [
            SkinEntry(skin: try TwoAssetSkin(id: "two-asset-orange", summary: "orange background and arrow images, 15-point corners",
                                             folder: artworkFolder + "/two-asset-orange"), portraitScenesAt3x: true),
            SkinEntry(skin: PathSkin(id: "path-slate", summary: "one outline, cream fill, crisp 1-pixel slate line",
                                     fill: Color(red: 0.99, green: 0.965, blue: 0.89),
                                     outline: Color(red: 0.345, green: 0.43, blue: 0.46)),
                      portraitScenesAt3x: true),
        ]
    }

    /// Every skin: the folders in `skinsFolder` by name, then the built-in ones. A folder
    /// with a mistake is left out and reported in `problems`; the others are still there.
    public static func lineup(skinsFolder: String = defaultSkinsFolder) -> SkinLineup {
        var entries: [SkinEntry] = []
        var problems: [SkinLineup.Problem] = []
        var folderProblem: String?
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: skinsFolder).sorted()
        } catch {
            names = []
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: skinsFolder, isDirectory: &isFolder)
            folderProblem = "\(skinsFolder): " + (!exists ? "the skins folder does not exist (run from the project's folder, or name it with --skins)"
                : !isFolder.boolValue ? "is not a folder (name the skins folder with --skins)"
                : "cannot list the skins folder: \((error as NSError).localizedFailureReason ?? "\(error)")")
        }
        if folderProblem == nil, !names.contains(where: { !$0.hasPrefix(".") }) {
            folderProblem = "\(skinsFolder): the skins folder holds no skin (a skin is a folder with a skin.json)"
        }
        if let folderProblem { problems.append(SkinLineup.Problem(id: "", message: folderProblem)) }
        for name in names where !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: skinsFolder + "/" + name, isDirectory: &isFolder), isFolder.boolValue else {
                continue
            }
            do {
                entries.append(try SkinFolder.load(skinsFolder + "/" + name))
            } catch {
                problems.append(SkinLineup.Problem(id: name, message: "\(error)"))
            }
        }
        do {
            for entry in try builtIn() {
                if entries.contains(where: { $0.skin.id == entry.skin.id }) {
                    problems.append(SkinLineup.Problem(id: entry.skin.id, message: "\(skinsFolder)/\(entry.skin.id): "
                        + "a built-in skin has this ID; the folder is ignored"))
                    entries.removeAll { $0.skin.id == entry.skin.id }
                }
                entries.append(entry)
            }
        } catch {
            problems.append(SkinLineup.Problem(id: "built in", message: "\(error)"))
        }
        return SkinLineup(entries: entries, problems: problems)
    }
}

/// The skins found, and the skin folders that could not be used.
public struct SkinLineup: Sendable {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The skin's ID (its folder's name); empty for a problem with the skins folder
        /// itself, when no one knows which skins are missing.
        public let id: String
        public let message: String
        public var description: String { message }

        public init(id: String, message: String) {
            self.id = id
            self.message = message
        }
    }

    public let entries: [SkinEntry]
    public let problems: [Problem]

    /// Whether the skins folder itself could not be read (missing, empty, not a folder):
    /// then any golden may belong to a skin nobody could load.
    public var skinsFolderMissing: Bool { problems.contains { $0.id.isEmpty } }

    public var skins: [any Skin] { entries.map(\.skin) }

    public func named(_ id: String) throws(SkinError) -> any Skin {
        guard let entry = entries.first(where: { $0.skin.id == id }) else { throw .unknownSkin(id, known: skins.map(\.id)) }
        return entry.skin
    }
}
