import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverReport
import PopoverReview
import TestSupport

/// A finished, failing run to review: goldens recorded from the flat skin, then two of
/// them painted over (so those cases fail) and one deleted (so it is missing), checked
/// with its report published. What the cases draw is known, so what accepting writes can
/// be checked pixel for pixel.
struct ReviewFixture {
    let folder: TemporaryFolder
    let catalog: CaseCatalog
    let run: RunRecord
    let failed: [String]
    let missing: String
    let passed: String

    var goldens: String { folder.file("goldens") }
    var reports: String { folder.file("reports") }
    var desk: ReviewDesk {
        ReviewDesk(reportsFolder: reports, goldensFolder: goldens, catalog: catalog)
    }

    /// `factsRecorded`: the failing goldens' facts are recorded for them (as after a
    /// `record` that kept their rows), so their causes say "recorded" rather than "stale".
    init(_ label: String = #function, factsRecorded: Bool = false) throws {
        folder = TemporaryFolder(label)
        catalog = CaseCatalog(skins: [FlatSkin()])
        let filter = "flat/up/popover"
        let options = checkOptions(goldens: folder.file("goldens"), mode: .missing, filter: filter, cache: folder.file("cache"))
        let recorded = try CheckRunner(catalog: catalog, options: options).run()
        let ids = recorded.results.map(\.id)
        failed = [ids[0], ids[2]]
        missing = ids[1]
        passed = ids[3]
        for id in failed {
            var image = try PNGFile.read(path: folder.file("goldens/\(id).png"))
            image.pixels.replaceSubrange(0..<4, with: [255, 0, 0, 255])
            try PNGFile.write(image, to: folder.file("goldens/\(id).png"))
        }
        try FileManager.default.removeItem(atPath: folder.file("goldens/\(missing).png"))
        if factsRecorded {
            let store = GoldenStore(folder: folder.file("goldens"))
            for id in failed {
                let golden = SHA256.hex(try FileIO.readBytes(path: store.path(for: id)))
                let facts = try catalog.facts(of: catalog.cases.first { $0.id == id }!).facts
                try store.locked { try store.writeFactsHoldingLock(GoldenFacts(caseID: id, golden: golden, facts: facts)) }
            }
        }
        var never = options
        never.recordMode = .never
        let checked = try ReportFolder(folder.file("reports")).check(CheckRunner(catalog: catalog, options: never))
        guard checked.reportPath != nil else { throw FixtureError(description: "not published: \(checked.run.errors)") }
        run = checked.run
    }

    /// What the case draws: what accepting it must write.
    func drawn(_ id: String) throws -> RGBAImage {
        let c = try requireCase(id)
        return try catalog.skins[0].render(c.request).pixmap.straightImage
    }

    func requireCase(_ id: String) throws -> GoldenCase {
        guard let c = catalog.cases.first(where: { $0.id == id }) else { throw FixtureError(description: "no case \(id)") }
        return c
    }

    func golden(_ id: String) -> [UInt8]? { try? FileIO.readBytes(path: goldens + "/" + id + ".png") }

    /// Every golden's bytes, by ID: to show that nothing changed.
    func allGoldens() -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: GoldenStore(folder: goldens).allIDs().map { ($0, golden($0) ?? []) })
    }

    func result(_ id: String) throws -> CaseResult {
        guard let r = try ReportFolder(reports).load().results.first(where: { $0.id == id }) else {
            throw FixtureError(description: "no result \(id)")
        }
        return r
    }

    func approval(_ id: String) throws -> Approval {
        let r = try result(id)
        return Approval(id: id, expected: r.goldenDigest ?? Approval.noGolden, actual: r.artifacts.actual?.digest ?? "")
    }
}

/// Decoding goldens read as bytes in tests.
enum PNGFileReading {
    static func decode(_ bytes: [UInt8]?) throws -> RGBAImage {
        try PNGFile.decode(bytes ?? [], name: "golden")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}
