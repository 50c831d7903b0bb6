import FlyingFox
import FlyingSocks
import Foundation
import PopoverImage
import Synchronization

/// `popover-goldens review`: the report served on 127.0.0.1 with a fresh token, so its
/// Accept and Undo buttons act at once. Every decision is the gate's (`ReviewGate`); this
/// only carries bytes.
///
/// FlyingSocks accepts the connections and moves their bytes; each connection carries one
/// request and one answer (`Connection: close`). The request's head is read within the
/// bounds `RequestHead` states (why not FlyingFox's own server is said there), its body
/// only when the gate admits it, and all of it within `requestTime` of connecting: a
/// client that sends nothing, or a byte at a time, is answered 408 and closed then. No
/// connection waits on another, so a slow or oversized client holds up no one else.
public final class ReviewServer: Sendable {
    public let desk: ReviewDesk
    public let token: String
    private let port: UInt16
    private let running = Mutex<Task<Void, any Error>?>(nil)

    /// How long a client has, from connecting, to send its whole request.
    static let requestTime: Duration = .seconds(10)
    /// How long writing an answer may take.
    static let answerTime: Duration = .seconds(10)
    /// After answering, how long (and for how many bytes) the server still reads what a
    /// client sends before closing: a client still sending a refused request would
    /// otherwise have its connection reset, and may lose the answer with it.
    static let lingerTime: Duration = .seconds(1)
    static let lingerBytes = 1 << 20

    /// A server for `desk`'s report on 127.0.0.1:`port` (0: any free port).
    public init(desk: ReviewDesk, port: UInt16) {
        self.desk = desk
        self.port = port
        token = Self.freshToken()
    }

    /// 256 random bits from the system's cryptographic generator, as hex.
    public static func freshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Listens until `stop()`; `ready` receives the address once it can be opened.
    public func run(ready: @Sendable @escaping (String) -> Void) async throws {
        let desk = desk, token = token, port = port
        let task = Task { try await Self.listen(desk: desk, token: token, port: port, ready: ready) }
        running.withLock { $0 = task }
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Stops listening, drops every connection, and waits until `run` has returned.
    public func stop() async {
        guard let task = running.withLock({ $0 }) else { return }
        task.cancel()
        _ = await task.result
    }

    private static func listen(desk: ReviewDesk, token: String, port: UInt16,
                               ready: @Sendable (String) -> Void) async throws {
        let pool = HTTPServer.defaultPool()
        try await pool.prepare()
        let socket = try Socket(domain: AF_INET, type: .stream)
        defer { try? socket.close() }
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
            try socket.listen()
        } catch let SocketError.failed(_, _, message) {
            throw ReviewError.report(.io("cannot listen on 127.0.0.1:\(port): \(message)"))
        }
        guard case .ip4(_, let bound) = try socket.sockname() else {
            throw ReviewError.report(.io("the review server did not get a loopback address"))
        }
        let gate = ReviewGate(desk: desk, port: Int(bound), token: token)
        let listener = try AsyncSocket(socket: socket, pool: pool)
        ready("http://127.0.0.1:\(bound)/?token=\(token)")
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await pool.run() }
                while true {
                    let connection: AsyncSocket
                    do {
                        connection = try await listener.accept()
                    } catch where !Task.isCancelled {
                        // Out of file descriptors, say: connections still open will close
                        // within their time, and the next accept can succeed.
                        try await Task.sleep(for: .milliseconds(50))
                        continue
                    }
                    group.addTask { await serve(connection, gate: gate) }
                }
            }
        } catch where Task.isCancelled {
            // stop(): every connection's task was cancelled with this one.
        }
    }

    /// One connection: its request read within the bounds, answered, and closed.
    static func serve(_ connection: AsyncSocket, gate: ReviewGate) async {
        defer { try? connection.close() }
        let answer: HTTPResponse
        do {
            switch try await within(requestTime, { try await read(connection, gate: gate) }) {
            case .refused(let refusal): answer = refusal
            case .complete(let request): answer = await gate.respond(request)
            }
        } catch is PastDeadline {
            answer = .text(.requestTimeout, "refused: the request did not arrive within \(requestTime.components.seconds) seconds")
        } catch {
            return  // The client went away, or the server is stopping.
        }
        do {
            try await within(answerTime) { try await connection.write(encode(answer)) }
        } catch {
            return  // Not written in time, or the client went away.
        }
        shutdown(connection.socket.file.rawValue, Int32(SHUT_WR))
        _ = try? await within(lingerTime) {
            var drained = 0
            while drained < lingerBytes { drained += try await connection.read(atMost: 4096).count }
        }
    }

    enum Arrival: Sendable {
        case complete(HTTPRequest)
        case refused(HTTPResponse)
    }

    /// The request on `connection`: its head within `RequestHead`'s bounds, then the body
    /// the gate admits.
    static func read(_ connection: AsyncSocket, gate: ReviewGate) async throws -> Arrival {
        var head = RequestHead()
        while true {
            switch head.add(try await connection.read(atMost: 4096)) {
            case .incomplete:
                continue
            case .refused(let refusal):
                return .refused(refusal)
            case .complete(var request, let rest):
                switch gate.admit(request) {
                case .refuse(let refusal):
                    return .refused(refusal)
                case .readBody(let length):
                    var body = Array(rest.prefix(length))
                    if body.count < length { body += try await connection.read(bytes: length - body.count) }
                    request.setBodyData(Data(body))
                    return .complete(request)
                }
            }
        }
    }

    /// The answer as HTTP/1.1 bytes: FlyingFox writes responses only from its own server.
    static func encode(_ answer: HTTPResponse) async throws -> Data {
        let body = try await answer.bodyData
        var head = "HTTP/1.1 \(answer.statusCode.code) \(answer.statusCode.phrase)\r\n"
        for (name, value) in answer.headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            head += "\(name.rawValue): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }

    struct PastDeadline: Error {}

    /// `body`'s result, or `PastDeadline` once `limit` has passed (`body` is cancelled).
    static func within<T: Sendable>(_ limit: Duration, _ body: @Sendable @escaping () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw PastDeadline() }
            return value
        }
    }
}
