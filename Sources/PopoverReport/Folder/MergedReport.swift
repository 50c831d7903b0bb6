import Foundation
import PopoverFiles
import PopoverHarness

/// `merge-reports`: the reports of a run's shards made into one, as if one machine had
/// run every case: the merged run (see `RunRecord.merge`) with each case's images copied from
/// the shard that judged it.
public enum MergedReport {
    public static func merge(_ shards: [ReportFolder], into output: ReportFolder) throws -> RunRecord {
        var runs: [(source: String, run: RunRecord)] = []
        for shard in shards { runs.append((shard.path, try shard.load())) }
        let merged = try RunRecord.merge(runs)
        var judgedIn: [String: ReportFolder] = [:]
        for (shard, loaded) in zip(shards, runs) {
            for result in loaded.run.results { judgedIn[result.id] = shard }
        }
        let staging = try output.stage()
        do {
            for result in merged.results {
                guard let shard = judgedIn[result.id] else { continue }
                for image in result.artifacts.all {
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

    /// Copies one image, refusing a path that would lead out of either folder, links
    /// included.
    private static func copy(_ relative: String, from source: String, to target: String) throws {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw ReportError.unreadableRun(file: source + "/summary.json",
                                            reason: "the image path \(relative) leads out of the report folder")
        }
        // Nor through a symbolic link out of the shard: its files are read only inside it.
        guard let inside = FilePaths.realPath(source + "/" + relative, inside: source) else {
            throw ReportError.unreadableRun(file: source + "/summary.json",
                                            reason: "the image \(relative) is missing or leads out of the shard's folder")
        }
        let bytes = try FileIO.readBytes(path: inside)
        let destination = target + "/" + relative
        try FileIO.createDirectories(FilePaths.parent(of: destination))
        try FileIO.writeNew(bytes, to: destination)
    }
}
