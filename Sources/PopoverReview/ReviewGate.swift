import Dispatch
import FlyingFox
import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import Synchronization

/// Everything the review server decides, in front of FlyingFox's routing: which requests
/// it trusts, what they may do, and the answers. FlyingFox parses each request (keeping
/// the last value of a header given twice, which is the value both the gate and the
/// routes read); anything that is not one of the few things the gate expects is refused
/// with a 4xx and changes nothing:
///
/// - `Host` must be this server's loopback address and port (so a page of another site,
///   with a DNS name pointed at 127.0.0.1, cannot talk to it), and an `Origin`, when a
///   browser sends one, must be this server too; a request the browser marks
///   `Sec-Fetch-Site: cross-site` is refused;
/// - a query parameter given twice is refused: a check could read one and the action
///   the other;
/// - every request must carry the token printed at start-up: `POST /accept?token=…` and
///   `POST /undo?token=…` in the query; pages and images in the query or in the cookie
///   the first page load sets (HttpOnly, SameSite=Strict). The cookie holds a second
///   token that can only read: browsers send a 127.0.0.1 cookie to every port of it, so
///   another local program may see that one, and it accepts nothing;
/// - the API takes only `POST` with `Content-Type: application/json`, a stated
///   `Content-Length` of at most `maximumBody` (a chunked body is never read) and a body
///   of exactly `{"ids": ["case/id", …]}` in UTF-8, every ID a case of the run;
/// - files are served only from the report folder: no `..`, no hidden names, nothing a
///   symbolic link leads out to.
///
/// Work that takes time runs off the threads that carry connections, so no request
/// waits on another: accepting and undoing, one at a time, on a queue of their own; the
/// page, rendered once for each state of the run's record, on another.
public struct ReviewGate: HTTPHandler, Sendable {
    public let desk: ReviewDesk
    public let port: Int
    public let token: String
    /// The cookie's token: pages and images only.
    public let viewToken: String
    public let files: ReportFiles
    private let pages: Pages
    /// Told the length of each body the gate is about to read (`ReviewServer` lets the
    /// connection send that much more).
    private let admit: @Sendable (Int, HTTPRequest) -> Void
    private var routes = RoutedHTTPHandler()
    private static let deskQueue = DispatchQueue(label: "popover-goldens review: accepting")

    public init(desk: ReviewDesk, port: Int, token: String, viewToken: String = ReviewServer.freshToken(),
                admit: @escaping @Sendable (Int, HTTPRequest) -> Void = { _, _ in }) {
        self.desk = desk
        self.admit = admit
        self.port = port
        self.token = token
        self.viewToken = viewToken
        files = ReportFiles(folder: desk.report.path)
        pages = Pages(report: desk.report)
        let gate = self
        routes.appendRoute("POST /accept") { await gate.callAPI(.accept, $0) }
        routes.appendRoute("POST /undo") { await gate.callAPI(.undo, $0) }
        routes.appendRoute("/accept") { _ in Self.methodNotAllowed("/accept", allow: "POST") }
        routes.appendRoute("/undo") { _ in Self.methodNotAllowed("/undo", allow: "POST") }
        routes.appendRoute("GET,HEAD /*") { await gate.serve($0) }
    }

    /// Named for the port, so two review servers' cookies do not overwrite each other.
    var cookieName: String { "popover-review-\(port)" }
    /// The largest API body read.
    public static let maximumBody = 256 * 1024
    /// How many times the page has been rendered: once for each state of summary.json,
    /// however many requests ask for it.
    public var pagesRendered: Int { pages.rendered }

    /// The answer to a request: the checks above, then the route for its method and path.
    /// Every answer closes its connection.
    public func handleRequest(_ request: HTTPRequest) async -> HTTPResponse {
        var response = await respond(request)
        response.headers[.connection] = "close"
        return response
    }

    private func respond(_ request: HTTPRequest) async -> HTTPResponse {
        guard let host = request.headers[.host], isThisServer(host, scheme: nil) else {
            return .text(.misdirectedRequest, "refused: the Host must be this review server (127.0.0.1:\(port))")
        }
        if let origin = request.headers[.origin], !isThisServer(origin, scheme: "http://") {
            return .text(.forbidden, "refused: requests from other sites are not accepted")
        }
        if request.headers[.secFetchSite]?.lowercased() == "cross-site" {
            return .text(.forbidden, "refused: requests from other sites are not accepted")
        }
        guard request.target.path().hasPrefix("/"), !request.target.rawValue.contains("#"), !request.path.isEmpty else {
            return .text(.badRequest, "refused: the target is not a path")
        }
        let names = request.query.map(\.name)
        guard Set(names).count == names.count else {
            return .text(.badRequest, "refused: a query parameter is given more than once")
        }
        if request.headers[.transferEncoding] != nil {
            return .text(.lengthRequired, "refused: a body must state its Content-Length (a chunked body is not read)")
        }
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
        // FlyingFox has read the head and checked that Content-Length is a number; the body
        // is read only once it is known to be small.
        guard let stated = request.headers[.contentLength] else {
            return .text(.lengthRequired, "refused: a POST must state its Content-Length")
        }
        guard !stated.isEmpty, stated.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(stated) else {
            return .text(.badRequest, "refused: Content-Length must be a number of bytes, not \(String(reflecting: stated))")
        }
        guard length <= Self.maximumBody else {
            return .text(.payloadTooLarge, "refused: the body is too large (at most \(Self.maximumBody) bytes)")
        }
        admit(length, request)
        guard let body = try? await request.bodyData, let ids = Self.ids(body) else {
            return .text(.badRequest, #"refused: the body must be exactly {"ids": ["case/id", ...]} in UTF-8, with at least one ID"#)
        }
        let desk = desk
        return await Self.off(Self.deskQueue) {
            do {
                let known = Set(try desk.load().results.map(\.id))
                let unknown = ids.filter { !known.contains($0) }
                guard unknown.isEmpty else {
                    return .json(.badRequest, ["error": "not cases of the run being reviewed: \(unknown.prefix(5).joined(separator: ", "))"])
                }
                let outcome = action == .accept ? try desk.accept(.exactly(ids)) : try desk.undo(.exactly(ids))
                return .json(outcome.refused.isEmpty && outcome.unrecorded == nil ? .ok : .conflict, outcome)
            } catch {
                return .json(.conflict, ["error": "\(error)"])
            }
        }
    }

    /// The page and the report's files, for the token in the query or the cookie's.
    private func serve(_ request: HTTPRequest) async -> HTTPResponse {
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
            let pages = pages
            switch await Self.off(Pages.queue, { Result { try pages.current() } }) {
            case .success(let html): response = ReportFiles.page(html, headOnly: headOnly)
            case .failure(let error): return .text(.conflict, "the report cannot be read: \(error)")
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

    /// `work`'s result, worked out on `queue` rather than on a thread that carries
    /// connections.
    static func off<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
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

/// The page as this tool renders it from the run, kept while summary.json holds the same
/// bytes: a thousand requests for it cost one rendering. Used on `queue` only.
final class Pages: @unchecked Sendable {
    static let queue = DispatchQueue(label: "popover-goldens review: the page")
    let report: ReportFolder
    private var kept: (summary: [UInt8], html: String)?
    private let count = Atomic<Int>(0)

    init(report: ReportFolder) { self.report = report }

    var rendered: Int { count.load(ordering: .relaxed) }

    func current() throws -> String {
        let bytes: [UInt8]
        do { bytes = try FileIO.readBytes(path: report.summaryPath) } catch { throw ReviewError.report(.io("\(error)")) }
        if let kept, kept.summary == bytes { return kept.html }
        let run: RunRecord
        do { run = try RunRecord.decode(bytes, name: report.summaryPath) } catch {
            throw ReviewError.report(.unreadableRun(file: error.file, reason: error.reason))
        }
        let html = ReportPage.render(run)
        kept = (bytes, html)
        count.add(1, ordering: .relaxed)
        return html
    }
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
