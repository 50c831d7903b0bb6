import Foundation
import PopoverFiles
import PopoverHarness

/// `merge-reports`: the reports of a run's shards made into one, as if one machine had
/// run every case: the merged run (see `RunMerge`) with each case's images copied from
/// the shard that judged it.
public enum MergedReport {
    public static func merge(_ shards: [ReportFolder], into output: ReportFolder) throws -> CheckRun {
        var runs: [(source: String, run: CheckRun)] = []
        for shard in shards { runs.append((shard.path, try shard.load())) }
        let merged = try RunMerge.merge(runs)
        var judgedIn: [String: ReportFolder] = [:]
        for (shard, loaded) in zip(shards, runs) {
            for result in loaded.run.results { judgedIn[result.id] = shard }
        }
        let staging = try output.stage()
        do {
            for result in merged.results {
                guard let shard = judgedIn[result.id] else { continue }
                let a = result.artifacts
                for image in [a.expected, a.actual, a.heatmap, a.thumbnail].compactMap({ $0 }) {
                    try copy(image.path, from: shard.path, to: staging.folder)
                }
            }
            try output.publish(merged, from: staging)
        } catch {
            staging.discard()
            throw error
        }
        return merged
    }

    /// Copies one image, refusing a path that would lead out of either folder.
    private static func copy(_ relative: String, from source: String, to target: String) throws {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw ReportError.unreadableRun(file: source + "/summary.json",
                                            reason: "the image path \(relative) leads out of the report folder")
        }
        let bytes = try FileIO.readBytes(path: source + "/" + relative)
        let destination = target + "/" + relative
        try FileIO.createDirectories(FilePaths.parent(of: destination))
        try FileIO.writeNew(bytes, to: destination)
    }
}
