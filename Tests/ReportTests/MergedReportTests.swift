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
        let whole = try publishing(CheckRunner(catalog: catalog, options: options), to: folder.file("whole"))
        var shards: [ReportFolder] = []
        for index in 1...3 {
            var shardOptions = options
            shardOptions.shard = try Shard(index: index, count: 3)
            let run = try publishing(CheckRunner(catalog: catalog, options: shardOptions), to: folder.file("shard\(index)"))
            #expect(run.shard?.index == index && !run.results.isEmpty)
            shards.append(ReportFolder(folder.file("shard\(index)")))
        }
        let merged = try MergedReport.merge(shards.reversed(), into: ReportFolder(folder.file("merged")))

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
