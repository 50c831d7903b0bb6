import Foundation
import PopoverFiles
import PopoverHarness

/// Copies the committed goldens of `ids` and their facts (and nothing else) into `folder`.
public func copyCommittedGoldens(_ ids: [String], to folder: String) throws {
    for id in ids {
        for suffix in [".png", GoldenStore.factsSuffix] {
            let bytes = try FileIO.readBytes(path: "\(PackageFolders.goldens)/\(id)\(suffix)")
            let target = "\(folder)/\(id)\(suffix)"
            try FileIO.createDirectories(FilePaths.parent(of: target))
            try FileIO.writeAtomically(bytes, to: target)
        }
    }
}

/// Makes `folder/Skins` the committed skins folder (a symbolic link), as a project
/// folder has it, so the tool run in `folder` finds every skin.
public func linkCommittedSkins(into folder: String) throws {
    try FileIO.createDirectories(folder)
    if !FileManager.default.fileExists(atPath: folder + "/Skins") {
        try FileManager.default.createSymbolicLink(atPath: folder + "/Skins", withDestinationPath: PackageFolders.skins)
    }
}

/// Options for a run over temporary folders, with a digest cache of its own so no test
/// depends on what another learned.
public func checkOptions(goldens: String, mode: RecordMode, filter: String? = nil,
                         cache: String? = nil) -> CheckOptions {
    var o = CheckOptions()
    o.goldensFolder = goldens
    o.recordMode = mode
    o.filter = filter
    o.cacheFolder = cache
    return o
}
