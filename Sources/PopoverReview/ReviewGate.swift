import FlyingFox
import Foundation
import PopoverHarness
import PopoverReport

/// Everything the review server decides, without sockets: which requests it trusts, what
/// they may do, and the answers. Requests arrive as FlyingFox's `HTTPRequest` (its target
/// split into path and query, every value of a repeated header kept) and are answered with
/// its `HTTPResponse`. Anything that is not one of the few things the gate expects is
/// refused with a 4xx and changes nothing:
///
/// - a header the gate reads (`Host`, `Origin`, `Sec-Fetch-Site`, `Cookie`, `Content-Type`,
///   `Content-Length`, `Transfer-Encoding`) must come at most once, and a query parameter
///   too: given twice, a check could read one and the action the other;
/// - `Host` must be this server's loopback address and port (so a page of another site,
///   with a DNS name pointed at 127.0.0.1, cannot talk to it), and an `Origin`, when a
///   browser sends one, must be this server too;
/// - a body is read only when its `Content-Length` states it, as plain digits, and it is
///   small; a chunked body is never read;
/// - every request must carry the token printed at start-up: `POST /accept?token=…` and
///   `POST /undo?token=…` in the query; pages and images in the query or in the cookie
///   the first page load sets (HttpOnly, SameSite=Strict). The cookie holds a second
///   token that can only read: browsers send a 127.0.0.1 cookie to every port of it, so
///   another local program may see that one, and it accepts nothing;
/// - the API takes only `POST` with `Content-Type: application/json` and a body of
///   exactly `{"ids": ["case/id", …]}` in UTF-8, every ID a case of the run being reviewed;
/// - files are served only from the report folder: no `..`, no hidden names, nothing a
///   symbolic link leads out to.
public struct ReviewGate: Sendable {
    public let desk: ReviewDesk
    public let port: Int
    public let token: String
    /// The cookie's token: pages and images only.
    public let viewToken: String
    public let files: ReportFiles
    private var routes = RoutedHTTPHandler()

    public init(desk: ReviewDesk, port: Int, token: String, viewToken: String = ReviewServer.freshToken()) {
        self.desk = desk
        self.port = port
        self.token = token
        self.viewToken = viewToken
        files = ReportFiles(folder: desk.report.path)
        let gate = self
        routes.appendRoute("POST /accept") { await gate.callAPI(.accept, $0) }
        routes.appendRoute("POST /undo") { await gate.callAPI(.undo, $0) }
        routes.appendRoute("/accept") { _ in Self.methodNotAllowed("/accept", allow: "POST") }
        routes.appendRoute("/undo") { _ in Self.methodNotAllowed("/undo", allow: "POST") }
        routes.appendRoute("GET,HEAD /*") { gate.serve($0) }
    }

    /// Named for the port, so two review servers' cookies do not overwrite each other.
    var cookieName: String { "popover-review-\(port)" }
    /// The largest API body read.
    public static let maximumBody = 256 * 1024
    /// Headers the gate reads, each of which must come at most once.
    static let singleHeaders: [HTTPHeader] = [.host, .origin, .secFetchSite, .cookie, .contentType, .contentLength, .transferEncoding]

    /// What a request's head allows before any of its body is read.
    public enum Admission: Sendable {
        /// Refused with this answer; its body is not read.
        case refuse(HTTPResponse)
        /// Read this many bytes of body, then `respond`.
        case readBody(Int)
    }

    /// The checks made on the head alone: repeated headers and query parameters, Host,
    /// Origin and Sec-Fetch-Site, the target, and how the body is framed.
    public func admit(_ head: HTTPRequest) -> Admission {
        for header in Self.singleHeaders where head.headers.values(for: header).count > 1 {
            return .refuse(.text(.badRequest, "refused: the \(header.rawValue) header is given more than once"))
        }
        guard let host = head.headers[.host], isThisServer(host, scheme: nil) else {
            return .refuse(.text(.misdirectedRequest, "refused: the Host must be this review server (127.0.0.1:\(port))"))
        }
        if let origin = head.headers[.origin], !isThisServer(origin, scheme: "http://") {
            return .refuse(.text(.forbidden, "refused: requests from other sites are not accepted"))
        }
        if head.headers[.secFetchSite]?.lowercased() == "cross-site" {
            return .refuse(.text(.forbidden, "refused: requests from other sites are not accepted"))
        }
        guard head.target.path().hasPrefix("/"), !head.target.rawValue.contains("#"), !head.path.isEmpty else {
            return .refuse(.text(.badRequest, "refused: the target is not a path"))
        }
        let names = head.query.map(\.name)
        guard Set(names).count == names.count else {
            return .refuse(.text(.badRequest, "refused: a query parameter is given more than once"))
        }
        let length = head.headers[.contentLength]
        if head.headers[.transferEncoding] != nil {
            return .refuse(length == nil
                ? .text(.lengthRequired, "refused: a body must state its Content-Length (a chunked body is not read)")
                : .text(.badRequest, "refused: Content-Length and Transfer-Encoding together do not say where the body ends"))
        }
        guard let length else {
            return head.method == .POST ? .refuse(.text(.lengthRequired, "refused: a POST must state its Content-Length")) : .readBody(0)
        }
        guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .refuse(.text(.badRequest, "refused: Content-Length must be a number of bytes, not \(String(reflecting: length))"))
        }
        guard let count = Int(length), count <= Self.maximumBody else {
            return .refuse(.text(.payloadTooLarge, "refused: the body is too large (at most \(Self.maximumBody) bytes)"))
        }
        return .readBody(count)
    }

    /// The answer to a whole request: `admit`'s checks, then the route for its method and path.
    public func respond(_ request: HTTPRequest) async -> HTTPResponse {
        if case .refuse(let answer) = admit(request) { return answer }
        do {
            return try await routes.handleRequest(request)
        } catch {
            // No route: a method none of them takes.
            return Self.methodNotAllowed(request.method.rawValue, allow: "GET, HEAD")
        }
    }

    // MARK: Routes

    enum Action { case accept, undo }

    /// `{"ids": [...]}` applied through the desk.
    private func callAPI(_ action: Action, _ request: HTTPRequest) async -> HTTPResponse {
        guard let queryToken = request.query["token"], Self.same(queryToken, token) else {
            return .text(.forbidden, "refused: missing or wrong token")
        }
        let type = (request.headers[.contentType] ?? "").lowercased()
        guard type == "application/json" || type.hasPrefix("application/json;") else {
            return .text(.unsupportedMediaType, "refused: the body must be application/json")
        }
        guard let body = try? await request.bodyData, let ids = Self.ids(body) else {
            return .text(.badRequest, #"refused: the body must be exactly {"ids": ["case/id", ...]} in UTF-8, with at least one ID"#)
        }
        do {
            let run = try desk.load()
            let known = Set(run.results.map(\.id))
            let unknown = ids.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                return .json(.badRequest, ["error": "not cases of the run being reviewed: \(unknown.prefix(5).joined(separator: ", "))"])
            }
            let outcome = action == .accept ? try desk.accept(.exactly(ids)) : try desk.undo(.exactly(ids))
            return .json(outcome.refused.isEmpty ? .ok : .conflict, outcome)
        } catch {
            return .json(.conflict, ["error": "\(error)"])
        }
    }

    /// The page and the report's files, for the token in the query or the cookie's.
    private func serve(_ request: HTTPRequest) -> HTTPResponse {
        let queryToken = request.query["token"]
        let cookieToken = Self.cookie(cookieName, in: request.headers[.cookie])
        let trusted = queryToken.map { Self.same($0, token) } ?? cookieToken.map { Self.same($0, viewToken) } ?? false
        guard trusted else {
            return .text(.forbidden, "refused: open the address popover-goldens review printed (it holds the token)")
        }
        let headOnly = request.method == .HEAD
        var response: HTTPResponse
        if request.path == "/" || request.path == "/index.html" {
            // Rendered from the checked run, never the index.html on disk (a report from
            // elsewhere could carry a script that accepts on its own).
            do {
                response = ReportFiles.page(ReportPage.render(try desk.load()), headOnly: headOnly)
            } catch {
                return .text(.conflict, "the report cannot be read: \(error)")
            }
        } else {
            // The target's path as sent: `ReportFiles` decodes each segment once.
            response = files.serve(request.target.path(), headOnly: headOnly)
        }
        if queryToken != nil {
            response.headers.addValue("\(cookieName)=\(viewToken); HttpOnly; SameSite=Strict; Path=/", for: .setCookie)
        }
        return response
    }

    static func methodNotAllowed(_ what: String, allow: String) -> HTTPResponse {
        var response = HTTPResponse.text(.methodNotAllowed, "refused: \(what) \(allow == "POST" ? "takes POST only" : "is not served here")")
        response.headers.addValue(allow, for: HTTPHeader("Allow"))
        return response
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

    /// The value of the cookie `name` in a Cookie header (`a=1; b=2`); FlyingFox reads no
    /// cookies.
    static func cookie(_ name: String, in header: String?) -> String? {
        for part in (header ?? "").split(separator: ";") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if kv.count == 2 && kv[0] == name { return String(kv[1]) }
        }
        return nil
    }

    /// The IDs of a body that is exactly `{"ids": [non-empty strings]}` in UTF-8.
    /// JSONSerialization alone would also take UTF-16 or UTF-32, a byte-order mark, and a
    /// key given twice (keeping the last): a JSON text never holds a raw NUL and UTF-16 or
    /// UTF-32 of one always does, and the members of the object are counted as written.
    static func ids(_ body: Data) -> [String]? {
        guard !body.starts(with: [0xEF, 0xBB, 0xBF]), !body.contains(0),
              let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              object.count == 1, memberCount(body) == 1,
              let list = object["ids"] as? [Any], !list.isEmpty else { return nil }
        let ids = list.compactMap { $0 as? String }
        guard ids.count == list.count, ids.allSatisfy({ !$0.isEmpty }) else { return nil }
        return ids
    }

    /// How many members the outermost object of a valid JSON text has as written: the
    /// colons outside strings one level in.
    static func memberCount(_ json: Data) -> Int {
        var depth = 0, members = 0, inString = false, escaped = false
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ":") where depth == 1: members += 1
            default: break
            }
        }
        return members
    }
}

extension HTTPHeader {
    static let origin = HTTPHeader("Origin")
    static let secFetchSite = HTTPHeader("Sec-Fetch-Site")
}

extension HTTPResponse {
    /// An answer with headers in the order given.
    init(_ status: HTTPStatusCode, headers: [(String, String)], body: [UInt8]) {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.addValue(value, for: HTTPHeader(name)) }
        self.init(statusCode: status, headers: fields, body: Data(body))
    }

    static func text(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        HTTPResponse(status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8))
    }

    static func json(_ status: HTTPStatusCode, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map { [UInt8]($0) } ?? Array("{}".utf8)
        return HTTPResponse(status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body)
    }
}
