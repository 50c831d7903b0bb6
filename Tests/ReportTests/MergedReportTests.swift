import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverReport
import Testing
import TestSupport

/// Three shards of a run with two altered goldens, merged, against the same run on one
/// machine: the same counts, failing cases, exit status, overview and failing sections.
@Suite("Merged reports")
struct MergedReportTests {
    @Test("three shards merged give the report one unsharded run gives")
    func mergedEqualsWhole() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (shards, altered) = try Self.shards(folder)
        let whole = try Self.whole(folder)
        for (index, shard) in shards.enumerated() {
            let run = try shard.load()
            #expect(run.shard?.index == index + 1 && !run.results.isEmpty)
        }
        let merged = try MergedReport.merge(shards.reversed(), into: ReportFolder(folder.file("merged")),
                                            verdicts: Self.verdicts(folder)).run

        #expect(merged.counts == whole.counts)
        #expect(merged.exitCode == whole.exitCode && whole.exitCode == 1)
        #expect(merged.results.map(\.id) == whole.results.map(\.id))
        #expect(merged.failures.map(\.id) == altered.sorted { a, b in
            whole.results.firstIndex { $0.id == a }! < whole.results.firstIndex { $0.id == b }!
        })
        let wholePage = try Page(folder: folder.file("whole")), mergedPage = try Page(folder: folder.file("merged"))
        #expect(Self.overview(mergedPage.html) == Self.overview(wholePage.html))
        for id in altered {
            let mergedCase = try #require(mergedPage.caseData(id))
            let wholeCase = try #require(wholePage.caseData(id))
            #expect(try Self.withoutTiming(mergedCase) == Self.withoutTiming(wholeCase))
            for kind in ["expected", "actual", "heatmap"] {
                #expect(FileManager.default.fileExists(atPath: folder.file("merged/cases/\(id).\(kind).png")))
            }
        }
        let junit = try String(contentsOfFile: folder.file("merged/junit.xml"), encoding: .utf8)
        #expect(junit.contains("tests=\"\(whole.results.count)\" failures=\"2\""))
    }

    /// The run the shards split, checked on one machine, published in `whole`.
    static func whole(_ folder: TemporaryFolder) throws -> RunRecord {
        try publishing(CheckRunner(catalog: CaseCatalog(skins: [FlatSkin()]),
                                   options: checkOptions(goldens: folder.file("goldens"), mode: .never, filter: "flat/up",
                                                         cache: folder.file("cache"))),
                       to: folder.file("whole"))
    }

    static func verdicts(_ folder: TemporaryFolder) throws -> ShardVerdicts {
        ShardVerdicts(store: GoldenStore(folder: folder.file("goldens")),
                      tolerances: try TolerancePolicy.load(goldensFolder: folder.file("goldens"), suite: nil))
    }

    /// Three shards of a failing run, as the test above makes them.
    static func shards(_ folder: TemporaryFolder) throws -> (shards: [ReportFolder], altered: [String]) {
        let catalog = CaseCatalog(skins: [FlatSkin()])
        var options = checkOptions(goldens: folder.file("goldens"), mode: .missing, filter: "flat/up", cache: folder.file("cache"))
        let recorded = try CheckRunner(catalog: catalog, options: options).run()
        let altered = [recorded.results[3].id, recorded.results[17].id]
        for id in altered {
            var image = try PNGFile.read(path: folder.file("goldens/\(id).png"))
            image.pixels.replaceSubrange(0..<4, with: [0, 255, 0, 255])
            try PNGFile.write(image, to: folder.file("goldens/\(id).png"))
        }
        options.recordMode = .never
        var shards: [ReportFolder] = []
        for index in 1...3 {
            var shardOptions = options
            shardOptions.shard = try Shard(index: index, count: 3)
            _ = try publishing(CheckRunner(catalog: catalog, options: shardOptions), to: folder.file("shard\(index)"))
            shards.append(ReportFolder(folder.file("shard\(index)")))
        }
        return (shards, altered)
    }

    /// Edits case `id` in whichever shard judged it.
    static func edit(_ id: String, in shards: [ReportFolder], _ change: (inout [String: Any]) -> Void) throws {
        for shard in shards {
            let path = shard.path + "/summary.json"
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            var cases = try #require(json["cases"] as? [[String: Any]])
            guard let i = cases.firstIndex(where: { $0["id"] as? String == id }) else { continue }
            change(&cases[i])
            json["cases"] = cases
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        }
    }

    func refusal(_ folder: TemporaryFolder, _ shards: [ReportFolder]) throws -> String {
        do {
            _ = try MergedReport.merge(shards, into: ReportFolder(folder.file("merged")), verdicts: Self.verdicts(folder))
        } catch let refusal as MergeRefusal {
            return refusal.description
        }
        Issue.record("the merge should have been refused")
        return ""
    }

    @Test("a shard edited to say a failed case passed is refused, naming the case; so is one whose metrics were zeroed too")
    func forgedPass() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (shards, altered) = try Self.shards(folder)
        try Self.edit(altered[0], in: shards) { $0["status"] = "passed" }
        try Self.edit(altered[1], in: shards) { c in
            c["status"] = "passed"
            var m = c["metrics"] as! [String: Any]
            m["differentPixels"] = 0
            m["maxChannelDelta"] = 0
            m["pass"] = true
            c["metrics"] = m
        }
        let said = try refusal(folder, shards)
        #expect(said.hasPrefix("2 verdicts do not add up"), "\(said)")
        #expect(said.contains("\(altered[0]): claims passed, but its digests and metrics give failed"), "\(said)")
        #expect(said.contains("\(altered[1]): compared again here, its actual image does not give the metrics it claims"),
                "\(said)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("merged/summary.json")))
    }

    @Test("a failed case whose actual image was removed, a passing case said to fail, a golden changed since: refused")
    func otherForgeries() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (shards, altered) = try Self.shards(folder)
        let passing = try #require(try shards[0].load().results.first { $0.status == .passed }?.id)
        try Self.edit(altered[0], in: shards) { c in
            var images = c["images"] as! [String: Any]
            images["actual"] = nil
            c["images"] = images
        }
        try Self.edit(passing, in: shards) { $0["status"] = "failed" }
        // The second altered golden put back as recorded: the shard compared against another.
        var image = try PNGFile.read(path: folder.file("goldens/\(altered[1]).png"))
        image.pixels.replaceSubrange(0..<4, with: [1, 2, 3, 255])
        try PNGFile.write(image, to: folder.file("goldens/\(altered[1]).png"))
        let said = try refusal(folder, shards)
        #expect(said.contains("\(altered[0]): failed, but its actual image is not in the shard"), "\(said)")
        #expect(said.contains("\(passing): claims failed, but its digests and metrics give passed"), "\(said)")
        #expect(said.contains("\(altered[1]): judged against another golden than"), "\(said)")
    }

    /// The shard that judged `id`, and the summary.json entry of its images.
    static func images(of id: String, in shards: [ReportFolder]) throws -> (shard: ReportFolder, images: [String: String]) {
        for shard in shards {
            let run = try shard.load()
            guard let result = run.results.first(where: { $0.id == id }) else { continue }
            let a = result.artifacts
            var paths: [String: String] = [:]
            for (kind, image) in [("expected", a.expected), ("actual", a.actual), ("heatmap", a.heatmap), ("thumbnail", a.thumbnail)] {
                if let image { paths[kind] = image.path }
            }
            return (shard, paths)
        }
        throw PublishFailed(description: "no shard judged \(id)")
    }

    @Test("a shard's expected image, heatmap and thumbnail are never copied: the merge draws its own from what it verified")
    func picturesDrawnNotCopied() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (shards, altered) = try Self.shards(folder)
        let whole = try Self.whole(folder)
        #expect(whole.exitCode == 1)
        let id = altered[0]
        let (shard, paths) = try Self.images(of: id, in: shards)
        let expected = try #require(paths["expected"]), heatmap = try #require(paths["heatmap"])
        let thumbnail = try #require(paths["thumbnail"])
        // A solid red "expected", a heatmap hard-linked to a file outside the shard, a
        // thumbnail that is no PNG at all.
        let red = RGBAImage(width: 4, height: 4, pixels: (0..<16).flatMap { _ in [UInt8(255), 0, 0, 255] })
        try FileIO.writeAtomically(PNGFile.encode(red), to: shard.path + "/" + expected)
        let outside = folder.file("outside.png")
        try FileIO.writeAtomically(PNGFile.encode(red), to: outside)
        try FileManager.default.removeItem(atPath: shard.path + "/" + heatmap)
        try FileManager.default.linkItem(atPath: outside, toPath: shard.path + "/" + heatmap)
        try FileIO.writeAtomically(Array("not a picture".utf8), to: shard.path + "/" + thumbnail)

        _ = try MergedReport.merge(shards, into: ReportFolder(folder.file("merged")), verdicts: Self.verdicts(folder))
        // The expected image is this checkout's golden file; heatmap and thumbnail are what a
        // check on one machine draws from the same golden and drawing.
        #expect(try FileIO.readBytes(path: folder.file("merged/" + expected)) == FileIO.readBytes(path: folder.file("goldens/\(id).png")))
        for path in [heatmap, thumbnail, try #require(paths["actual"])] {
            #expect(try FileIO.readBytes(path: folder.file("merged/" + path)) == FileIO.readBytes(path: folder.file("whole/" + path)),
                    "\(path)")
        }
        #expect(try FileIO.readBytes(path: folder.file("merged/" + heatmap)) != FileIO.readBytes(path: outside))
    }

    @Test("a shard's actual image replaced by other pixels, or by a link out of the shard: refused, naming the case")
    func forgedActual() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (shards, altered) = try Self.shards(folder)
        let (shard, paths) = try Self.images(of: altered[0], in: shards)
        let actual = try #require(paths["actual"])
        var image = try PNGFile.read(path: shard.path + "/" + actual)
        image.pixels.replaceSubrange(4..<8, with: [1, 2, 3, 255])
        try FileIO.writeAtomically(PNGFile.encode(image), to: shard.path + "/" + actual)
        let (other, otherPaths) = try Self.images(of: altered[1], in: shards)
        let otherActual = try #require(otherPaths["actual"])
        try FileIO.writeAtomically(try FileIO.readBytes(path: other.path + "/" + otherActual), to: folder.file("outside.png"))
        try FileManager.default.removeItem(atPath: other.path + "/" + otherActual)
        try FileManager.default.createSymbolicLink(atPath: other.path + "/" + otherActual, withDestinationPath: folder.file("outside.png"))
        let said = try refusal(folder, shards)
        #expect(said.contains("\(altered[0]): its actual image is not what it drew"), "\(said)")
        #expect(said.contains("\(altered[1]): its actual image cannot be read") && said.contains("leads out of the shard's folder"),
                "\(said)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("merged")))
    }

    @Test("the merged report's folder may not be one of the shards, nor hold one; the shards stay as they were")
    func outputAmongShards() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let (shards, _) = try Self.shards(folder)
        let before = try FileIO.readBytes(path: shards[0].path + "/summary.json")
        for output in [shards[0].path, shards[0].path + "/", folder.path] {
            #expect {
                _ = try MergedReport.merge(shards, into: ReportFolder(output), verdicts: Self.verdicts(folder))
            } throws: { error in
                "\(error)".contains("the shard \(shards[0].path) being merged") || "\(error)".contains("which no report writes")
            }
        }
        #expect(try FileIO.readBytes(path: shards[0].path + "/summary.json") == before)
        #expect(try shards[0].load().shard?.index == 1)
    }

    /// The overview section's markup.
    static func overview(_ html: String) -> String {
        guard let start = html.range(of: "<section id=\"overview\">"),
              let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex) else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// A case's data without the one fact that says how long it took, as sorted JSON.
    static func withoutTiming(_ c: [String: Any]) throws -> String {
        var c = c
        c["facts"] = (c["facts"] as? [[String]] ?? []).filter { $0.first != "judged in" }
        return String(decoding: try JSONSerialization.data(withJSONObject: c, options: [.sortedKeys]), as: UTF8.self)
    }
}
