import Foundation
import PopoverDiff
import PopoverHarness

/// `junit.xml`: one testcase per case, so CI systems list and count them.
struct JUnitXML: RunReporter {
    var fileName: String? { "junit.xml" }
    func file(_ run: RunRecord) -> [UInt8] { Array(Self.render(run).utf8) }

    static func render(_ run: RunRecord) -> String {
        let failures = run.results.filter { $0.status == .failed || $0.status == .missing }.count
        let errors = run.count(.error)
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="popover-goldens" tests="\(run.results.count)" failures="\(failures)" errors="\(errors)" time="\(String(format: "%.3f", run.seconds))">
        <testsuite name="goldens" tests="\(run.results.count)" failures="\(failures)" errors="\(errors)" skipped="0" time="\(String(format: "%.3f", run.seconds))">

        """
        for r in run.results {
            let c = r.info
            xml += "<testcase classname=\"\(Escape.xmlAttribute("\(c.skin).\(c.direction.rawValue)"))\" name=\"\(Escape.xmlAttribute(c.id))\" time=\"\(String(format: "%.4f", r.seconds))\""
            switch r.status {
            case .passed, .new, .recorded:
                xml += "><system-out>\(Escape.xml(r.message))</system-out></testcase>\n"
            case .failed, .missing:
                xml += "><failure type=\"\(r.status.rawValue)\" message=\"\(Escape.xmlAttribute(r.message))\">\(Escape.xml(details(r)))</failure></testcase>\n"
            case .error:
                xml += "><error type=\"error\" message=\"\(Escape.xmlAttribute(r.message))\"/></testcase>\n"
            }
        }
        for message in run.errors {
            xml += "<testcase classname=\"run\" name=\"\(Escape.xmlAttribute(message))\"><error type=\"run\" message=\"\(Escape.xmlAttribute(message))\"/></testcase>\n"
        }
        xml += "</testsuite>\n</testsuites>\n"
        return xml
    }

    static func details(_ r: CaseResult) -> String {
        var lines = ["golden: \(r.goldenPath)", "tolerance: \(r.tolerance)"]
        if let m = r.metrics {
            lines.append(m.line)
        }
        if let h = r.artifacts.heatmap { lines.append("heatmap: \(h.path)") }
        return lines.joined(separator: "\n")
    }
}
