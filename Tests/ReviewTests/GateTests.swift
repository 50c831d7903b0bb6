import FlyingFox
import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReview
import Synchronization
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

    /// A request as the server hands it to the gate: the target as sent, every header
    /// value kept. This server's Host unless `headers` names one, and a body's length
    /// unless `headers` states one.
    func request(_ method: String, _ target: String, headers: [String: [String]] = [:], body: String = "",
                 host: String = "127.0.0.1:\(port)") -> HTTPRequest {
        request(method, target, headers: headers, bytes: Array(body.utf8), host: host)
    }

    func request(_ method: String, _ target: String, headers: [String: [String]] = [:], bytes: [UInt8],
                 host: String = "127.0.0.1:\(port)") -> HTTPRequest {
        var fields = HTTPHeaders()
        if headers["host"] == nil { fields.addValue(host, for: .host) }
        if !bytes.isEmpty && headers["content-length"] == nil { fields.addValue(String(bytes.count), for: .contentLength) }
        for (name, values) in headers {
            for value in values { fields.addValue(value, for: HTTPHeader(name)) }
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return HTTPRequest(method: HTTPMethod(rawValue: method), version: .http11,
                           target: HTTPRequest.Target(path: String(parts[0]), query: parts.count == 2 ? String(parts[1]) : ""),
                           headers: fields, body: HTTPBodySequence(data: Data(bytes)))
    }

    func text(_ response: HTTPResponse) async -> String {
        String(decoding: (try? await response.bodyData) ?? Data(), as: UTF8.self)
    }

    func acceptBody(_ ids: [String]) -> String {
        "{\"ids\": [" + ids.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
    }

    static let json = ["content-type": ["application/json"]]

    @Test("a request with the token and this server's Host gets the page, and a cookie that can only read")
    func page() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let response = await gate(f).handleRequest(request("GET", "/?token=\(Self.token)"))
        #expect(response.statusCode == .ok)
        let html = await text(response)
        #expect(html.contains("<!DOCTYPE html>"))
        let cookie = try #require(response.headers[.setCookie])
        #expect(cookie == "popover-review-\(Self.port)=\(Self.viewToken); HttpOnly; SameSite=Strict; Path=/")
        #expect(response.headers[HTTPHeader("Referrer-Policy")] == "no-referrer")
        let image = await gate(f).handleRequest(request("GET", "/" + (try f.result(f.failed[0]).artifacts.actual?.path ?? ""),
                                                  headers: ["cookie": ["other=1; popover-review-\(Self.port)=\(Self.viewToken)"]]))
        #expect(image.statusCode == .ok)
        #expect(image.headers[.contentType] == "image/png")
        // What the cookie holds accepts nothing, in the query or in the cookie.
        let golden = f.goldens + "/" + f.failed[0] + ".png"
        let before = try FileIO.readBytes(path: golden)
        let accept = await gate(f).handleRequest(request("POST", "/accept?token=\(Self.viewToken)", headers: Self.json,
                                                   body: acceptBody([f.failed[0]])))
        #expect(accept.statusCode == .forbidden)
        #expect(try FileIO.readBytes(path: golden) == before)
        // The API token in a cookie opens no page either: cookies carry only the view token.
        let pageByAPIToken = await gate(f).handleRequest(request("GET", "/", headers: ["cookie": ["popover-review-\(Self.port)=\(Self.token)"]]))
        #expect(pageByAPIToken.statusCode == .forbidden)
    }


    @Test("the page is rendered from the run, never the report's own index.html; no script or page file is served")
    func pageNotFromDisk() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        // A report that travelled, with a page carrying its own script, and script files.
        let planted = "<!DOCTYPE html><script>fetch('/accept?token='+location.search)</script>PLANTED"
        try FileIO.writeAtomically(Array(planted.utf8), to: f.reports + "/index.html")
        try FileIO.writeAtomically(Array("PLANTED".utf8), to: f.reports + "/cases/evil.js")
        try FileIO.writeAtomically(Array(planted.utf8), to: f.reports + "/cases/evil.html")
        for target in ["/?token=\(Self.token)", "/index.html?token=\(Self.token)"] {
            let page = await gate(f).handleRequest(request("GET", target))
            let html = await text(page)
            #expect(page.statusCode == .ok && html.contains("<!DOCTYPE html>") && !html.contains("PLANTED"), "\(target)")
            #expect(html.contains(f.failed[0]), "the page is the run's")
        }
        for file in ["/cases/evil.js", "/cases/evil.html"] {
            let response = await gate(f).handleRequest(request("GET", file + "?token=\(Self.token)"))
            #expect(response.statusCode == .notFound, "\(file)")
        }
    }

    static let refusals: [(String, Int)] = [
        ("no token", 403), ("wrong token", 403), ("token of another length", 403), ("token only in a cookie for the API", 403),
        ("foreign Host", 421), ("no Host", 421), ("Host on another port", 421),
        ("foreign Origin", 403), ("cross-site fetch", 403), ("PUT", 405), ("GET /accept", 405), ("DELETE /undo", 405),
        ("text/plain body", 415), ("not JSON", 400), ("empty IDs", 400), ("ID not a string", 400),
        ("an ID that is not a case", 400), ("IDs as a string", 400),
        ("traversal", 404), ("encoded traversal", 404), ("hidden file", 404), ("a folder", 404), ("absent file", 404),
        ("the lock beside the report", 404), ("target not a path", 405),
        ("chunked body", 411), ("POST without Content-Length", 411), ("body over the limit", 413),
        ("negative Content-Length", 400), ("Content-Length not a number", 400), ("Content-Length and Transfer-Encoding", 411),
    ]

    func refused(_ label: String, _ f: ReviewFixture) -> HTTPRequest {
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
        case "no Host": return request("GET", "/?token=\(t)", headers: ["host": []])
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
        case "empty IDs": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": []}")
        case "ID not a string": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": [\"\(id)\", 7]}")
        case "an ID that is not a case": return request("POST", "/accept?token=\(t)", headers: Self.json, body: acceptBody([id, "flat/up/nope@1x"]))
        case "IDs as a string": return request("POST", "/accept?token=\(t)", headers: Self.json, body: "{\"ids\": \"\(id)\"}")
        case "traversal": return request("GET", "/cases/../../goldens/\(id).png?token=\(t)")
        case "encoded traversal": return request("GET", "/cases/%2e%2e/%2E%2E/goldens/\(id).png?token=\(t)")
        case "hidden file": return request("GET", "/.secret?token=\(t)")
        case "a folder": return request("GET", "/cases?token=\(t)")
        case "absent file": return request("GET", "/nothing.html?token=\(t)")
        case "the lock beside the report": return request("GET", "/%2e%2e/.reports.lock?token=\(t)")
        case "target not a path": return request("OPTIONS", "*")
        case "chunked body":
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["transfer-encoding": ["chunked"]]) { $1 })
        case "POST without Content-Length": return request("POST", "/accept?token=\(t)", headers: Self.json)
        case "body over the limit":
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["content-length": ["262145"]]) { $1 },
                           body: acceptBody([id]))
        case "negative Content-Length":
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["content-length": ["-1"]]) { $1 }, body: acceptBody([id]))
        case "Content-Length not a number":
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["content-length": ["abc"]]) { $1 }, body: acceptBody([id]))
        default:
            return request("POST", "/accept?token=\(t)", headers: Self.json.merging(["transfer-encoding": ["chunked"]]) { $1 },
                           body: acceptBody([id]))
        }
    }

    /// What `refusal` checks: the status, and nothing changed on disk.
    func expectRefused(_ label: String, _ status: Int, _ make: (ReviewFixture) -> HTTPRequest) async throws {
        let f = try ReviewFixture(label)
        defer { f.folder.remove() }
        try "secret\n".write(toFile: f.reports + "/.secret", atomically: true, encoding: .utf8)
        let goldens = f.allGoldens()
        let summary = try String(contentsOfFile: f.reports + "/summary.json", encoding: .utf8)
        let response = await gate(f).handleRequest(make(f))
        let said = await text(response)
        #expect(response.statusCode.code == status, "\(label): \(said)")
        #expect(f.allGoldens() == goldens, "\(label) changed a golden")
        #expect(try String(contentsOfFile: f.reports + "/summary.json", encoding: .utf8) == summary, "\(label) changed the report")
    }

    @Test("refused with a 4xx, nothing changed", arguments: refusals)
    func refusal(_ label: String, _ status: Int) async throws {
        try await expectRefused(label, status) { refused(label, $0) }
    }

    @Test("the API still reads JSON as JSON: escapes and spacing are fine, and a colon inside an ID is no second key")
    func jsonAsJSON() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let escaped = f.failed[0].replacingOccurrences(of: "/", with: "\\/")
        let spaced = await gate(f).handleRequest(request("POST", "/accept?token=\(Self.token)", headers: Self.json,
                                                   body: "{\n  \"ids\" :\t[ \"\(escaped)\" ]\n}\n"))
        let said = await text(spaced)
        #expect(spaced.statusCode == .ok, "\(said)")
        #expect(try PNGFileReading.decode(f.golden(f.failed[0])) == f.drawn(f.failed[0]))
        // One member whose ID holds a quote and a colon: read as an ID, and not a case.
        let colon = await gate(f).handleRequest(request("POST", "/accept?token=\(Self.token)", headers: Self.json,
                                                  body: #"{"ids": ["a\":\"b"]}"#))
        #expect(colon.statusCode == .badRequest)
        let answer = await text(colon)
        #expect(answer == #"{"error":"not cases of the run being reviewed: a\":\"b"}"#)
    }

    @Test("the page is rendered once for each state of the run's record, however many requests ask; an accept renders it anew")
    func pageRenderedOnce() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let gate = gate(f)
        for _ in 0..<50 {
            #expect(await gate.handleRequest(request("GET", "/?token=\(Self.token)")).statusCode == .ok)
        }
        #expect(gate.pagesRendered == 1)
        let accepted = await gate.handleRequest(request("POST", "/accept?token=\(Self.token)", headers: Self.json,
                                                        body: acceptBody([f.failed[0]])))
        #expect(accepted.statusCode == .ok)
        let page = await text(await gate.handleRequest(request("GET", "/?token=\(Self.token)")))
        #expect(page.contains("accepted since"))
        #expect(gate.pagesRendered == 2)
    }

    @Test("the gate admits exactly the body it reads: its stated length, once the checks before it pass")
    func admission() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let admitted = Mutex<[Int]>([])
        let gate = ReviewGate(desk: f.desk, port: Self.port, token: Self.token, viewToken: Self.viewToken) { length, _ in
            admitted.withLock { $0.append(length) }
        }
        let body = acceptBody([f.failed[0]])
        _ = await gate.handleRequest(request("POST", "/accept?token=\(Self.token)", headers: Self.json, body: body))
        _ = await gate.handleRequest(request("POST", "/accept", headers: Self.json, body: body))
        _ = await gate.handleRequest(request("POST", "/accept?token=\(Self.token)", headers: ["content-length": ["262145"]].merging(Self.json) { $1 }))
        #expect(admitted.withLock { $0 } == [body.utf8.count])
    }

    @Test("percent-encoding in the token and the path is decoded exactly once")
    func decodedOnce() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        // "5" is %35; "%" is %25, so %2535 decoded once is the text "%35", not "5".
        let once = "%35" + Self.token.dropFirst()
        let twice = "%2535" + Self.token.dropFirst()
        #expect(await gate(f).handleRequest(request("GET", "/?token=\(once)")).statusCode == .ok)
        #expect(await gate(f).handleRequest(request("GET", "/?token=\(twice)")).statusCode == .forbidden)
        // The actual image's path with its first letter ("c" of "cases", %63) encoded.
        let path = try #require(try f.result(f.failed[0]).artifacts.actual?.path)
        #expect(path.hasPrefix("cases/"))
        let image = await gate(f).handleRequest(request("GET", "/%63" + path.dropFirst() + "?token=\(Self.token)"))
        #expect(image.statusCode == .ok && image.headers[.contentType] == "image/png")
        let doubly = await gate(f).handleRequest(request("GET", "/%2563" + path.dropFirst() + "?token=\(Self.token)"))
        #expect(doubly.statusCode == .notFound)
    }

    @Test("a symbolic link out of the report folder is not followed")
    func symlinkOut() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: f.reports + "/cases/escape.png",
                                                   withDestinationPath: f.goldens + "/" + f.passed + ".png")
        let response = await gate(f).handleRequest(request("GET", "/cases/escape.png?token=\(Self.token)"))
        #expect(response.statusCode == .notFound)
    }

    @Test("POST /accept and /undo with the token act at once and answer what they did")
    func acceptAndUndo() async throws {
        let f = try ReviewFixture()
        defer { f.folder.remove() }
        let before = f.golden(f.failed[0])
        let origin = ["origin": ["http://127.0.0.1:\(Self.port)"]]
        let accepted = await gate(f).handleRequest(request("POST", "/accept?token=\(Self.token)", headers: Self.json.merging(origin) { $1 },
                                                     body: acceptBody([f.failed[0], f.missing])))
        #expect(accepted.statusCode == .ok)
        let outcome = try JSONDecoder().decode(ReviewOutcome.self, from: try await accepted.bodyData)
        #expect(Set(outcome.accepted) == [f.failed[0], f.missing])
        #expect(try PNGFileReading.decode(f.golden(f.failed[0])) == f.drawn(f.failed[0]))
        let undone = await gate(f).handleRequest(request("POST", "/undo?token=\(Self.token)", headers: Self.json,
                                                   body: acceptBody([f.failed[0]])))
        #expect(undone.statusCode == .ok)
        #expect(f.golden(f.failed[0]) == before)
        // A refusal of one case is a 409 that says why; the others still go ahead.
        try "x".write(toFile: f.goldens + "/" + f.failed[1] + ".png", atomically: true, encoding: .utf8)
        let mixed = await gate(f).handleRequest(request("POST", "/accept?token=\(Self.token)", headers: Self.json,
                                                  body: acceptBody([f.failed[0], f.failed[1]])))
        #expect(mixed.statusCode == .conflict)
        let partial = try JSONDecoder().decode(ReviewOutcome.self, from: try await mixed.bodyData)
        #expect(partial.accepted == [f.failed[0]] && partial.refused.map(\.id) == [f.failed[1]])
    }
}
