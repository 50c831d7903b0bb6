import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReview
import Testing
import TestSupport

/// The review server's decisions, request by request: everything that is not exactly
/// what it expects is refused with a 4xx and changes nothing on disk.
@Suite("The review server's gate")
struct GateTests {
    static let port = 40123
    static let token = String(repeating: "5e", count: 32)
    static let viewToken = String(repeating: "7a", count: 32)

    func gate(_ f: ReviewFixture) -> ReviewGate {
        ReviewGate(desk: f.desk, port: Self.port, token: Self.token, viewToken: Self.viewToken)
    }

    func request(_ method: String, _ target: String, headers: [String: [String]] = [:], body: String = "",
                 host: String = "127.0.0.1:\(port)") -> ReviewRequest {
        var all = headers
        if all["host"] == nil { all["host"] = [host] }
        return ReviewRequest(method: method, target: target, headers: all, body: Array(body.utf8))
    }

    func acceptBody(_ ids: [String]) -> String {
        "{\"ids\": [" + ids.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
    }

    static let json = ["content-type": ["application/json"]]

    @Test("a request with the token and this server's Host gets the page, and a cookie that can only read")
    func page() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let response = gate(f).respond(request("GET", "/?token=\(Self.token)"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("<!DOCTYPE html>"))
        let cookie = try #require(response.headers.first { $0.0 == "Set-Cookie" }?.1)
        #expect(cookie == "popover-review-\(Self.port)=\(Self.viewToken); HttpOnly; SameSite=Strict; Path=/")
        #expect(response.headers.contains { $0.0 == "Referrer-Policy" && $0.1 == "no-referrer" })
        let image = gate(f).respond(request("GET", "/" + (try f.result(f.failed[0]).artifacts.actual?.path ?? ""),
                                            headers: ["cookie": ["other=1; popover-review-\(Self.port)=\(Self.viewToken)"]]))
        #expect(image.status == 200)
        #expect(image.headers.contains { $0 == ("Content-Type", "image/png") })
        // What the cookie holds accepts nothing, in the query or in the cookie.
        let golden = f.goldens + "/" + f.failed[0] + ".png"
        let before = try FileIO.readBytes(path: golden)
        let accept = gate(f).respond(request("POST", "/accept?token=\(Self.viewToken)", headers: Self.json, body: acceptBody([f.failed[0]])))
        #expect(accept.status == 403)
        #expect(try FileIO.readBytes(path: golden) == before)
        // The API token in a cookie opens no page either: cookies carry only the view token.
        let pageByAPIToken = gate(f).respond(request("GET", "/", headers: ["cookie": ["popover-review-\(Self.port)=\(Self.token)"]]))
        #expect(pageByAPIToken.status == 403)
    }


    @Test("the page is rendered from the run, never the report's own index.html; no script or page file is served")
    func pageNotFromDisk() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        // A report that travelled, with a page carrying its own script, and script files.
        let planted = "<!DOCTYPE html><script>fetch('/accept?token='+location.search)</script>PLANTED"
        try FileIO.writeAtomically(Array(planted.utf8), to: f.reports + "/index.html")
        try FileIO.writeAtomically(Array("PLANTED".utf8), to: f.reports + "/cases/evil.js")
        try FileIO.writeAtomically(Array(planted.utf8), to: f.reports + "/cases/evil.html")
        for target in ["/?token=\(Self.token)", "/index.html?token=\(Self.token)"] {
            let page = gate(f).respond(request("GET", target))
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200 && html.contains("<!DOCTYPE html>") && !html.contains("PLANTED"), "\(target)")
            #expect(html.contains(f.failed[0]), "the page is the run's")
        }
        for file in ["/cases/evil.js", "/cases/evil.html"] {
            #expect(gate(f).respond(request("GET", file + "?token=\(Self.token)")).status == 404, "\(file)")
        }
    }

    static let refusals: [(String, Int)] = [
        ("no token", 403), ("wrong token", 403), ("token of another length", 403), ("token only in a cookie for the API", 403),
        ("foreign Host", 421), ("no Host", 421), ("two Hosts", 421), ("Host on another port", 421),
        ("foreign Origin", 403), ("cross-site fetch", 403), ("PUT", 405), ("GET /accept", 405), ("DELETE /undo", 405),
        ("text/plain body", 415), ("not JSON", 400), ("extra key", 400), ("empty IDs", 400), ("ID not a string", 400),
        ("an ID that is not a case", 400), ("IDs as a string", 400), ("token given twice", 400),
        ("traversal", 404), ("encoded traversal", 404), ("hidden file", 404), ("a folder", 404), ("absent file", 404),
        ("the lock beside the report", 404),
    ]

    func refused(_ label: String, _ f: ReviewFixture) -> ReviewRequest {
        let id = f.failed[0]
        let t = Self.token
        switch label {
        case "no token": return request("POST", "/accept", headers: Self.json, body: acceptBody([id]))
        case "wrong token": return request("POST", "/accept?token=" + String(repeating: "5f", count: 32), headers: Self.json, body: acceptBody([id]))
        case "token of another length": return request("POST", "/accept?token=5e", headers: Self.json, body: acceptBody([id]))
        case "token only in a cookie for the API":
            return request("POST", "/accept", headers: Self.json.merging(["cookie": ["popover-review-\(Self.port)=\(Self.viewToken)"]]) { $1 },
                           body: acceptBody([id]))
        case "foreign Host": return request("POST", "/accept?token=\(t)", headers: Self.json, body: acceptBody([id]), host: "evil.example:\(Self.port)")
        case "no Host": return ReviewRequest(method: "GET", target: "/?token=\(t)", headers: [:])
        case "two Hosts": return request("GET", "/?token=\(t)", headers: ["host": ["127.0.0.1:\(Self.port)", "evil.example"]])
        case "Host on another port": return request("GET", "/?token=\(t)", host: "127.0.0.1:\(Self.port + 1)")
        case "foreign Origin":
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["origin": ["http://evil.example"]]) { $1 }, body: acceptBody([id]))
        case "cross-site fetch":
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["sec-fetch-site": ["cross-site"]]) { $1 }, body: acceptBody([id]))
        case "PUT": return request("PUT", "/accept?token=\(t)", headers: Self.json, body: acceptBody([id]))
        case "GET /accept": return request("GET", "/accept?token=\(t)")
        case "DELETE /undo": return request("DELETE", "/undo?token=\(t)")
        case "text/plain body": return request("POST", "/accept?token=\(t)", headers: ["content-type": ["text/plain"]], body: acceptBody([id]))
        case "not JSON": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "ids=\(id)")
        case "extra key": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": [\"\(id)\"], \"force\": true}")
        case "empty IDs": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": []}")
        case "ID not a string": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": [\"\(id)\", 7]}")
        case "an ID that is not a case": return request("POST", "/accept?token=\(t)", headers: Self.json, body: acceptBody([id, "flat/up/nope@1x"]))
        case "IDs as a string": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": \"\(id)\"}")
        case "token given twice": return request("POST", "/accept?token=\(t)&token=\(t)", headers: Self.json, body: acceptBody([id]))
        case "traversal": return request("GET", "/cases/../../goldens/\(id).png?token=\(t)")
        case "encoded traversal": return request("GET", "/cases/%2e%2e/%2E%2E/goldens/\(id).png?token=\(t)")
        case "hidden file": return request("GET", "/.secret?token=\(t)")
        case "a folder": return request("GET", "/cases?token=\(t)")
        case "absent file": return request("GET", "/nothing.html?token=\(t)")
        default: return request("GET", "/%2e%2e/.reports.lock?token=\(t)")
        }
    }

    @Test("refused with a 4xx, nothing changed", arguments: refusals)
    func refusal(_ label: String, _ status: Int) throws {
        let f = try ReviewFixture(label)
        defer { f.folder.remove() }
        try "secret\n".write(toFile: f.reports + "/.secret", atomically: true, encoding: .utf8)
        let goldens = f.allGoldens()
        let summary = try String(contentsOfFile: f.reports + "/summary.json", encoding: .utf8)
        let response = gate(f).respond(refused(label, f))
        #expect(response.status == status, "\(label): \(String(decoding: response.body, as: UTF8.self))")
        #expect(f.allGoldens() == goldens, "\(label) changed a golden")
        #expect(try String(contentsOfFile: f.reports + "/summary.json", encoding: .utf8) == summary, "\(label) changed the report")
    }

    @Test("a symbolic link out of the report folder is not followed")
    func symlinkOut() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: f.reports + "/cases/escape.png",
                                                   withDestinationPath: f.goldens + "/" + f.passed + ".png")
        #expect(gate(f).respond(request("GET", "/cases/escape.png?token=\(Self.token)")).status == 404)
    }

    @Test("POST /accept and /undo with the token act at once and answer what they did")
    func acceptAndUndo() throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let before = f.golden(f.failed[0])
        let origin = ["origin": ["http://127.0.0.1:\(Self.port)"]]
        let accepted = gate(f).respond(request("POST", "/accept?token=\(Self.token)", headers: Self.json.merging(origin) { $1 },
                                               body: acceptBody([f.failed[0], f.missing])))
        #expect(accepted.status == 200)
        let outcome = try JSONDecoder().decode(ReviewOutcome.self, from: Data(accepted.body))
        #expect(Set(outcome.accepted) == [f.failed[0], f.missing])
        #expect(try PNGFileReading.decode(f.golden(f.failed[0])) == f.drawn(f.failed[0]))
        let undone = gate(f).respond(request("POST", "/undo?token=\(Self.token)", headers: Self.json,
                                             body: acceptBody([f.failed[0]])))
        #expect(undone.status == 200)
        #expect(f.golden(f.failed[0]) == before)
        // A refusal of one case is a 409 that says why; the others still go ahead.
        try "x".write(toFile: f.goldens + "/" + f.failed[1] + ".png", atomically: true, encoding: .utf8)
        let mixed = gate(f).respond(request("POST", "/accept?token=\(Self.token)", headers: Self.json,
                                            body: acceptBody([f.failed[0], f.failed[1]])))
        #expect(mixed.status == 409)
        let partial = try JSONDecoder().decode(ReviewOutcome.self, from: Data(mixed.body))
        #expect(partial.accepted == [f.failed[0]] && partial.refused.map(\.id) == [f.failed[1]])
    }
}
