import Foundation
import Synchronization
import TestSupport

/// `popover-goldens review` running in the background, and a small HTTP client for it.
final class ReviewProcess: @unchecked Sendable {
    let process: Process
    let url: String
    let port: Int
    let token: String
    private let lines = Pipe()
    private let said = Mutex(Data())
    private let reading = DispatchGroup()

    init(in folder: String) throws {
        guard let executable = popoverGoldensExecutable else { throw ToolMissing(description: "no popover-goldens") }
        process = toolProcess(executable, ["review", "--port", "0"], in: folder)
        process.standardOutput = lines
        process.standardError = lines
        try process.run()
        // The first line is the address: read up to it, then the rest as it comes.
        let handle = lines.fileHandleForReading
        var first = Data()
        while !first.contains(10), let byte = try handle.read(upToCount: 1), !byte.isEmpty { first += byte }
        url = String(decoding: first, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let afterHost = url.dropFirst("http://127.0.0.1:".count)
        port = Int(afterHost.prefix { $0.isNumber }) ?? 0
        token = url.components(separatedBy: "token=").last ?? ""
        said.withLock { $0 = first }
        DispatchQueue.global().async(group: reading) { [self] in
            let rest = handle.readDataToEndOfFile()
            said.withLock { $0 += rest }
        }
    }

    var firstLine: String { url }
    /// Everything the server printed (complete once it has exited).
    var output: String {
        reading.wait()
        return String(decoding: said.withLock { $0 }, as: UTF8.self)
    }

    func stop() {
        if process.isRunning { _ = interrupt() }
    }

    /// Ctrl-C; returns the exit status once the server has stopped. A server still running
    /// a minute later is killed, so that a test of a hung server fails rather than hangs.
    func interrupt() -> Int32 {
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        kill(pid, SIGINT)
        process.waitUntilExit()
        watchdog.cancel()
        return process.terminationStatus
    }

    struct Answer {
        var status: Int
        var body: String
        /// Whether the server closed the connection (rather than the wait running out).
        var closed: Bool

        init(_ received: [UInt8], closed: Bool) {
            let text = String(decoding: received, as: UTF8.self)
            let firstLine = text.prefix { $0 != "\r" && $0 != "\n" }
            status = firstLine.hasPrefix("HTTP/1.") ? Int(firstLine.split(separator: " ").dropFirst().first ?? "") ?? 0 : 0
            body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            self.closed = closed
        }
    }

    func get(_ target: String) throws -> Answer { try send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n") }

    func post(_ path: String, body: String) throws -> Answer {
        try send("POST \(path)?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }

    /// One request on a fresh connection, whose sending side is then closed; the answer
    /// until the server closes the connection (status 0: no answer came), waiting at most
    /// `timeout` for each part of it.
    func send(_ request: String, timeout: TimeInterval = 60) throws -> Answer {
        let connection = try RawConnection(port: port, timeout: timeout)
        connection.write(Array(request.utf8))
        connection.endSending()
        return connection.answer()
    }

    /// The machine's IPv4 addresses other than loopback.
    static func otherAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var out: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let sa = entry.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            getnameinfo(sa, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            let text = String(cString: host)
            if !text.hasPrefix("127.") { out.append(text) }
        }
        return out
    }

    static func connects(_ host: String, _ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// One TCP connection to 127.0.0.1 with blocking reads and writes, each giving up after
/// `timeout`: enough HTTP/1.1 to send a server what a browser never would.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    init(port: Int, timeout: TimeInterval) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw ToolMissing(description: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    deinit { close(fd) }

    /// Closes the sending side: the server sees the request end.
    func endSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Whether the server has closed its side, asked without waiting (unread data aside).
    var closedByServer: Bool {
        let peerClosed: Int16 = 0x2000  // POLLRDHUP, which Glibc's Swift module leaves out
        var entry = pollfd(fd: fd, events: peerClosed, revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & (peerClosed | Int16(POLLHUP | POLLERR)) != 0
    }

    /// Whether any answer has arrived, asked without waiting.
    var hasAnswer: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// Writes all of `bytes`; false once the server has closed the connection or stopped
    /// reading for longer than the timeout.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Everything the server sends until it closes the connection, or until a read waits
    /// longer than the timeout.
    func readToEnd() -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                received += buffer[0..<n]
            } else {
                // 0: closed; -1 with EAGAIN: the wait ran out; any other error: reset, closed.
                return (received, n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            }
        }
    }

    func answer() -> ReviewProcess.Answer {
        let (bytes, closed) = readToEnd()
        return ReviewProcess.Answer(bytes, closed: closed)
    }
}

/// Chromium driven by Playwright for Python.
enum Browser {
    static let script = PackageFolders.root + "/Tests/Browser/report_in_chromium.py"

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && shell("python3 -c 'import playwright.sync_api' 2>/dev/null") == 0
    }

    static func run(_ arguments: [String]) async throws -> ToolRun {
        try await runProgram("/usr/bin/env", ["python3", script] + arguments)
    }
}
