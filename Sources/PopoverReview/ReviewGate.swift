import Dispatch
import FlyingFox
import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import Synchronization

/// Everything the review server decides, in front of FlyingFox's routes: which requests
/// it trusts, what they may do, and the answers (the rules, and why, are in
/// docs/review.md). Anything else is refused with a 4xx and changes nothing.
///
/// Work that takes time runs off the threads that carry connections, so no request waits
/// on another: accepting and undoing, one at a time, on a queue of their own; the page,
/// rendered once for each state of the run's record, on another.
public struct ReviewGate: HTTPHandler, Sendable {
    public let desk: ReviewDesk
    public let port: Int
    public let token: String
    /// The cookie's token: pages and images only.
    public let viewToken: String
    private let files: ReportFiles
    private let page: Page
    /// Told the length of each body the gate is about to read (`ReviewServer` lets the
    /// connection send that much more).
    private let admit: @Sendable (Int, HTTPRequest) -> Void
    private var routes = RoutedHTTPHandler()
    private static let deskQueue = DispatchQueue(label: "popover-goldens review: accepting")

    public init(desk: ReviewDesk, port: Int, token: String, viewToken: String = ReviewServer.freshToken(),
                admit: @escaping @Sendable (Int, HTTPRequest) -> Void = { _, _ in }) {
        self.desk = desk
        self.port = port
        self.token = token
        self.viewToken = viewToken
        self.admit = admit
        files = ReportFiles(folder: desk.report.path)
        page = Page(report: desk.report)
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
    /// How many times the page has been rendered.
    public var pagesRendered: Int { page.rendered.load(ordering: .relaxed) }

    /// The answer to a request, which closes its connection.
    public func handleRequest(_ request: HTTPRequest) async -> HTTPResponse {
        var response = await respond(request)
        response.headers[.connection] = "close"
        return response
    }

    private func respond(_ request: HTTPRequest) async -> HTTPResponse {
        guard let host = request.headers[.host], isThisServer(host, scheme: "") else {
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
        // Given twice, a check could read one and the action the other.
        guard Set(request.query.map(\.name)).count == request.query.count else {
            return .text(.badRequest, "refused: a query parameter is given more than once")
        }
        if request.headers[.transferEncoding] != nil {
            return .text(.lengthRequired, "refused: a body must state its Content-Length (a chunked body is not read)")
        }
        do {
            return try await routes.handleRequest(request)
        } catch {
            return Self.methodNotAllowed(request.method.rawValue, allow: "GET, HEAD")
        }
    }

    enum Action { case accept, undo }

    struct Body: Decodable { let ids: [String] }

    /// `{"ids": [...]}` applied through the desk.
    private func callAPI(_ action: Action, _ request: HTTPRequest) async -> HTTPResponse {
        guard let queryToken = request.query["token"], Self.same(queryToken, token) else {
            return .text(.forbidden, "refused: missing or wrong token")
        }
        let type = (request.headers[.contentType] ?? "").lowercased()
        guard type == "application/json" || type.hasPrefix("application/json;") else {
            return .text(.unsupportedMediaType, "refused: the body must be application/json")
        }
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
        // Read once, by JSONDecoder: what it reads is what is acted on.
        guard let body = try? await request.bodyData, let ids = try? JSONDecoder().decode(Body.self, from: body).ids,
              !ids.isEmpty else {
            return .text(.badRequest, #"refused: the body must be {"ids": ["case/id", ...]}, with at least one ID"#)
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
        guard queryToken.map({ Self.same($0, token) }) ?? cookieToken.map({ Self.same($0, viewToken) }) ?? false else {
            return .text(.forbidden, "refused: open the address popover-goldens review printed (it holds the token)")
        }
        let headOnly = request.method == .HEAD
        var response: HTTPResponse
        if request.path == "/" || request.path == "/index.html" {
            // Rendered from the checked run, never the index.html on disk (a report from
            // elsewhere could carry a script that accepts on its own).
            let page = page
            switch await Self.off(Page.queue, { Result { try page.html() } }) {
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

    /// `work`'s result, worked out on `queue` rather than on a thread that carries connections.
    static func off<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
    }

    static func methodNotAllowed(_ what: String, allow: String) -> HTTPResponse {
        var response = HTTPResponse.text(.methodNotAllowed, "refused: \(what) \(allow == "POST" ? "takes POST only" : "is not served here")")
        response.headers.addValue(allow, for: HTTPHeader("Allow"))
        return response
    }

    func isThisServer(_ value: String, scheme: String) -> Bool {
        ["127.0.0.1:\(port)", "localhost:\(port)"].contains { scheme + $0 == value.lowercased() }
    }

    /// A constant-time comparison, so the token cannot be guessed a character at a time.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        return x.count == y.count && zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The value of the cookie `name` in a Cookie header (`a=1; b=2`); FlyingFox reads no cookies.
    static func cookie(_ name: String, in header: String?) -> String? {
        for part in (header ?? "").split(separator: ";") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if kv.count == 2 && kv[0] == name { return String(kv[1]) }
        }
        return nil
    }

    /// The page as this tool renders it from the run, kept while summary.json holds the
    /// same bytes: a thousand requests for it cost one rendering. Used on `queue` only.
    final class Page: @unchecked Sendable {
        static let queue = DispatchQueue(label: "popover-goldens review: the page")
        let report: ReportFolder
        let rendered = Atomic<Int>(0)
        private var kept: (summary: [UInt8], html: String)?

        init(report: ReportFolder) { self.report = report }

        func html() throws -> String {
            let bytes = try FileIO.readBytes(path: report.summaryPath)
            if let kept, kept.summary == bytes { return kept.html }
            let html = ReportPage.render(try RunRecord.decode(bytes, name: report.summaryPath))
            kept = (bytes, html)
            rendered.add(1, ordering: .relaxed)
            return html
        }
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
