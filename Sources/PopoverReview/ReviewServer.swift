import FlyingFox
import FlyingSocks
import Foundation

/// `popover-goldens review`: the report served on 127.0.0.1 with a fresh token, so its
/// Accept and Undo buttons act at once. FlyingFox does the HTTP; every decision is the
/// gate's (`ReviewGate`).
public final class ReviewServer: Sendable {
    public let desk: ReviewDesk
    public let token: String
    private let server: HTTPServer
    private let requestedPort: UInt16

    /// A server for `desk`'s report on 127.0.0.1:`port` (0: any free port).
    public init(desk: ReviewDesk, port: UInt16) throws {
        self.desk = desk
        requestedPort = port
        token = Self.freshToken()
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled)
    }

    /// 32 random bytes from the system's cryptographic generator, as hex.
    /// 256 random bits, as hex.
    public static func freshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// Listens until `stop()`; `ready` receives the address once it can be opened.
    public func run(ready: @Sendable @escaping (String) -> Void) async throws {
        let token = token, desk = desk
        let runTask = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            runTask.cancel()
            throw ReviewError.report(.io("the review server did not get a loopback address"))
        }
        let gate = ReviewGate(desk: desk, port: Int(port), token: token)
        await server.appendRoute("*", to: GateHandler(gate: gate))
        ready("http://127.0.0.1:\(port)/?token=\(token)")
        try await runTask.value
    }

    public func stop() async {
        await server.stop(timeout: 1)
    }
}

/// Hands each request to the gate, the body read only when its stated length is acceptable.
struct GateHandler: HTTPHandler {
    let gate: ReviewGate

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: [String]] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased(), default: []].append(value) }
        var body: [UInt8] = []
        if request.method.rawValue == "POST" {
            // Only a body whose length is stated, and small, is ever read: a chunked one
            // could be as long as its sender likes before any check has looked at it.
            guard headers["transfer-encoding"] == nil, let length = headers["content-length"]?.first.flatMap({ Int($0) }) else {
                return HTTPResponse(statusCode: HTTPStatusCode(411, phrase: "Length Required"),
                                    body: Data("refused: a POST must state its Content-Length\n".utf8))
            }
            guard length <= ReviewGate.maximumBody else {
                return HTTPResponse(statusCode: .payloadTooLarge, body: Data("refused: the body is too large\n".utf8))
            }
            body = [UInt8](try await request.bodyData)
        }
        let answer = gate.respond(ReviewRequest(method: request.method.rawValue, target: request.target.rawValue,
                                                headers: headers, body: body))
        var responseHeaders = HTTPHeaders()
        for (name, value) in answer.headers { responseHeaders.addValue(value, for: HTTPHeader(name)) }
        return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)),
                            headers: responseHeaders, body: Data(answer.body))
    }

    static func phrase(_ status: Int) -> String {
        [200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
         409: "Conflict", 413: "Payload Too Large", 415: "Unsupported Media Type", 421: "Misdirected Request"][status] ?? "Status"
    }
}
