import Foundation
import PopoverFiles
import PopoverHarness

/// Copies the committed goldens of `ids` and their facts (and nothing else) into `folder`:
/// each golden's PNG, and its row of the committed facts table, added to the table of
/// its folder in `folder` (rows already there stay).
public func copyCommittedGoldens(_ ids: [String], to folder: String) throws {
    let committed = GoldenStore(folder: PackageFolders.goldens), target = GoldenStore(folder: folder)
    var tables: [String: FactsTable] = [:]
    for id in ids {
        let bytes = try FileIO.readBytes(path: committed.path(for: id))
        try FileIO.createDirectories(FilePaths.parent(of: target.path(for: id)))
        try FileIO.writeAtomically(bytes, to: target.path(for: id))
        guard let facts = committed.recordedFacts(for: id) else {
            throw HarnessError.io("\(committed.factsTablePath(for: id)) has no row for \(id)")
        }
        let path = target.factsTablePath(for: id)
        if tables[path] == nil {
            tables[path] = try (try? FileIO.readBytes(path: path)).map { try FactsTable.decode($0, file: path) } ?? FactsTable()
        }
        tables[path]?.rows[FilePaths.lastComponent(of: id)] = FactsTable.Row(golden: facts.golden, facts: facts.facts)
    }
    for (path, table) in tables { try FileIO.writeAtomically(try table.encoded(file: path), to: path) }
}

/// A facts table's text with the golden of the row named `name` (its second cell) made
/// `digest`, and nothing else changed: a row re-tied to another golden by hand.
public func retying(_ table: String, row name: String, to digest: String) -> String {
    table.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        guard line.hasPrefix(name + "\t") else { return String(line) }
        var cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        cells[1] = digest
        return cells.joined(separator: "\t")
    }.joined(separator: "\n")
}

/// The facts table of the folder holding `id`'s golden in `goldens`, as its bytes.
public func factsTableBytes(of id: String, in goldens: String) throws -> [UInt8] {
    try FileIO.readBytes(path: GoldenStore(folder: goldens).factsTablePath(for: id))
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
