import Foundation
import PopoverFiles
import PopoverGeometry
import PopoverHarness
import PopoverImage
import PopoverSkins
import Testing
import TestSupport

/// Review by change, on the committed goldens and real skins: an intended edit to a skin
/// fails its cases, and each failure is explained in the model's terms and grouped with
/// the others it shares a cause with. Expectations come from the edit (what a border
/// colour can touch, which layouts a metric moves), never from the code that explains.
@Suite("Review by change: facts, causes and changes on the committed goldens", .serialized)
struct ChangeReviewTests {
    /// A project folder: the committed skins (one edited by `edit`), and the committed
    /// goldens and facts of the cases `filter` selects.
    struct Project {
        let folder: TemporaryFolder
        let catalog: CaseCatalog
        var skins: String { folder.file("Skins") }
        var goldens: String { folder.file("Goldens") }

        init(filter: String, label: String = #function, edit: (_ skinJSON: inout [String: Any]) -> Void = { _ in },
             skin: String = "gik-sample") throws {
            folder = TemporaryFolder(label)
            try FileManager.default.copyItem(atPath: PackageFolders.skins, toPath: folder.file("Skins"))
            let file = folder.file("Skins/\(skin)/skin.json")
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            edit(&json)
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))
            let committed = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
            try copyCommittedGoldens(committed, to: folder.file("Goldens"))
            catalog = CaseCatalog.standard(skinsFolder: folder.file("Skins"))
        }

        func check(_ filter: String, mode: RecordMode = .never) throws -> RunRecord {
            try CheckRunner(catalog: catalog, options: checkOptions(goldens: goldens, mode: mode, filter: filter,
                                                                   cache: folder.file("cache"))).run()
        }
    }

    /// gik-sample's border made redder in its skin.json: what a designer's colour change is.
    static func redderBorder(_ json: inout [String: Any]) {
        var images = json["images"] as! [String: Any]
        var colours = images["colours"] as! [String: Any]
        colours["border"] = [0.5, 0.431373, 0.407843]
        images["colours"] = colours
        json["images"] = images
    }

    @Test("a skin's border colour changed in its skin.json: its cases fail as one change, geometry unchanged, in the border")
    func borderColour() throws {
        let filter = "gik-sample/*@1x"
        let project = try Project(filter: filter, edit: Self.redderBorder)
        defer { project.folder.remove() }
        let run = try project.check(filter)
        #expect(run.results.count == 170 && run.count(.failed) == 170)
        #expect(run.changes.count == 1)
        let change = try #require(run.changes.first)
        #expect(change.kind == "drawing" && change.cases.count == 170)
        #expect(change.explanation.hasPrefix("geometry unchanged: the drawing changed in the"))
        for result in run.results {
            let cause = try #require(result.cause)
            #expect(cause.facts == .recorded && cause.geometry.isEmpty, "\(result.id)")
            // The border colour paints the outline, which runs round the arrow too: nothing else.
            #expect(Set(cause.parts).isSubset(of: [.arrow, .border]) && cause.parts.contains(.border), "\(result.id): \(cause.parts)")
            #expect(result.change == change.id)
        }
    }

    @Test("a skin's arrowBase changed: explained as the metric and what it moved, no case left unexplained")
    func arrowBase() throws {
        let filter = "gik-sample/*@1x"
        let project = try Project(filter: filter) { json in json["metrics"] = ["arrowBase": 39] }
        defer { project.folder.remove() }
        let run = try project.check(filter)
        // Which cases change, from geometry alone: the layout (image chosen, stretches;
        // its thresholds sit arrowBase / 2 from the corners) drawn before, from the
        // committed facts' bounds and offset with the old metrics, against the layout
        // drawn now; or the bounds or shadow a scene's placement or a keyframe gives.
        var before = SevenImageMetrics.standard, after = before
        after.arrowBase = 39
        before.arrowBase = 37
        func group(_ value: FactValue?) -> Facts? { if case .group(let g)? = value { return g } else { return nil } }
        var predicted = Set<String>()
        for c in project.catalog.cases(matching: filter) where FileManager.default.fileExists(atPath: project.goldens + "/" + c.goldenFile) {
            let committed = try #require(GoldenStore(folder: project.goldens).recordedFacts(for: c.id)).facts
            let bounds = try #require(group(committed["bounds"]))
            let oldBounds = Size(width: try #require(bounds["width"]?.number), height: try #require(bounds["height"]?.number))
            let oldOffset = try #require(committed["offset"]?.number)
            let old = try BackgroundLayout.make(bounds: oldBounds, direction: c.direction, arrowOffset: oldOffset, metrics: before)
            let new = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction,
                                                arrowOffset: c.request.arrowOffset, metrics: after)
            let oldShadow = group(committed["shadow"]).map {
                Rect(x: $0["x"]!.number!, y: $0["y"]!.number!, width: $0["width"]!.number!, height: $0["height"]!.number!)
            }
            let newShadow = try c.request.shadowRect ?? ShadowGeometry.shadowRect(bounds: c.request.bounds, direction: c.direction,
                                                                                arrowHeight: after.arrowHeight)
            if old != new || oldShadow != newShadow { predicted.insert(c.id) }
        }
        let failed = Set(run.results.filter { $0.status == .failed }.map(\.id))
        #expect(!failed.isEmpty)
        #expect(failed == predicted, "unpredicted: \(failed.subtracting(predicted).sorted().prefix(5)), missed: \(predicted.subtracting(failed).sorted().prefix(5))")
        for result in run.results where result.status.isFailure {
            let explanation = try #require(result.explanation)
            #expect(!explanation.hasPrefix("geometry unchanged") && !explanation.contains("no facts"), "\(result.id): \(explanation)")
            if result.status == .failed {
                let deltas = try #require(result.cause?.geometry)
                #expect(deltas.contains { $0.fact == "metrics.arrowBase" && $0.expected == .number(37) && $0.actual == .number(39) })
                #expect(explanation.hasPrefix("metric arrowBase 37 -> 39; "), "\(result.id): \(explanation)")
            } else {
                // Sweep offsets follow the arrow's base: new offsets are new cases.
                #expect(result.status == .missing && explanation.hasPrefix("no golden yet"), "\(result.id)")
            }
        }
        #expect(run.changes.allSatisfy { ["geometry", "new"].contains($0.kind) })
        #expect(run.changes.reduce(0) { $0 + $1.cases.count } == run.results.filter(\.status.isFailure).count)
    }

    @Test("a golden edited by hand with its facts still its own: geometry unchanged; the facts of a changed golden: stale")
    func editedGolden() throws {
        let filter = "gik-sample/up/popover8"
        let project = try Project(filter: filter)
        defer { project.folder.remove() }
        let ids = project.catalog.cases(matching: filter).map(\.id)
        // Two goldens get a red pixel in the middle of the body. The first one's row is
        // re-tied to the edited file (as if recorded with it: its golden's SHA-256 replaced
        // in the table's text); the second's is left.
        for (i, id) in ids.prefix(2).enumerated() {
            let path = project.goldens + "/" + id + ".png"
            var image = try PNGFile.read(path: path)
            let middle = (image.height / 2 * image.width + image.width / 2) * 4
            image.pixels.replaceSubrange(middle..<middle + 4, with: [255, 0, 0, 255])
            try PNGFile.write(image, to: path)
            if i == 0 {
                let table = GoldenStore(folder: project.goldens).factsTablePath(for: id)
                let text = try String(contentsOfFile: table, encoding: .utf8)
                let retied = retying(text, row: FilePaths.lastComponent(of: id), to: SHA256.hex(try FileIO.readBytes(path: path)))
                try #require(retied != text)
                try retied.write(toFile: table, atomically: true, encoding: .utf8)
            }
        }
        let run = try project.check(filter)
        let retied = try #require(run.results.first { $0.id == ids[0] }), stale = try #require(run.results.first { $0.id == ids[1] })
        #expect(retied.status == .failed && retied.cause?.facts == .recorded && retied.cause?.geometry == [])
        #expect(retied.cause?.parts == [.body])
        #expect(retied.explanation?.hasPrefix("geometry unchanged: the drawing changed in the body") == true)
        #expect(stale.status == .failed && stale.cause?.facts == .stale && stale.cause?.geometry == [])
        #expect(stale.explanation?.hasPrefix("its golden's facts are stale") == true)
        #expect(run.notes.filter { $0.contains("facts are stale") }.count == 1)
        #expect(run.results.filter { $0.status == .passed }.count == ids.count - 2)
    }

    @Test("facts missing: said once; record writes them beside the unchanged goldens and leaves both alone after")
    func missingFacts() throws {
        let filter = "gik-sample/left/popover1"
        let project = try Project(filter: filter)
        defer { project.folder.remove() }
        let ids = project.catalog.cases(matching: filter).map(\.id)
        // The cases share one folder, whose table holds exactly their rows.
        let table = GoldenStore(folder: project.goldens).factsTablePath(for: ids[0])
        try #require(ids.allSatisfy { GoldenStore(folder: project.goldens).factsTablePath(for: $0) == table })
        let committedFacts = try FileIO.readBytes(path: table)
        try FileManager.default.removeItem(atPath: table)
        let pngDates = try ids.map { try FileManager.default.attributesOfItem(atPath: project.goldens + "/" + $0 + ".png")[.modificationDate] as? Date }

        let checked = try project.check(filter)
        #expect(checked.exitCode == 0)
        #expect(checked.notes.filter { $0.contains("no facts") }.count == 1, "\(checked.notes)")
        #expect(checked.notes.first { $0.contains("no facts") }?.hasPrefix("\(ids.count) goldens have no facts") == true)

        let recorded = try project.check(filter, mode: .all)
        #expect(recorded.exitCode == 0 && recorded.count(.recorded) == 0)
        #expect(recorded.notes.contains("wrote the facts of \(ids.count) goldens whose images were unchanged"))
        // The committed facts again (the same geometry gives the same bytes), the goldens untouched.
        #expect(try FileIO.readBytes(path: table) == committedFacts)
        #expect(try ids.map { try FileManager.default.attributesOfItem(atPath: project.goldens + "/" + $0 + ".png")[.modificationDate] as? Date } == pngDates)
        let tableIdentity = fileIdentity(table)
        Thread.sleep(forTimeInterval: 0.02)
        let again = try project.check(filter, mode: .all)
        #expect(again.notes.isEmpty, "\(again.notes)")
        #expect(tableIdentity != nil && fileIdentity(table)?.modified == tableIdentity?.modified
                && fileIdentity(table)?.inode == tableIdentity?.inode)
    }

    @Test("a facts table left unreadable (by a merge conflict): its cases still pass, said once with file and line; record rewrites it")
    func unreadableTable() throws {
        let filter = "gik-sample/left/popover1"
        let project = try Project(filter: filter)
        defer { project.folder.remove() }
        let ids = project.catalog.cases(matching: filter).map(\.id)
        let table = GoldenStore(folder: project.goldens).factsTablePath(for: ids[0])
        try #require(ids.count > 1 && ids.allSatisfy { GoldenStore(folder: project.goldens).factsTablePath(for: $0) == table })
        let committed = try FileIO.readBytes(path: table)
        var lines = String(decoding: committed, as: UTF8.self).components(separatedBy: "\n")
        let columns = lines[0].components(separatedBy: "\t").count
        // What git leaves of a conflict: markers around two versions of a row.
        lines.insert(contentsOf: ["<<<<<<< HEAD", lines[1], "=======", lines[1], ">>>>>>> other"], at: 1)
        try lines.joined(separator: "\n").write(toFile: table, atomically: true, encoding: .utf8)

        let checked = try project.check(filter)
        #expect(checked.exitCode == 0 && checked.count(.passed) == ids.count)
        #expect(checked.notes.filter { $0.contains("facts") } == [
            "the facts of \(ids.count) goldens cannot be read (\(table):2: 1 cell, but the header has \(columns)); "
                + "they are not used; `popover-goldens record` rewrites them",
        ])
        let recorded = try project.check(filter, mode: .all)
        #expect(recorded.exitCode == 0 && recorded.count(.recorded) == 0)
        #expect(try FileIO.readBytes(path: table) == committed)
    }

    @Test("ignore shadow: a shadow-only difference passes (under opaque and translucent paint), a border difference still fails")
    func ignoreShadow() throws {
        let filter = "gik-*/up/popover8*"
        let project = try Project(filter: filter, edit: Self.redderBorder)
        defer { project.folder.remove() }
        let catalog = project.catalog
        func run(shadowMoved: Bool, ignore: String?, filter: String) throws -> RunRecord {
            let file = project.goldens + "/tolerances.json"
            if let ignore {
                try FileIO.writeAtomically(Array("{\"default\": {\"ignore\": [\"\(ignore)\"]}}".utf8), to: file)
            } else {
                try? FileManager.default.removeItem(atPath: file)
            }
            var runner = CheckRunner(catalog: catalog, options: checkOptions(goldens: project.goldens, mode: .never, filter: filter,
                                                                              cache: project.folder.file("cache")))
            guard shadowMoved else { return try runner.run() }
            // The shadow cast from two points lower, nothing else changed (the committed
            // skins draw, not the project's edited one).
            let committed = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
            runner.draw = { c in
                let skin = committed.skin(c.skinID)!
                var request = c.request
                let rect = try request.shadowRect ?? ShadowGeometry.shadowRect(bounds: request.bounds, direction: request.direction,
                                                                              arrowHeight: skin.metrics.arrowHeight)
                request.shadowRect = Rect(x: rect.minX, y: rect.minY + 2, width: rect.width, height: rect.height)
                return try skin.render(request).pixmap.straightImage
            }
            return try runner.run()
        }
        // gik-default's gradient starts translucent, so there the shadow shows through the body.
        for skin in ["gik-default", "gik-sample"] {
            let moved = try run(shadowMoved: true, ignore: nil, filter: skin + "/up/popover8*")
            #expect(moved.count(.failed) == moved.results.count && !moved.results.isEmpty, "\(skin): the shadow change must show")
            let ignored = try run(shadowMoved: true, ignore: "shadow", filter: skin + "/up/popover8*")
            #expect(ignored.count(.passed) == ignored.results.count, "\(skin): \(ignored.results.map(\.message))")
            for result in ignored.results {
                #expect(result.ignoredParts == [.shadow])
                #expect((result.metrics?.excusedIgnored ?? 0) > 0 && result.metrics?.differentPixels == 0, "\(result.id): \(result.message)")
            }
        }
        // The border colour changed in gik-sample's skin.json: the shadow is ignored, the border is not.
        let border = try run(shadowMoved: false, ignore: "shadow", filter: "gik-sample/up/popover8*")
        #expect(border.count(.failed) == border.results.count && !border.results.isEmpty)
        // Ignoring the border and the arrow's outline excuses it.
        let both = try run(shadowMoved: false, ignore: "border\", \"arrow", filter: "gik-sample/up/popover8*")
        #expect(both.count(.passed) == both.results.count, "\(both.results.map(\.message))")
        // An unknown part is an error naming the key.
        let wrong = try run(shadowMoved: false, ignore: "shadows", filter: "gik-sample/up/popover8*")
        #expect(wrong.errors.contains { $0.contains("tolerances.json") && $0.contains("ignore") && $0.contains("\"shadows\" is not one of arrow, border, body, shadow, outside") },
                "\(wrong.errors)")
    }
}
