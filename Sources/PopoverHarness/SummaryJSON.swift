import Foundation
import PopoverDiff

/// `summary.json`: every case with its status and metrics, for scripts and dashboards.
enum SummaryJSON {
    struct Document: Encodable {
        var started: String
        var seconds: Double
        var recordMode: String
        var filter: String?
        var tolerance: String
        var goldens: String
        var jobs: Int
        /// What the check exits with: 0 passed, 1 a case failed or lacks its golden, 2 errors.
        var exitCode: Int32
        /// Cases by status (`passed`, `failed`, `missing`, `new`, `recorded`, `error`), plus
        /// `total`, `orphaned` (goldens no case owns), `pruned` and `runErrors` (problems
        /// that are not one case's, listed in `errors`).
        var counts: [String: Int]
        var orphans: [String]
        var pruned: [String]
        var errors: [String]
        var cases: [Case]
    }

    struct Case: Encodable {
        var id: String
        var skin: String
        var direction: String
        var scale: Int
        var family: String
        var anchor: String?
        var orientation: String?
        var sweepSize: String?
        var offset: Double
        var keyboardTime: Double?
        var status: String
        var message: String
        var tolerance: String
        var golden: String
        var matchedByDigest: Bool
        var width: Int
        var height: Int
        var metrics: ComparisonMetrics?
        var images: CaseArtifacts
        /// Time spent drawing and judging the case.
        var seconds: Double
    }

    static func document(_ run: CheckRun) -> Document {
        var counts = Dictionary(uniqueKeysWithValues: CaseStatus.allCases.map { ($0.rawValue, run.count($0)) })
        counts["orphaned"] = run.orphans.count
        counts["total"] = run.results.count
        counts["pruned"] = run.pruned.count
        counts["runErrors"] = run.errors.count
        return Document(
            started: ISO8601DateFormatter().string(from: run.started), seconds: run.seconds,
            recordMode: run.recordMode.rawValue, filter: run.filter, tolerance: run.tolerance,
            goldens: run.goldensFolder, jobs: run.jobs, exitCode: run.exitCode, counts: counts, orphans: run.orphans, pruned: run.pruned,
            errors: run.errors,
            cases: run.results.map { r in
                let c = r.goldenCase
                return Case(id: c.id, skin: c.skinID, direction: c.direction.rawValue, scale: c.scale,
                            family: c.family.rawValue, anchor: c.anchor, orientation: c.orientation?.rawValue,
                            sweepSize: c.sweepSize, offset: c.offset, keyboardTime: c.keyboardTime,
                            status: r.status.rawValue, message: r.message, tolerance: r.tolerance,
                            golden: r.goldenPath, matchedByDigest: r.matchedByDigest, width: r.width,
                            height: r.height, metrics: r.metrics, images: r.artifacts, seconds: r.seconds)
            })
    }

    static func encode(_ run: CheckRun) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Encoding plain values cannot fail.
        return [UInt8]((try? encoder.encode(document(run))) ?? Data()) + [10]
    }
}

/// `junit.xml`: one testcase per case, so CI systems list and count them.
enum JUnitXML {
    static func render(_ run: CheckRun) -> String {
        let failures = run.results.filter { $0.status == .failed || $0.status == .missing }.count
        let errors = run.count(.error)
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="popover-goldens" tests="\(run.results.count)" failures="\(failures)" errors="\(errors)" time="\(String(format: "%.3f", run.seconds))">
        <testsuite name="goldens" tests="\(run.results.count)" failures="\(failures)" errors="\(errors)" skipped="0" time="\(String(format: "%.3f", run.seconds))">

        """
        for r in run.results {
            let c = r.goldenCase
            xml += "<testcase classname=\"\(escape("\(c.skinID).\(c.direction.rawValue)"))\" name=\"\(escape(c.id))\" time=\"\(String(format: "%.4f", r.seconds))\""
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
            lines.append("differentPixels \(m.differentPixels), maxChannelDelta \(m.maxChannelDelta), "
                + "meanAbsoluteError \(String(format: "%.4f", m.meanAbsoluteError)), psnr \(m.psnr.map { String(format: "%.2f", $0) } ?? "inf")")
        }
        if let h = r.artifacts.heatmap { lines.append("heatmap: \(h)") }
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
