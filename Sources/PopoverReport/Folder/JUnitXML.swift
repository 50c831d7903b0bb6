import Foundation
import PopoverDiff
import PopoverHarness

/// `junit.xml`: one testcase per case, so CI systems list and count them.
enum JUnitXML {
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
            xml += "<testcase classname=\"\(escape("\(c.skin).\(c.direction.rawValue)"))\" name=\"\(escape(c.id))\" time=\"\(String(format: "%.4f", r.seconds))\""
            switch r.status {
            case .passed, .new, .recorded:
                xml += "><system-out>\(escape(r.message))</system-out></testcase>\n"
            case .failed, .missing:
                xml += "><failure type=\"\(r.status.rawValue)\" message=\"\(escape(r.message))\">\(escape(details(r)))</failure></testcase>\n"
            case .error:
                xml += "><error type=\"error\" message=\"\(escape(r.message))\"/></testcase>\n"
            }
        }
        for message in run.errors {
            xml += "<testcase classname=\"run\" name=\"\(escape(message))\"><error type=\"run\" message=\"\(escape(message))\"/></testcase>\n"
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

    /// XML-escapes text for both element content and double-quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(ch)
            default:
                // Control characters are not allowed in XML 1.0.
                if ch.value < 0x20 { out += "?" } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}
