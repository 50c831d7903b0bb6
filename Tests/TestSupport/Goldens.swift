import Foundation
import PopoverFiles
import PopoverHarness

/// Copies the committed goldens of `ids` (and nothing else) into `folder`.
public func copyCommittedGoldens(_ ids: [String], to folder: String) throws {
    for id in ids {
        let bytes = try FileIO.readBytes(path: "\(PackageFolders.goldens)/\(id).png")
        let target = "\(folder)/\(id).png"
        try FileIO.createDirectories(FilePaths.parent(of: target))
        try FileIO.writeAtomically(bytes, to: target)
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
