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
    private let page: Page
    /// Told the length of each body the gate is about to read (`ReviewServer` lets the
    /// connection send that much more).
    private let admit: @Sendable (Int, HTTPRequest) -> Void
    private var routes = RoutedHTTPHandler()
    private static let deskQueue = DispatchQueue(label: "popover-goldens review: accepting")

    public init(desk: ReviewDesk, port: Int, token: String, viewToken: String = ReviewServer.freshToken(),
                admit: @escaping @Sendable (Int, HTTPRequest) -> Void = { _, _ in }) {
        (self.desk, self.port, self.token, self.viewToken, self.admit) = (desk, port, token, viewToken, admit)
        page = Page(report: desk.report)
        let gate = self
        for action in ["accept", "undo"] {
            routes.appendRoute(HTTPRoute("POST /\(action)")) { await gate.callAPI(action, $0) }
            routes.appendRoute(HTTPRoute("/\(action)")) { _ in Self.methodNotAllowed("/\(action) takes POST only", allow: "POST") }
        }
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
        var response: HTTPResponse
        if !isThisServer(request.headers[.host], scheme: "") {
            response = .text(.misdirectedRequest, "refused: the Host must be this review server (127.0.0.1:\(port))")
        } else if request.headers[HTTPHeader("Origin")].map({ !isThisServer($0, scheme: "http://") }) ?? false
                    || request.headers[HTTPHeader("Sec-Fetch-Site")]?.lowercased() == "cross-site" {
            response = .text(.forbidden, "refused: requests from other sites are not accepted")
        } else if request.headers[.transferEncoding] != nil {
            response = .text(.lengthRequired, "refused: a body must state its Content-Length (a chunked body is not read)")
        } else {
            response = (try? await routes.handleRequest(request))
                ?? Self.methodNotAllowed("\(request.method.rawValue) is not served here", allow: "GET, HEAD")
        }
        response.headers[.connection] = "close"
        return response
    }

    /// `{"ids": [...]}` applied through the desk.
    private func callAPI(_ action: String, _ request: HTTPRequest) async -> HTTPResponse {
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
        // Digits only: FlyingFox would read "+5" as 5, which no other reader of HTTP does.
        guard let length = Int(stated), stated.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return .text(.badRequest, "refused: Content-Length must be a number of bytes, not \(String(reflecting: stated))")
        }
        guard length <= Self.maximumBody else {
            return .text(.payloadTooLarge, "refused: the body is too large (at most \(Self.maximumBody) bytes)")
        }
        admit(length, request)
        struct Body: Decodable { let ids: [String] }
        // Read once, by JSONDecoder: what it reads is what is acted on.
        guard let body = try? await request.bodyData, let ids = try? JSONDecoder().decode(Body.self, from: body).ids,
              !ids.isEmpty else {
            return .text(.badRequest, #"refused: the body must be {"ids": ["case/id", ...]}, with at least one ID"#)
        }
        let desk = desk
        return await Self.off(Self.deskQueue) {
            do {
                let outcome = action == "accept" ? try desk.accept(.exactly(ids)) : try desk.undo(.exactly(ids))
                return .json(outcome.refused.isEmpty && outcome.unrecorded == nil ? .ok : .conflict, outcome)
            } catch {
                return .json((error as? ReviewError)?.namesUnknownCases == true ? .badRequest : .conflict, ["error": "\(error)"])
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
        var response: HTTPResponse
        if request.path == "/" || request.path == "/index.html" {
            // Rendered from the checked run, never the index.html on disk (a report from
            // elsewhere could carry a script that accepts on its own): only its own
            // styles and scripts run.
            let page = page, html: String
            do { html = try await Self.off(Page.queue) { Result { try page.html() } }.get() } catch {
                return .text(.conflict, "the report cannot be read: \(error)")
            }
            response = .init(.ok, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                                            ("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src "
                                             + "'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
                                             + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")],
                             body: Array(html.utf8))
        } else {
            response = file(request.target.path())
        }
        if request.method == .HEAD { response.payload = .httpBody(HTTPBodySequence(data: Data())) }
        if queryToken != nil {
            response.headers.addValue("\(cookieName)=\(viewToken); HttpOnly; SameSite=Strict; Path=/", for: .setCookie)
        }
        return response
    }

    /// A PNG, JSON or XML file of the report folder, named by the target's path as sent:
    /// each segment decoded once (one that decodes to a slash is refused), then a plain
    /// path whose real path, links followed, lies inside the folder (`FilePaths.file`).
    /// Never the page nor a script: a report from elsewhere could hold any.
    private func file(_ path: String) -> HTTPResponse {
        let names = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(\.removingPercentEncoding)
        let types = ["json": "application/json", "xml": "application/xml", "png": "image/png"]
        guard path.hasPrefix("/"), names.allSatisfy({ $0 != nil && !$0!.contains("/") }),
              case .found(let file) = FilePaths.file(names.map { $0! }.joined(separator: "/"), inside: desk.report.path),
              let type = types[URL(fileURLWithPath: file).pathExtension.lowercased()], let bytes = try? FileIO.readBytes(path: file) else {
            return .text(.notFound, "not found")
        }
        // Accepting rewrites the summary: never keep an old one.
        return .init(.ok, headers: [("Content-Type", type), ("Cache-Control", type == "image/png" ? "private, max-age=60" : "no-store")],
                     body: bytes)
    }

    /// `work`'s result, worked out on `queue` rather than on a thread that carries connections.
    static func off<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
    }

    static func methodNotAllowed(_ what: String, allow: String) -> HTTPResponse {
        var response = HTTPResponse.text(.methodNotAllowed, "refused: \(what)")
        response.headers.addValue(allow, for: HTTPHeader("Allow"))
        return response
    }

    func isThisServer(_ value: String?, scheme: String) -> Bool {
        ["127.0.0.1:\(port)", "localhost:\(port)"].contains { scheme + $0 == value?.lowercased() }
    }

    /// A constant-time comparison, so the token cannot be guessed a character at a time.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        return x.count == y.count && zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The value of the cookie `name` in a Cookie header (`a=1; b=2`); FlyingFox reads no cookies.
    static func cookie(_ name: String, in header: String?) -> String? {
        (header ?? "").split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
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
            kept = (bytes, ReportPage.render(try RunRecord.decode(bytes, name: report.summaryPath)))
            rendered.add(1, ordering: .relaxed)
            return kept!.html
        }
    }
}

extension HTTPResponse {
    /// An answer with headers in the order given, and those every answer carries.
    init(_ status: HTTPStatusCode, headers: [(String, String)], body: [UInt8]) {
        var fields = HTTPHeaders()
        for (name, value) in headers + [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")] {
            fields.addValue(value, for: HTTPHeader(name))
        }
        self.init(statusCode: status, headers: fields, body: Data(body))
    }

    static func text(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        HTTPResponse(status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8))
    }

    static func json(_ status: HTTPStatusCode, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return HTTPResponse(status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                            body: (try? encoder.encode(value)).map { [UInt8]($0) } ?? Array("{}".utf8))
    }
}
