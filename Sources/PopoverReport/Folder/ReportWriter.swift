import Foundation
import PopoverFiles
import PopoverHarness

/// Writes a run's files: `index.html` for people, `summary.json` and `junit.xml` for
/// machines, `summary.md` for a CI job's summary page.
enum ReportWriter {
    /// Into a staging folder, which is published whole (a published report's files are
    /// replaced through `ReportFolder.stage` and `publishStaged`).
    static func writeFiles(_ run: RunRecord, into folder: String) throws(ReportError) {
        do {
            for (name, bytes) in files(run) { try FileIO.writeNew(bytes, to: folder + "/" + name) }
        } catch {
            throw .io("cannot write the report: \(error)")
        }
    }

    /// The files' names, the record first.
    static let fileNames = ["summary.json", "junit.xml", "index.html", "summary.md"]

    /// The files, by name, the record first.
    static func files(_ run: RunRecord) -> [(name: String, bytes: [UInt8])] {
        Array(zip(fileNames, [run.encoded(), Array(JUnitXML.render(run).utf8), Array(ReportPage.render(run).utf8),
                              Array(SummaryMarkdown.render(run).utf8)]))
    }
}
