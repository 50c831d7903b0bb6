import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage

/// `merge-reports`: the reports of a run's shards made into one, as if one machine had
/// run every case: the merged run (see `RunRecord.merge`) with each case's images copied from
/// the shard that judged it.
public enum MergedReport {
    /// `verdicts` re-derives each shard's verdicts from this checkout's goldens and
    /// tolerances before anything is merged.
    public static func merge(_ shards: [ReportFolder], into output: ReportFolder,
                             verdicts: ShardVerdicts) throws -> RunRecord {
        var runs: [(source: String, run: RunRecord)] = []
        for shard in shards { runs.append((shard.path, try shard.load())) }
        var merged = try RunRecord.merge(runs)
        let problems = zip(shards, runs).flatMap { shard, loaded in
            verdicts.problems(in: loaded.run, source: shard.path) { result in
                guard let path = result.artifacts.actual?.path, let bytes = try? read(path, from: shard.path) else { return nil }
                return try? PNGFile.decode(bytes, name: shard.path + "/" + path)
            }
        }
        guard problems.isEmpty else { throw MergeRefusal.verdictsDoNotAddUp(problems: problems) }
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
            // The merged run's worst cases may be a shard's lesser ones: they get their
            // triptychs here, from the copied images.
            try output.publish(&merged, from: staging)
        } catch {
            staging.discard()
            throw error
        }
        return merged
    }

    /// Copies one image, refusing a path that would lead out of either folder, links
    /// included.
    private static func copy(_ relative: String, from source: String, to target: String) throws {
        let bytes = try read(relative, from: source)
        let destination = target + "/" + relative
        try FileIO.createDirectories(FilePaths.parent(of: destination))
        try FileIO.writeNew(bytes, to: destination)
    }

    /// A file of a shard, read only inside it.
    private static func read(_ relative: String, from source: String) throws -> [UInt8] {
        switch FilePaths.file(relative, inside: source) {
        case .found(let inside): return try FileIO.readBytes(path: inside)
        case .notPlain:
            throw ReportError.unreadableRun(file: source + "/summary.json",
                                            reason: "the image path \(relative) leads out of the report folder")
        case .missingOrOutside:
            throw ReportError.unreadableRun(file: source + "/summary.json",
                                            reason: "the image \(relative) is missing or leads out of the shard's folder")
        }
    }
}
