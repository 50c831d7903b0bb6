import FlyingFox
import FlyingSocks
import Foundation
import PopoverImage
import Synchronization

/// `popover-goldens review`: the report served on 127.0.0.1 with a fresh token, so its
/// Accept and Undo buttons act at once. The HTTP is FlyingFox's; every decision is the
/// gate's (`ReviewGate`).
///
/// FlyingFox bounds nothing a client sends, and reads a line at a cost that grows with
/// the square of its length (8 KiB 0.1 s here, 64 KB 6.4 s). So it listens only on a
/// socket in a folder of this user's, and each connection to 127.0.0.1 is carried to it
/// on its own, bounded at the socket without reading the HTTP (docs/review.md): at most
/// `headBytes` until the gate admits a body (then that body's length more), all within
/// `requestTime` of connecting, and each part of the answer taken within `answerTime`.
public struct ReviewServer: Sendable {
    public let desk: ReviewDesk
    public let token = ReviewServer.freshToken()
    private let port: UInt16

    /// A request's head and a small body, which FlyingFox reads with the head.
    static let headBytes = 8192, smallBody = 2048
    static let requestTime: Duration = .seconds(10), answerTime: Duration = .seconds(10)

    /// A server for `desk`'s report on 127.0.0.1:`port` (0: any free port).
    public init(desk: ReviewDesk, port: UInt16) {
        (self.desk, self.port) = (desk, port)
    }

    /// 256 random bits from the system's cryptographic generator, as hex.
    public static func freshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Listens until its task is cancelled, which drops every connection; `ready` receives
    /// the address once it can be opened.
    public func run(ready: @Sendable (String) -> Void) async throws {
        // Each connection holds three descriptors (the client's, and both ends of its
        // carriage to FlyingFox): allow as many as the system lets this user.
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), [rlimit(rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max)])
        }
        let pool = HTTPServer.defaultPool()
        try await pool.prepare()
        let socket = try Socket(domain: AF_INET, type: .stream)
        defer { try? socket.close() }
        var template = Array((NSTemporaryDirectory() + "/popover-review-XXXXXX").utf8CString)
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
            try socket.listen()
        } catch let SocketError.failed(_, _, message) {
            throw ReviewError.report(.io("cannot listen on 127.0.0.1:\(port): \(message)"))
        }
        guard case .ip4(_, let bound) = try socket.sockname(), let made = mkdtemp(&template) else {
            throw ReviewError.report(.io("cannot start the review server: \(String(cString: strerror(errno)))"))
        }
        let folder = String(cString: made), inner = sockaddr_un.unix(path: String(cString: made) + "/http")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let allowances = Allowances()
        // A body of more than `smallBody` bytes is read only once the gate has admitted it;
        // an accept of many cases may take minutes.
        let server = HTTPServer(config: .init(address: inner, timeout: 3600, sharedRequestBufferSize: Self.smallBody,
                                              logger: DisabledLogger.disabled),
                                handler: ReviewGate(desk: desk, port: Int(bound), token: token, admit: allowances.grant))
        let listener = try AsyncSocket(socket: socket, pool: pool)
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await pool.run() }
                group.addTask { try await server.run() }
                try await server.waitUntilListening(timeout: 60)
                ready("http://127.0.0.1:\(bound)/?token=\(token)")
                for number in 0... {
                    guard let connection = try? await listener.accept() else {
                        // Out of file descriptors, say: connections past their bounds will
                        // close, and the next accept can succeed.
                        try await Task.sleep(for: .milliseconds(50))
                        continue
                    }
                    let name = folder + "/c\(number)"
                    group.addTask { await Self.carry(connection, to: inner, as: name, allowances: allowances, pool: pool) }
                }
            }
        } catch where Task.isCancelled {
            // stop(): every connection's task was cancelled with this one.
            await server.stop()
        }
    }

    /// One client connection carried to FlyingFox's server, from a socket named `name`
    /// (what the gate sees as the request's remote address), and its answer back.
    static func carry(_ client: AsyncSocket, to inner: sockaddr_un, as name: String, allowances: Allowances,
                      pool: some AsyncSocketPool) async {
        defer { try? client.close() }
        let grants = allowances.open(name)
        defer { allowances.close(name) }
        guard let socket = try? Socket(domain: AF_UNIX, type: .stream), (try? socket.bind(to: sockaddr_un.unix(path: name))) != nil,
              unlink(name) == 0, let server = try? AsyncSocket(socket: socket, pool: pool),
              (try? await server.connect(to: inner)) != nil else { return }
        defer { try? server.close() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The request: what the client sends within the bounds, then its end.
                _ = try? await within(requestTime) {
                    var allowed = headBytes, granted = grants.makeAsyncIterator()
                    while true {
                        if allowed == 0 {
                            guard let more = await granted.next() else { return }
                            allowed = more
                        }
                        let chunk = try await client.read(atMost: min(allowed, 1 << 16))
                        allowed -= chunk.count
                        try await server.write(Data(chunk))
                    }
                }
                shutdown(server.socket.file.rawValue, Int32(SHUT_WR))
            }
            // The answer, as long as the client takes it; then the connection is done.
            while let chunk = try? await server.read(atMost: 1 << 16),
                  (try? await within(answerTime, { try await client.write(Data(chunk)) })) != nil {}
            group.cancelAll()
        }
    }

    /// What each open connection may still send beyond its head: the bodies the gate admits.
    final class Allowances: Sendable {
        private let connections = Mutex<[String: AsyncStream<Int>.Continuation]>([:])

        func open(_ name: String) -> AsyncStream<Int> {
            let (grants, continuation) = AsyncStream.makeStream(of: Int.self)
            connections.withLock { $0[name] = continuation }
            return grants
        }

        func close(_ name: String) { connections.withLock { $0.removeValue(forKey: name) }?.finish() }

        @Sendable func grant(_ bytes: Int, to request: HTTPRequest) {
            guard case .unix(let name) = request.remoteAddress else { return }
            _ = connections.withLock { $0[name] }?.yield(bytes)
        }
    }

    /// `body`'s result, or `CancellationError` once `limit` has passed (`body` is cancelled).
    static func within<T: Sendable>(_ limit: Duration, _ body: @Sendable @escaping () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask { try await Task.sleep(for: limit); return nil }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else { throw CancellationError() }
            return value
        }
    }
}
