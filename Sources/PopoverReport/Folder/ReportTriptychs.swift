import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import PopoverRaster

/// Triptychs (`<name>.triptych.png`: expected | difference | actual) for the failing cases
/// a person meets first: the worst ones, in the order summary.md and the annotations list
/// them, at most `made` of them, so every case summary.md's table shows has one.
///
/// Why after the run, from the report's own files, and not for every failing case: a
/// triptych holds about as many pixels as the case's other images together, so one for
/// each of 2080 failing cases doubled the cost of the run's report, for pictures nobody
/// opens 2000 of (the report page shows every case). Made from the files, they are a view
/// of the run like the page: the same for a single run, a shard and a merged report.
enum ReportTriptychs {
    /// The worst failing cases given a triptych: summary.md's table of worst cases.
    static let made = SummaryMarkdown.worstCasesShown

    /// Draws the triptychs of `run`'s worst failing cases from the images in `folder`
    /// and records them in the cases' artifacts; a case whose images cannot be read gets
    /// none (its page entry says what is missing; the verdict stands).
    static func add(to run: inout RunRecord, in folder: String, jobs: Int) {
        // Cases that already have one (a shard's, in a merged report) keep it.
        let chosen = SummaryMarkdown.worstFailures(run).filter(canHaveTriptych).prefix(made)
            .filter { $0.artifacts.triptych == nil }.map(\.id)
        let index = Dictionary(uniqueKeysWithValues: run.results.enumerated().map { ($1.id, $0) })
        let cases = chosen.compactMap { index[$0].map { (position: $0, result: run.results[$0]) } }
        let drawn = parallelMap(cases, jobs: jobs) { triptych(of: $0.result, in: folder) }
        for (c, saved) in zip(cases, drawn) where saved != nil { run.results[c.position].artifacts.triptych = saved }
    }

    /// A failing case with both pictures saved, and either a heatmap or pictures of
    /// different sizes (then the middle pane stays blank and says why).
    static func canHaveTriptych(_ r: CaseResult) -> Bool {
        guard r.status.isFailure, let expected = r.artifacts.expected,
              let actual = r.artifacts.actual else { return false }
        return r.artifacts.heatmap != nil || expected.width != actual.width || expected.height != actual.height
    }

    private static func triptych(of r: CaseResult, in folder: String) -> SavedImage? {
        func picture(_ saved: SavedImage?) -> RGBAImage? {
            guard let saved, case .found(let path) = FilePaths.file(saved.path, inside: folder) else { return nil }
            return try? PNGFile.read(path: path)
        }
        guard let expected = picture(r.artifacts.expected), let actual = picture(r.artifacts.actual) else { return nil }
        let difference = picture(r.artifacts.heatmap)
        guard difference != nil || r.artifacts.heatmap == nil else { return nil }
        let image = Triptych.render(expected: expected, difference: difference, actual: actual)
        let relative = "cases/" + r.id + ".triptych.png"
        guard (try? FileIO.writeNew(PNGFile.encode(image, compression: .fast), to: folder + "/" + relative)) != nil else {
            return nil
        }
        return SavedImage(path: relative, width: image.width, height: image.height, digest: nil)
    }
}
