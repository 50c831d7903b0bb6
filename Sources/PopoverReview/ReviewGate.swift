import Foundation
import PopoverHarness
import PopoverReport

/// One HTTP request as the review server sees it: what arrived, nothing interpreted yet.
public struct ReviewRequest: Sendable {
    public var method: String
    /// The request target as sent: path and query, still percent-encoded.
    public var target: String
    /// Header values by lower-cased name, every value a repeated header had.
    public var headers: [String: [String]]
    public var body: [UInt8]

    public init(method: String, target: String, headers: [String: [String]], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }
}

public struct ReviewResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
}

/// Everything the review server decides, without sockets: which requests it trusts, what
/// they may do, and the answers. Anything that is not one of the few things it expects is
/// refused with a 4xx and changes nothing:
///
/// - `Host` must be this server's loopback address and port (so a page of another site,
///   with a DNS name pointed at 127.0.0.1, cannot talk to it), and an `Origin`, when a
///   browser sends one, must be this server too;
/// - every request must carry the token printed at start-up: `POST /accept?token=…` and
///   `POST /undo?token=…` in the query; pages and images in the query or in the cookie
///   the first page load sets (HttpOnly, SameSite=Strict). The cookie holds a second
///   token that can only read: browsers send a 127.0.0.1 cookie to every port of it, so
///   another local program may see that one, and it accepts nothing;
/// - the API takes only `POST` with `Content-Type: application/json` and a body of
///   exactly `{"ids": ["case/id", …]}`, every ID a case of the run being reviewed;
/// - files are served only from the report folder: no `..`, no hidden names, nothing a
///   symbolic link leads out to.
public struct ReviewGate: Sendable {
    public let desk: ReviewDesk
    public let port: Int
    public let token: String
    /// The cookie's token: pages and images only.
    public let viewToken: String
    public let files: ReportFiles

    public init(desk: ReviewDesk, port: Int, token: String, viewToken: String = ReviewServer.freshToken()) {
        self.desk = desk
        self.port = port
        self.token = token
        self.viewToken = viewToken
        files = ReportFiles(folder: desk.report.path)
    }

    /// Named for the port, so two review servers' cookies do not overwrite each other.
    var cookieName: String { "popover-review-\(port)" }
    static let maximumBody = 256 * 1024

    public func respond(_ request: ReviewRequest) -> ReviewResponse {
        let hosts = request.headers["host"] ?? []
        guard hosts.count == 1, isThisServer(hosts[0], scheme: nil) else {
            return .text(421, "refused: the Host must be this review server (127.0.0.1:\(port))")
        }
        if let origins = request.headers["origin"] {
            guard origins.count == 1, isThisServer(origins[0], scheme: "http://") else {
                return .text(403, "refused: requests from other sites are not accepted")
            }
        }
        if request.headers["sec-fetch-site"]?.contains("cross-site") == true {
            return .text(403, "refused: requests from other sites are not accepted")
        }
        guard let (path, query) = Self.split(request.target) else { return .text(400, "refused: not a path") }
        let queryToken = query["token"]
        if path == "/accept" || path == "/undo" {
            guard request.method == "POST" else {
                return ReviewResponse(status: 405, headers: [("Allow", "POST"), ("Content-Type", "text/plain; charset=utf-8")],
                                      body: Array("refused: \(path) takes POST only\n".utf8))
            }
            guard let queryToken, Self.same(queryToken, token) else { return .text(403, "refused: missing or wrong token") }
            return callAPI(path, request)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return ReviewResponse(status: 405, headers: [("Allow", "GET, HEAD"), ("Content-Type", "text/plain; charset=utf-8")],
                                  body: Array("refused: \(request.method) is not served here\n".utf8))
        }
        let cookieToken = Self.cookie(cookieName, in: request.headers["cookie"] ?? [])
        let trusted = queryToken.map { Self.same($0, token) } ?? cookieToken.map { Self.same($0, viewToken) } ?? false
        guard trusted else {
            return .text(403, "refused: open the address popover-goldens review printed (it holds the token)")
        }
        var response: ReviewResponse
        if path == "/" || path == "/index.html" {
            // Rendered from the checked run, never the index.html on disk (a report from
            // elsewhere could carry a script that accepts on its own).
            do {
                response = ReportFiles.page(ReportPage.render(try desk.load()), headOnly: request.method == "HEAD")
            } catch {
                return .text(409, "the report cannot be read: \(error)")
            }
        } else {
            response = files.serve(path, headOnly: request.method == "HEAD")
        }
        if queryToken != nil {
            response.headers.append(("Set-Cookie", "\(cookieName)=\(viewToken); HttpOnly; SameSite=Strict; Path=/"))
        }
        return response
    }

    /// `{"ids": [...]}` applied through the desk.
    private func callAPI(_ path: String, _ request: ReviewRequest) -> ReviewResponse {
        let type = (request.headers["content-type"]?.first ?? "").lowercased()
        guard type == "application/json" || type.hasPrefix("application/json;") else {
            return .text(415, "refused: the body must be application/json")
        }
        guard request.body.count <= Self.maximumBody else { return .text(413, "refused: the body is too large") }
        guard let ids = Self.ids(request.body) else {
            return .text(400, #"refused: the body must be exactly {"ids": ["case/id", ...]} with at least one ID"#)
        }
        do {
            let run = try desk.load()
            let known = Set(run.results.map(\.id))
            let unknown = ids.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                return .json(400, ["error": "not cases of the run being reviewed: \(unknown.prefix(5).joined(separator: ", "))"])
            }
            let outcome = path == "/accept" ? try desk.accept(.exactly(ids)) : try desk.undo(.exactly(ids))
            return .json(outcome.refused.isEmpty ? 200 : 409, outcome)
        } catch {
            return .json(409, ["error": "\(error)"])
        }
    }

    // MARK: Pieces

    func isThisServer(_ value: String, scheme: String?) -> Bool {
        let names = ["127.0.0.1:\(port)", "localhost:\(port)"]
        let lowered = value.lowercased()
        return names.contains { (scheme ?? "") + $0 == lowered }
    }

    /// A constant-time comparison, so the token cannot be guessed a character at a time.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The path and the query's parameters of a request target, or nil if it is not an
    /// origin-form target ("/..."). A parameter given twice is refused (nil).
    static func split(_ target: String) -> (path: String, query: [String: String])? {
        guard target.hasPrefix("/"), !target.contains("#") else { return nil }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = String(kv[0]).removingPercentEncoding, query[name] == nil else { return nil }
                query[name] = kv.count == 2 ? String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
            }
        }
        return (String(parts[0]), query)
    }

    static func cookie(_ name: String, in headers: [String]) -> String? {
        for header in headers {
            for part in header.split(separator: ";") {
                let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if kv.count == 2 && kv[0] == name { return String(kv[1]) }
            }
        }
        return nil
    }

    /// The IDs of a body that is exactly `{"ids": [non-empty strings]}`.
    static func ids(_ body: [UInt8]) -> [String]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              object.count == 1, let list = object["ids"] as? [Any], !list.isEmpty else { return nil }
        let ids = list.compactMap { $0 as? String }
        guard ids.count == list.count, ids.allSatisfy({ !$0.isEmpty }) else { return nil }
        return ids
    }
}

extension ReviewResponse {
    static func text(_ status: Int, _ message: String) -> ReviewResponse {
        ReviewResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
                       body: Array((message + "\n").utf8))
    }

    static func json(_ status: Int, _ value: some Encodable) -> ReviewResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map { [UInt8]($0) } ?? Array("{}".utf8)
        return ReviewResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                              body: body)
    }
}
