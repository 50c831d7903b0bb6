import Foundation
import PopoverImage

/// Writes a run's report: `index.html` (for people), `summary.json` and `junit.xml`
/// (for machines), with the cases' images beside them.
enum ReportWriter {
    /// Stages and publishes the report; returns the path of its index.html.
    static func write(_ run: CheckRun, staging: ReportStaging) throws -> String {
        do {
            try staging.write(SummaryJSON.encode(run), to: "summary.json")
            try staging.write(Array(JUnitXML.render(run).utf8), to: "junit.xml")
            try staging.write(Array(HTMLReport.render(run).utf8), to: "index.html")
            try staging.publish()
        } catch {
            staging.discard()
            throw error
        }
        return run.reportsFolder + "/index.html"
    }
}
