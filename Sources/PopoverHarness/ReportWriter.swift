import Foundation
import PopoverImage

/// Writes a run's report: `index.html` (for people), `summary.json` and `junit.xml`
/// (for machines), with the cases' images beside them.
enum ReportWriter {
    /// Stages and publishes the report; returns the path of its index.html.
    static func write(_ run: CheckRun, staging: ReportStaging) throws -> String {
        do {
            // Thumbnails go into the staging folder with the cases' images, so they are
            // published (and replaced) together.
            let images = ReportImages.prepare(run, folder: staging.folder) { image, id in
                staging.save(image, for: id, as: "thumbnail")
            }
            try staging.write(SummaryJSON.encode(run), to: "summary.json")
            try staging.write(Array(JUnitXML.render(run).utf8), to: "junit.xml")
            try staging.write(Array(HTMLReport.render(run, images: images).utf8), to: "index.html")
            try staging.publish()
        } catch {
            staging.discard()
            throw error
        }
        return run.reportsFolder + "/index.html"
    }
}

extension CheckRun {
    /// Writes the report of a run built by hand (tests of the report, tools that
    /// re-render a run) into `reportsFolder`, as a check would: `images` are each case's
    /// pictures by ID and kind ("expected", "actual", "heatmap"), saved beside the page
    /// and recorded as the case's artifacts. Returns the path of index.html and sets
    /// `reportPath`.
    @discardableResult
    public mutating func writeReport(images: [String: [String: RGBAImage]] = [:]) throws -> String {
        let staging = ReportStaging(reportsFolder: reportsFolder, enabled: true)
        for i in results.indices {
            let id = results[i].id
            for (kind, image) in images[id] ?? [:] {
                let path = staging.save(image, for: id, as: kind)
                switch kind {
                case "expected": results[i].artifacts.expected = path
                case "actual": results[i].artifacts.actual = path
                case "heatmap": results[i].artifacts.heatmap = path
                default: break
                }
            }
        }
        let path = try ReportWriter.write(self, staging: staging)
        reportPath = path
        return path
    }
}
