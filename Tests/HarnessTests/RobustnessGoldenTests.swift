import Foundation
import PopoverDiff
import PopoverHarness
import PopoverFiles
import PopoverImage
import PopoverRaster
import PopoverSkins
import Testing
import TestSupport

/// Damaged goldens: each is an error (or, for a well-formed PNG of the wrong size, a
/// failure) naming the file; every other case is still judged, and the run's exit
/// status says what happened. (That the report lists such runs whole is the report's
/// tests' to show.)
@Suite("Damaged goldens and goldens folders")
struct RobustnessGoldenTests {
    let catalog = CaseCatalog(skins: [FlatSkin()])
    /// Thirty-nine small cases: enough to see that the others are still judged.
    let filter = "flat/up/*@1x"

    /// A goldens folder recorded from the flat skin, its run, and the digest cache that
    /// recording filled.
    func recorded() throws -> (goldens: String, cache: String, run: RunRecord) {
        let goldens = temporaryFolder("robust-goldens"), cache = temporaryFolder("robust-cache")
        let run = try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing, filter: filter,
                                                                         cache: cache)).run()
        try #require(run.exitCode == 0 && run.results.count >= 8)
        return (goldens, cache, run)
    }

    func check(_ goldens: String, cache: String? = nil, mode: RecordMode = .never) throws -> RunRecord {
        try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: mode, filter: filter,
                                                               cache: cache)).run()
    }

    /// The damage done to a golden, and what its case must say about it.
    struct Damage: Sendable, CustomStringConvertible {
        var description: String
        var damage: @Sendable ([UInt8]) throws -> [UInt8]
        var message: @Sendable (_ path: String) -> String
    }

    static let damages: [Damage] = [
        Damage(description: "truncated", damage: { Array($0[..<($0.count / 2)]) },
               message: { "\($0): truncated PNG (the data ends before the image is complete)" }),
        Damage(description: "not a PNG", damage: { _ in Array("GIF89a, or rather not\n".utf8) },
               message: { "\($0): not a PNG file (the first 8 bytes are not the PNG signature)" }),
        Damage(description: "bad CRC", damage: { bytes in
            var bytes = bytes
            let idat = try #require(HandPNG.chunkData(bytes, type: "IDAT"))
            bytes[idat.upperBound] ^= 0x10  // IDAT's CRC: a flipped data byte may break the zlib stream first
            return bytes
        }, message: { "\($0): corrupt PNG: invalid chunk checksum" }),
        Damage(description: "header claims 100000 x 100000", damage: { _ in HandPNG.claiming(width: 100_000, height: 100_000) },
               message: { "\($0): header claims 100000 x 100000 pixels, more than the limit of 16384 on a side / 64 Mpx" }),
        Damage(description: "header claims 0 x 7", damage: { _ in HandPNG.claiming(width: 0, height: 7) },
               message: { "\($0): corrupt PNG: invalid image width" }),
        Damage(description: "empty", damage: { _ in [] },
               message: { "\($0): empty file (0 bytes), not a PNG" }),
    ]

    @Test("every kind of damage at once: each its own error naming the file, the rest pass, exit 2")
    func allDamagesAtOnce() throws {
        let (goldens, cache, recordedRun) = try recorded()
        defer { removeFolders(goldens, cache) }
        let victims = Array(recordedRun.results.prefix(Self.damages.count + 1))
        for (victim, damage) in zip(victims, Self.damages) {
            let bytes = try FileIO.readBytes(path: victim.goldenPath)
            try FileIO.writeAtomically(try damage.damage(bytes), to: victim.goldenPath)
        }
        // The last victim: a well-formed PNG of the wrong size.
        let wrongSize = victims[Self.damages.count]
        try PNGFile.write(RGBAImage(width: 3, height: 5), to: wrongSize.goldenPath)

        let run = try check(goldens)
        let byID = Dictionary(uniqueKeysWithValues: run.results.map { ($0.id, $0) })
        for (victim, damage) in zip(victims, Self.damages) {
            let result = try #require(byID[victim.id])
            #expect(result.status == .error, "\(damage)")
            #expect(result.message == damage.message(victim.goldenPath), "\(damage)")
        }
        let mismatch = try #require(byID[wrongSize.id])
        #expect(mismatch.status == .failed)
        #expect(mismatch.message.contains("expected 3 x 5, actual \(mismatch.width) x \(mismatch.height)"),
                "\(mismatch.message)")
        #expect(run.count(.passed) == run.results.count - victims.count)
        #expect(run.exitCode == 2)
    }

    @Test("one damaged golden is an error naming it and exits 2", arguments: damages)
    func eachDamage(_ damage: Damage) throws {
        let (goldens, cache, recordedRun) = try recorded()
        defer { removeFolders(goldens, cache) }
        let victim = recordedRun.results[1]
        try FileIO.writeAtomically(try damage.damage(try FileIO.readBytes(path: victim.goldenPath)),
                                   to: victim.goldenPath)
        let run = try check(goldens)
        #expect(run.results.filter { $0.status == .error }.map(\.id) == [victim.id])
        #expect(run.results.first { $0.id == victim.id }?.message == damage.message(victim.goldenPath))
        #expect(run.count(.passed) == run.results.count - 1)
        #expect(run.exitCode == 2)
    }

    @Test("a well-formed golden of the wrong size fails that case (exit 1), naming both sizes")
    func wrongSizeAlone() throws {
        let (goldens, cache, recordedRun) = try recorded()
        defer { removeFolders(goldens, cache) }
        let victim = recordedRun.results[4]
        let drawn = try catalog.skins[0].render(try #require(catalog.cases.first { $0.id == victim.id }).request).pixmap
        try PNGFile.write(RGBAImage(width: drawn.width + 1, height: drawn.height), to: victim.goldenPath)
        let run = try check(goldens)
        let result = try #require(run.results.first { $0.id == victim.id })
        #expect(result.status == .failed)
        #expect(result.message.contains("size differs: expected \(drawn.width + 1) x \(drawn.height), "
            + "actual \(drawn.width) x \(drawn.height)"), "\(result.message)")
        #expect(run.errors.isEmpty)
        #expect(run.exitCode == 1)
    }

    @Test("record mode failed replaces undecodable goldens like failing ones; never leaves them alone")
    func recordingReplacesDamage() throws {
        let (goldens, cache, recordedRun) = try recorded()
        defer { removeFolders(goldens, cache) }
        let victims = Array(recordedRun.results.prefix(Self.damages.count))
        var originals: [String: RGBAImage] = [:]
        for (victim, damage) in zip(victims, Self.damages) {
            let bytes = try FileIO.readBytes(path: victim.goldenPath)
            originals[victim.id] = try PNGFile.decode(bytes, name: victim.goldenPath)
            try FileIO.writeAtomically(try damage.damage(bytes), to: victim.goldenPath)
        }
        let missingMode = try check(goldens, mode: .missing)
        #expect(missingMode.count(.error) == victims.count)

        let rerecord = try check(goldens, cache: cache, mode: .failed)
        for (victim, damage) in zip(victims, Self.damages) {
            let result = try #require(rerecord.results.first { $0.id == victim.id })
            #expect(result.status == .recorded, "\(damage)")
            #expect(result.message == damage.message(victim.goldenPath) + ": re-recorded")
            #expect(try PNGFile.read(path: victim.goldenPath) == originals[victim.id])
        }
        #expect(rerecord.exitCode == 0)
        // What recording wrote was decoded on the way: the next check trusts it without decoding.
        let after = try check(goldens, cache: cache)
        #expect(after.results.allSatisfy { $0.status == .passed && $0.confirmedFromCache })
    }

    @Test("a 16-bit, palette, grey or interlaced golden decodes and passes like its RGBA original",
          arguments: HandPNG.Form.allCases, [false, true])
    func otherPNGForms(_ form: HandPNG.Form, interlaced: Bool) throws {
        // Grey pixels, opaque: every form can hold them exactly.
        let grey = CaseCatalog(skins: [FlatSkin(id: "grey", color: Color(red: 0.5, green: 0.5, blue: 0.5))])
        let goldens = temporaryFolder("robust-forms"), cache = temporaryFolder("robust-forms-cache")
        defer { removeFolders(goldens, cache) }
        var o = checkOptions(goldens: goldens, mode: .missing, filter: "grey/up/popover*", cache: cache)
        let recordedRun = try CheckRunner(catalog: grey, options: o).run()
        try #require(recordedRun.exitCode == 0)
        let victims = Array(recordedRun.results.prefix(3))
        for victim in victims {
            let original = try PNGFile.read(path: victim.goldenPath)
            let bytes = try #require(HandPNG.encode(original, as: form, interlaced: interlaced))
            // The file really is in that form, and libpng reads it back to the same pixels.
            let header = try #require(PNGHeader(bytes))
            #expect(header.colourType == form.colourType && header.bitDepth == form.bitDepth
                && header.interlaced == interlaced)
            #expect(try PNGFile.decode(bytes, name: victim.goldenPath) == original)
            try FileIO.writeAtomically(bytes, to: victim.goldenPath)
        }
        o.recordMode = .never
        let run = try CheckRunner(catalog: grey, options: o).run()
        for victim in victims {
            let result = try #require(run.results.first { $0.id == victim.id })
            // Decoded and compared in full (the file's digest changed), not waved through.
            #expect(result.status == .passed && !result.confirmedFromCache && result.metrics?.differentPixels == 0,
                    "\(form) \(interlaced): \(result.status) \(result.message)")
        }
        #expect(run.exitCode == 0)
    }

    @Test("a committed golden rewritten as 16-bit and as interlaced still passes", arguments: [
        (HandPNG.Form.rgba16, false), (.rgba8, true), (.rgba16, true),
    ])
    func committedGoldenInOtherForms(_ form: HandPNG.Form, interlaced: Bool) throws {
        let standard = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        let chosen = try #require(standard.cases.first { $0.id == "path-slate/up/popover8-portrait@1x" })
        let goldens = temporaryFolder("robust-committed")
        defer { removeFolders(goldens) }
        try copyCommittedGoldens([chosen.id], to: goldens)
        let path = goldens + "/" + chosen.id + ".png"
        let original = try PNGFile.read(path: path)
        let bytes = try #require(HandPNG.encode(original, as: form, interlaced: interlaced))
        try FileIO.writeAtomically(bytes, to: path)
        let run = try CheckRunner(catalog: standard, options: checkOptions(goldens: goldens, mode: .never)).run(cases: [chosen])
        #expect(run.results.map(\.status) == [.passed], "\(run.results.first?.message ?? "")")
        #expect(run.results.first?.metrics?.differentPixels == 0)
        #expect(run.exitCode == 0)
    }

    // MARK: The goldens folder itself

    @Test("a goldens folder that is a regular file: an error naming it, in every record mode",
          arguments: [RecordMode.never, .missing, .all])
    func folderIsAFile(_ mode: RecordMode) throws {
        let base = temporaryFolder("robust-file")
        defer { removeFolders(base) }
        let goldens = base + "/Goldens"
        try FileIO.writeAtomically(Array("not a folder\n".utf8), to: goldens)
        let run = try check(goldens, mode: mode)
        #expect(run.errors == ["\(goldens): cannot read the goldens folder: not a folder"])
        #expect(run.results.allSatisfy { $0.status == .error && $0.message == run.errors.first })
        #expect(run.exitCode == 2)
        // Nothing was written over it.
        #expect(try FileIO.readBytes(path: goldens) == Array("not a folder\n".utf8))
    }

    @Test("a goldens path through a regular file: an error naming it, not 'missing', in every record mode",
          arguments: [RecordMode.never, .missing, .all])
    func pathThroughAFile(_ mode: RecordMode) throws {
        let base = temporaryFolder("robust-through")
        defer { removeFolders(base) }
        try FileIO.writeAtomically(Array("a file\n".utf8), to: base + "/file")
        let goldens = base + "/file/Goldens"
        let run = try check(goldens, mode: mode)
        #expect(run.errors == ["\(goldens): cannot read the goldens folder: Not a directory: a part of the path is a file"])
        #expect(run.exitCode == 2)
    }

    @Test("a case's folder that is a regular file: that case's error names its golden; others record")
    func caseFolderIsAFile() throws {
        let goldens = temporaryFolder("robust-casefolder")
        defer { removeFolders(goldens) }
        // flat/up/... goldens need the folder flat/up: make "flat/up" a file.
        try FileIO.createDirectories(goldens + "/flat")
        try FileIO.writeAtomically(Array("in the way\n".utf8), to: goldens + "/flat/up")
        let run = try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing,
                                                                         filter: "flat/*/popover8*")).run()
        let blocked = run.results.filter { $0.id.hasPrefix("flat/up/") }
        try #require(!blocked.isEmpty)
        for r in blocked {
            #expect(r.status == .error)
            #expect(r.message == "\(goldens)/\(r.id).png: cannot read: Not a directory", "\(r.message)")
        }
        #expect(run.results.filter { !$0.id.hasPrefix("flat/up/") }.allSatisfy { $0.status == .new })
        #expect(run.exitCode == 2)
        #expect(try FileIO.readBytes(path: goldens + "/flat/up") == Array("in the way\n".utf8))
    }

    @Test("a golden that cannot be written (its folder a link to nowhere): error naming the file; others record; nothing made")
    func goldenCannotBeWritten() throws {
        let goldens = temporaryFolder("robust-unwritable")
        defer { removeFolders(goldens) }
        // "flat/up" is a symbolic link to nowhere: the goldens under it read as missing,
        // and recording them is refused (root ignores permissions, so this is how a
        // refused write is had without a read-only mount).
        try FileIO.createDirectories(goldens + "/flat")
        try FileManager.default.createSymbolicLink(atPath: goldens + "/flat/up",
                                                   withDestinationPath: goldens + "/nowhere/at/all")
        let run = try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing,
                                                                         filter: "flat/*/popover8*")).run()
        let blocked = run.results.filter { $0.id.hasPrefix("flat/up/") }
        try #require(!blocked.isEmpty)
        for r in blocked {
            #expect(r.status == .error)
            #expect(r.message == "cannot record the golden: \(goldens)/\(r.id).png: cannot write: "
                + "\(goldens)/flat/up is a symbolic link; goldens are written only into real folders", "\(r.message)")
        }
        #expect(run.results.filter { !$0.id.hasPrefix("flat/up/") }.allSatisfy { $0.status == .new })
        #expect(run.exitCode == 2)
        #expect(!FileManager.default.fileExists(atPath: goldens + "/nowhere"))
    }

    @Test("a goldens folder that is a symbolic link to a real folder: nothing is written or made through it, each case's error names it",
          arguments: ["flat/up", "flat"])
    func linkedCaseFolder(_ linked: String) throws {
        let goldens = temporaryFolder("robust-linked"), elsewhere = temporaryFolder("robust-elsewhere")
        defer { removeFolders(goldens, elsewhere) }
        try FileIO.createDirectories(goldens + "/flat")
        if linked == "flat" { try FileManager.default.removeItem(atPath: goldens + "/flat") }
        try FileManager.default.createSymbolicLink(atPath: goldens + "/" + linked, withDestinationPath: elsewhere)
        let run = try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: .missing,
                                                                         filter: "flat/*/popover8*")).run()
        let blocked = run.results.filter { $0.id.hasPrefix(linked + "/") }
        try #require(!blocked.isEmpty)
        for r in blocked {
            #expect(r.status == .error)
            #expect(r.message.contains("\(goldens)/\(linked) is a symbolic link; goldens are written only into real folders"),
                    "\(r.message)")
        }
        #expect(run.results.filter { !$0.id.hasPrefix(linked + "/") }.allSatisfy { $0.status == .new })
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}
