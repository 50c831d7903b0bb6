import Foundation
import PopoverFiles
import PopoverHarness

/// Writes a run's files: `index.html` for people, `summary.json` and `junit.xml` for
/// machines, `summary.md` for a CI job's summary page.
enum ReportWriter {
    /// Into a staging folder (`atomically: false`: the folder is published whole) or
    /// into a published report (each file replaced atomically).
    static func writeFiles(_ run: RunRecord, into folder: String, reportsFolder: String,
                           atomically: Bool) throws(ReportError) {
        do {
            for (name, bytes) in files(run) {
                if atomically {
                    try FileIO.writeAtomically(bytes, to: folder + "/" + name)
                } else {
                    try FileIO.writeNew(bytes, to: folder + "/" + name)
                }
            }
        } catch {
            throw .io("cannot write the report: \(error)")
        }
    }

    /// The files' names, the record first.
    static let fileNames = ["summary.json", "junit.xml", "index.html", "summary.md"]

    /// The files, by name, the record first.
    static func files(_ run: RunRecord) -> [(name: String, bytes: [UInt8])] {
        [
            ("summary.json", run.encoded()),
            ("junit.xml", Array(JUnitXML.render(run).utf8)),
            ("index.html", Array(ReportPage.render(run).utf8)),
            ("summary.md", Array(SummaryMarkdown.render(run).utf8)),
        ]
    }
}
