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
        // 40 scenes, 120 sweep cases, 10 keyframes and 49 boundaries at 1x.
        #expect(run.results.count == 219 && run.count(.failed) == 219)
        #expect(run.changes.count == 1)
        let change = try #require(run.changes.first)
        // The edit, named as skin.json names it, is the change: no geometry moved.
        #expect(change.kind == "input" && change.cases.count == 219)
        #expect(change.edits == [Change.Edit(skin: "gik-sample", field: "images.colours.border",
                                             expected: "[0.439216, 0.431373, 0.407843, 1]", actual: "[0.5, 0.431373, 0.407843, 1]")])
        #expect(change.explanation.hasPrefix("gik-sample: images.colours.border [0.439216, 0.431373, 0.407843, 1] -> "
            + "[0.5, 0.431373, 0.407843, 1]: the drawing changed in the"), "\(change.explanation)")
        for result in run.results {
            let cause = try #require(result.cause)
            #expect(cause.facts == .recorded && cause.geometry.map(\.fact) == ["skin.images.colours.border"], "\(result.id)")
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
                #expect(explanation.contains("arrowBase 37 -> 39"), "\(result.id): \(explanation)")
            } else {
                // Sweep offsets follow the arrow's base: new offsets are new cases.
                #expect(result.status == .missing && explanation.hasPrefix("no golden yet"), "\(result.id)")
            }
        }
        // One edit, one change: the failing cases and the renamed sweep cases together.
        #expect(run.changes.map(\.kind) == ["input"])
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
        #expect(stale.explanation?.hasPrefix("the golden file changed since its facts were recorded") == true)
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
        // A past modification date, so any rewrite of the table (in place or by rename) shows
        // as a new one, however coarse the file system's clock.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 946_684_800)], ofItemAtPath: table)
        let tableIdentity = fileIdentity(table)
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
                + "they are not used; `popover-goldens record --facts-only --filter \(RunRecord.shellWord(filter)) --goldens \(RunRecord.shellWord(project.goldens))` rewrites them",
        ])
        let recorded = try project.check(filter, mode: .all)
        #expect(recorded.exitCode == 0 && recorded.count(.recorded) == 0)
        #expect(try FileIO.readBytes(path: table) == committed)
    }

    /// A check of `filter` under `tolerances.json` ignoring `ignore` (none: no file), each
    /// case drawn by `draw` from the committed skins.
    func checkIgnoring(_ ignore: [String]?, filter: String, in project: Project,
                       draw: @escaping @Sendable (GoldenCase, any Skin) throws -> RGBAImage) throws -> RunRecord {
        let file = project.goldens + "/tolerances.json"
        if let ignore {
            let list = ignore.map { "\"\($0)\"" }.joined(separator: ", ")
            try FileIO.writeAtomically(Array("{\"default\": {\"ignore\": [\(list)]}}".utf8), to: file)
        } else {
            try? FileManager.default.removeItem(atPath: file)
        }
        var runner = CheckRunner(catalog: project.catalog, options: checkOptions(goldens: project.goldens, mode: .never,
                                                                                 filter: filter, cache: project.folder.file("cache")))
        let committed = CaseCatalog.standard(skinsFolder: PackageFolders.skins)
        runner.draw = { c in try draw(c, committed.skin(c.skinID)!) }
        return try runner.run()
    }

    /// The committed drawing of `c` with the red byte of one canvas pixel changed.
    static func onePixelChanged(_ c: GoldenCase, _ skin: any Skin, x: Int, y: Int) throws -> RGBAImage {
        var image = try skin.render(c.request).pixmap.straightImage
        image.pixels[(y * image.width + x) * 4] ^= 0x10
        return image
    }

    @Test("ignore shadow excuses a changed pixel where only the shadow is drawn, not one inside the body")
    func ignoreShadowOnePixel() throws {
        let id = "gik-default/up/popover8-portrait@1x"
        let project = try Project(filter: id)
        defer { project.folder.remove() }
        // popover8 in portrait is 216 x 235 pointing up with offset 0 (specification §13); at
        // 1x its canvas puts the bounds at (58, 48) (§7.5: room left 58, top 48). The body
        // runs from y = 19 (the arrow's strip) to the image's bottom edge at H - 2 = 233.
        // Bounds point (108, 29) lies 10 points inside the body's top, in the up image's top
        // cap, whose gradient alpha is 0.8 + 0.2 * 29.5 / 51 = 0.92 there (§4.3: translucent,
        // and the shadow, whose rectangle starts at 19 + 10 = 29, shows through). Bounds
        // point (108, 255) lies 20 points below the bounds, inside the shadow's reach (58
        // points below its rectangle, which ends at 235 + 10) and beyond the border's band.
        let body = (x: 58 + 108, y: 48 + 29), shadow = (x: 58 + 108, y: 48 + 255)

        let inBody = try checkIgnoring(["shadow"], filter: id, in: project) { c, skin in
            try Self.onePixelChanged(c, skin, x: body.x, y: body.y)
        }
        let bodyResult = try #require(inBody.results.first)
        #expect(bodyResult.status == .failed, "\(bodyResult.message)")
        #expect(bodyResult.metrics?.differentPixels == 1 && bodyResult.metrics?.excusedIgnored == 0, "\(bodyResult.message)")

        let inShadow = try checkIgnoring(["shadow"], filter: id, in: project) { c, skin in
            try Self.onePixelChanged(c, skin, x: shadow.x, y: shadow.y)
        }
        let shadowResult = try #require(inShadow.results.first)
        #expect(shadowResult.status == .passed, "\(shadowResult.message)")
        #expect(shadowResult.metrics?.differentPixels == 0 && shadowResult.metrics?.excusedIgnored == 1, "\(shadowResult.message)")

        // Ignoring the body is what excuses the body's pixel.
        let bodyIgnored = try checkIgnoring(["body"], filter: id, in: project) { c, skin in
            try Self.onePixelChanged(c, skin, x: body.x, y: body.y)
        }
        #expect(bodyIgnored.results.first?.status == .passed && bodyIgnored.results.first?.metrics?.excusedIgnored == 1)
    }

    @Test("the shadow cast 2 points lower: ignoring the shadow alone fails it wherever the shadow shows through the popover")
    func ignoreShadowMoved() throws {
        let filter = "gik-*/up/popover8*"
        let project = try Project(filter: filter)
        defer { project.folder.remove() }
        // The shadow cast from two points lower, nothing else changed.
        let moved: @Sendable (GoldenCase, any Skin) throws -> RGBAImage = { c, skin in
            var request = c.request
            let rect = try request.shadowRect ?? ShadowGeometry.shadowRect(bounds: request.bounds, direction: request.direction,
                                                                          arrowHeight: skin.metrics.arrowHeight)
            request.shadowRect = Rect(x: rect.minX, y: rect.minY + 2, width: rect.width, height: rect.height)
            return try skin.render(request).pixmap.straightImage
        }
        for skin in ["gik-default", "gik-sample"] {
            let exact = try checkIgnoring(nil, filter: skin + "/up/popover8*", in: project, draw: moved)
            #expect(exact.count(.failed) == exact.results.count && !exact.results.isEmpty, "\(skin): the shadow change must show")
            // The popover's anti-aliased edge lets the shadow through in both skins
            // (specification §4.2); those pixels are the border's.
            let shadowOnly = try checkIgnoring(["shadow"], filter: skin + "/up/popover8*", in: project, draw: moved)
            for result in shadowOnly.results {
                #expect(result.status == .failed && result.ignoredParts == [.shadow], "\(result.id): \(result.message)")
                #expect((result.metrics?.excusedIgnored ?? 0) > 0, "\(result.id): \(result.message)")
                #expect(result.cause?.parts.contains(.border) == true, "\(result.id): \(result.cause?.parts ?? [])")
            }
        }
        // gik-sample's paint is opaque (§4.3: both gradient colours at alpha 1), so the shadow
        // shows only through the edge: ignoring the outline's parts as well excuses it all.
        let opaque = try checkIgnoring(["shadow", "border", "arrow"], filter: "gik-sample/up/popover8*", in: project, draw: moved)
        #expect(opaque.count(.passed) == opaque.results.count && !opaque.results.isEmpty, "\(opaque.results.map(\.message))")
        // gik-default's gradient starts at alpha 0.8: there the shadow shows through the body,
        // which is the popover, not the shadow.
        let translucent = try checkIgnoring(["shadow", "border", "arrow"], filter: "gik-default/up/popover8*", in: project,
                                            draw: moved)
        for result in translucent.results {
            #expect(result.status == .failed, "\(result.id): \(result.message)")
            #expect(result.cause?.parts.contains(.body) == true, "\(result.id): \(result.cause?.parts ?? [])")
        }
    }

    @Test("ignoring the border and the arrow excuses a border colour change the shadow's part does not; an unknown part is an error")
    func ignoreBorder() throws {
        let filter = "gik-sample/up/popover8*"
        let project = try Project(filter: filter, edit: Self.redderBorder)
        defer { project.folder.remove() }
        let edited = project.catalog
        let asProjectDraws: @Sendable (GoldenCase, any Skin) throws -> RGBAImage = { c, _ in
            try edited.skin(c.skinID)!.render(c.request).pixmap.straightImage
        }
        let border = try checkIgnoring(["shadow"], filter: filter, in: project, draw: asProjectDraws)
        #expect(border.count(.failed) == border.results.count && !border.results.isEmpty)
        let both = try checkIgnoring(["border", "arrow"], filter: filter, in: project, draw: asProjectDraws)
        #expect(both.count(.passed) == both.results.count, "\(both.results.map(\.message))")
        let wrong = try checkIgnoring(["shadows"], filter: filter, in: project, draw: asProjectDraws)
        #expect(wrong.errors.contains { $0.contains("tolerances.json") && $0.contains("ignore") && $0.contains("\"shadows\" is not one of arrow, border, body, shadow, outside") },
                "\(wrong.errors)")
    }
}
