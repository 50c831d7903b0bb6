import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Synchronization

/// `merge-reports`: the reports of a run's shards made into one, as if one machine had
/// run every case: the merged run (see `RunRecord.merge`), its verdicts re-derived
/// (`ShardVerdicts`), and its pictures drawn here from what the merge verified, never
/// copied from a shard: each case's expected image is this checkout's golden file, its
/// actual image the shard's decoded and found to be the pixels the case drew (encoded
/// again here), its heatmap and thumbnail drawn here from the two, as a check draws them.
public enum MergedReport {
    /// `verdicts` re-derives each shard's verdicts from this checkout's goldens and
    /// tolerances; nothing is published unless every one adds up. `output` must be able to
    /// take a report and must not be, or hold, one of the shards.
    public static func merge(_ shards: [ReportFolder], into output: ReportFolder,
                             verdicts: ShardVerdicts) throws -> ReportedRun {
        try output.checkCanTakeReport()
        try refuseOverlap(of: output, with: shards)
        var runs: [(source: String, run: RunRecord)] = []
        for shard in shards { runs.append((shard.path, try shard.load())) }
        var merged = try RunRecord.merge(runs)
        let staging = try output.stage()
        do {
            let kept = Mutex<[String: CaseArtifacts]>([:])
            var problems: [String] = []
            for (shard, loaded) in zip(shards, runs) {
                problems += verdicts.problems(in: loaded.run, source: shard.path,
                                              actualImage: { try actualImage(of: $0, in: shard.path) },
                                              keep: { result, images in
                                                  let artifacts = staging.keep(images, of: result.info)
                                                  kept.withLock { $0[result.id] = artifacts }
                                              })
            }
            guard problems.isEmpty else { throw MergeRefusal.verdictsDoNotAddUp(problems: problems) }
            let artifacts = kept.withLock { $0 }
            for i in merged.results.indices {
                merged.results[i].artifacts = artifacts[merged.results[i].id] ?? CaseArtifacts()
            }
            // Triptychs for the merged run's worst cases, from the pictures drawn here.
            let report = try output.publish(&merged, from: staging)
            return ReportedRun(run: merged, report: report)
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Refuses an output folder that is one of the shards, or holds one: publishing would
    /// replace it with the merge it was read for.
    private static func refuseOverlap(of output: ReportFolder, with shards: [ReportFolder]) throws(ReportError) {
        guard let target = FilePaths.realPath(output.path) else { return }
        for shard in shards {
            guard let source = FilePaths.realPath(shard.path) else { continue }
            if source == target || source.hasPrefix(target.hasSuffix("/") ? target : target + "/") {
                throw .notAReportFolder(folder: output.path, reason: "is \(source == target ? "" : "a folder holding ")"
                    + "the shard \(shard.path) being merged; publishing would replace it: name another folder (--out)")
            }
        }
    }

    /// The shard's saved actual image of `result`, decoded; nil when it has none. Read
    /// only inside the shard's folder, as a regular file.
    private static func actualImage(of result: CaseResult, in shard: String) throws -> RGBAImage? {
        guard let relative = result.artifacts.actual?.path else { return nil }
        switch FilePaths.file(relative, inside: shard) {
        case .found(let inside):
            return try PNGFile.decode(try FileIO.readBytes(path: inside), name: shard + "/" + relative)
        case .notPlain:
            throw ReportError.unreadableRun(file: shard + "/summary.json",
                                            reason: "the image path \(relative) leads out of the report folder")
        case .missingOrOutside:
            throw ReportError.unreadableRun(file: shard + "/summary.json",
                                            reason: "the image \(relative) is missing or leads out of the shard's folder")
        }
    }
}
