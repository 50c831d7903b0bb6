import Foundation
import PopoverFiles
import PopoverHarness
import Testing
import TestSupport

/// The defects an adversarial audit found in files the tool reads (numbers, paths, skins,
/// tolerances), each tried through the tool as the audit did: a clear error naming the
/// file and value, exit 2, the rest of the run going on where it can, nothing lost, and
/// never a crash.
@Suite("Hostile files: numbers, links, skins and tolerances", .serialized)
struct AuditDefectTests {
    static let filter = "path-slate/up/popover8"

    /// A project with the filter's committed goldens, one perturbed so a case fails, and
    /// the failing check's report (optionally as shard 1 of 1).
    func project(shard: Bool = false) async throws -> (folder: TemporaryFolder, failing: String) {
        let folder = TemporaryFolder("audit")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        var image = try PNGFile.read(path: folder.file("Goldens/\(ids[0]).png"))
        image.pixels.replaceSubrange(0..<4, with: [200, 10, 10, 255])
        try PNGFile.write(image, to: folder.file("Goldens/\(ids[0]).png"))
        let check = try await runTool(["check", "--filter", Self.filter, "--record", "never"] + (shard ? ["--shard", "1/1"] : []),
                                in: folder.path)
        try #require(check.status == 1, "\(check.stdout)\(check.stderr)")
        return (folder, ids[0])
    }

    /// Sets the value at `path` (keys, or "#n" for element n) of summary.json.
    func setSummary(_ folder: TemporaryFolder, _ path: [String], to value: Any) throws {
        let file = folder.file("Reports/summary.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
        func set(_ node: Any, _ rest: ArraySlice<String>) -> Any {
            guard let key = rest.first else { return value }
            if key.hasPrefix("#"), var array = node as? [Any], let i = Int(key.dropFirst()) {
                array[i] = set(array[i], rest.dropFirst())
                return array
            }
            var object = node as? [String: Any] ?? [:]
            object[key] = set(object[key] as Any, rest.dropFirst())
            return object
        }
        try JSONSerialization.data(withJSONObject: set(json, path[...])).write(to: URL(fileURLWithPath: file))
    }

    /// (where, the value as JSON text, what the error must say).
    static let absurd: [([String], String, String)] = [
        (["seconds"], "1e19", "seconds: 1e+19 is outside 0...604800"),
        (["jobs"], "1000000000000", "jobs: 1000000000000 is outside"),
        (["cases", "#0", "seconds"], "-1", "cases[0].seconds: -1.0 is outside"),
        (["cases", "#0", "width"], "4611686018427387904", "cases[0].width: 4611686018427387904 is outside"),
        (["cases", "#0", "metrics", "differentPixels"], "4611686018427387904", "cases[0].metrics.differentPixels"),
        (["cases", "#0", "changedRegion", "x"], "4611686018427387904", "cases[0].changedRegion.x"),
        (["cases", "#0", "goldenDigest"], "\"../../etc/passwd\"", "cases[0].goldenDigest"),
    ]

    @Test("absurd numbers in summary.json: accept and review refuse the file naming the value; no golden written, no crash",
          arguments: absurd.indices)
    func absurdNumbers(_ index: Int) async throws {
        let (path, value, said) = Self.absurd[index]
        let (folder, failing) = try await project()
        defer { folder.remove() }
        let before = try FileIO.readBytes(path: folder.file("Goldens/\(failing).png"))
        try setSummary(folder, path, to: try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed))
        let accept = try await runTool(["accept", failing], in: folder.path)
        #expect(accept.status == 2, "\(path): \(accept.stdout)\(accept.stderr)")
        #expect(accept.stderr.contains("Reports/summary.json") && accept.stderr.contains(said), "\(path): \(accept.stderr)")
        #expect(try FileIO.readBytes(path: folder.file("Goldens/\(failing).png")) == before)
    }

    @Test("absurd shard numbers: merge-reports refuses the shard naming the value, and writes no merged report",
          arguments: [(0, "shard.count: 0 is outside 1...1000"), (-1, "shard.count: -1 is outside"),
                      (1_000_000_000_000, "shard.count: 1000000000000 is outside")])
    func absurdShard(_ count: Int, _ said: String) async throws {
        let (folder, _) = try await project(shard: true)
        defer { folder.remove() }
        try setSummary(folder, ["shard", "count"], to: count)
        let merge = try await runTool(["merge-reports", "Reports", "--out", "Merged"], in: folder.path)
        #expect(merge.status == 2 && merge.stderr.contains(said), "\(merge.stdout)\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Merged")))
    }

    @Test("a shard's images that are symbolic links out of the shard: a heatmap is never read (the merge draws its own), an actual image refuses the merge")
    func mergeFollowsNoLinkOut() async throws {
        let (folder, failing) = try await project(shard: true)
        defer { folder.remove() }
        let secret = folder.file("secret.txt")
        try Data("not for the report".utf8).write(to: URL(fileURLWithPath: secret))
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/summary.json")))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(summary["cases"] as? [[String: Any]])
        let images = try #require(cases.first { $0["id"] as? String == failing }?["images"] as? [String: Any])
        func linkOut(_ kind: String) throws {
            let path = try #require((images[kind] as? [String: Any])?["path"] as? String)
            try FileManager.default.removeItem(atPath: folder.file("Reports/" + path))
            try FileManager.default.createSymbolicLink(atPath: folder.file("Reports/" + path), withDestinationPath: secret)
        }
        func leaked(_ output: String) async -> [String] {
            (FileManager.default.subpaths(atPath: folder.file(output)) ?? []).filter {
                (try? String(contentsOfFile: folder.file(output + "/" + $0), encoding: .utf8))?.contains("not for the report") == true
            }
        }
        try linkOut("heatmap")
        let drawn = try await runTool(["merge-reports", "Reports", "--out", "Merged"], in: folder.path)
        #expect(drawn.status == 1, "\(drawn.stdout)\(drawn.stderr)")
        await #expect(leaked("Merged").isEmpty)
        try linkOut("actual")
        let merge = try await runTool(["merge-reports", "Reports", "--out", "Refused"], in: folder.path)
        #expect(merge.status == 2 && merge.stderr.contains("leads out of the shard's folder"), "\(merge.stdout)\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Refused")))
    }

    @Test("a missing or empty skins folder is an error naming it; record --prune then deletes no golden")
    func missingSkins() async throws {
        let (folder, _) = try await project()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("NoSkins"), withIntermediateDirectories: true)
        let before = GoldenStore(folder: folder.file("Goldens")).allIDs()
        for (skins, said) in [("Nowhere", "Nowhere: the skins folder does not exist"),
                              ("NoSkins", "NoSkins: the skins folder holds no skin")] {
            // The error is the run's, whatever the filter: the filter keeps it from drawing every built-in case.
            let check = try await runTool(["check", "--skins", skins, "--filter", Self.filter, "--record", "never"], in: folder.path)
            #expect(check.status == 2 && (check.stdout + check.stderr).contains(said), "\(check.stdout)\(check.stderr)")
            let prune = try await runTool(["record", "--prune", "--force", "--skins", skins, "--goldens", "Goldens"], in: folder.path)
            #expect(prune.status == 2, "\(prune.stdout)")
            #expect(GoldenStore(folder: folder.file("Goldens")).allIDs().filter { before.contains($0) } == before,
                    "\(skins): a golden was deleted")
        }
    }

    @Test("one skin's absurd metric (cornerRadius 1000, arrowBase 1e9) is that skin's error, naming its file; others are judged",
          arguments: [("\"cornerRadius\": 7", "\"cornerRadius\": 1000"), ("\"arrowBase\": 37", "\"arrowBase\": 1e9")])
    func absurdSkinMetric(_ from: String, _ to: String) async throws {
        let folder = TemporaryFolder("absurd-skin")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("Skins"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackageFolders.skins + "/gik-files", toPath: folder.file("Skins/gik-files"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("Skins/gik-default"),
                                                   withDestinationPath: PackageFolders.skins + "/gik-default")
        let metrics = folder.file("Skins/gik-files/metrics.json")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        try #require(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(toFile: metrics, atomically: true, encoding: .utf8)
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "gik-default/up/popover8").map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        let check = try await runTool(["check", "--filter", "up/popover8", "--record", "never"], in: folder.path)
        #expect(check.status == 2)
        #expect(check.stdout.contains("ERROR Skins/gik-files/") && check.stdout.contains("skin gik-files"), "\(check.stdout)")
        for id in ids { #expect(check.stdout.contains(id) || !check.stdout.contains("FAIL"), "\(check.stdout)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/summary.json")))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let passed = Set((summary["cases"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "passed" }
            .compactMap { $0["id"] as? String })
        #expect(Set(ids).isSubset(of: passed), "the other skin's cases were not all judged")
    }

    @Test("tolerances.json that is a FIFO, or holds a value out of range, is named with what is wrong; no case waits or passes wrongly")
    func hostileTolerances() async throws {
        let (folder, _) = try await project()
        defer { folder.remove() }
        let file = folder.file("Goldens/tolerances.json")
        try #require(mkfifo(file, 0o600) == 0)
        let fifo = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        #expect(fifo.status == 2 && fifo.stdout.contains("Goldens/tolerances.json: is a FIFO (named pipe), not a regular file"),
                "\(fifo.stdout)")
        try FileManager.default.removeItem(atPath: file)
        try Data(#"{"default": {"maxChannelDelta": 300}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let range = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        #expect(range.status == 2 && range.stdout.contains("Goldens/tolerances.json: default.maxChannelDelta: 300 is outside 0-255"),
                "\(range.stdout)")
    }
}
