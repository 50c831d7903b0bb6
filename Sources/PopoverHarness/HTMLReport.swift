import Foundation

/// `index.html`: the page a person opens after a red run.
enum HTMLReport {
    static func render(_ run: CheckRun) -> String {
        var rows = ""
        for r in run.results where r.status != .passed {
            rows += "<tr><td>\(JUnitXML.escape(r.id))</td><td>\(r.status.rawValue)</td><td>\(JUnitXML.escape(r.message))</td></tr>\n"
        }
        return """
        <!doctype html><html><head><meta charset="utf-8"><title>popover-goldens report</title></head><body>
        <h1>popover-goldens</h1><p>\(run.count(.passed)) passed, \(run.count(.failed)) failed</p>
        <table>\(rows)</table></body></html>
        """
    }
}
