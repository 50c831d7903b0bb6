import Foundation
import TestSupport

/// `popover-goldens review` running in the background, and a small HTTP client for it.
final class ReviewProcess {
    let process: Process
    let outputPath: String
    let url: String
    let port: Int
    let token: String

    init(in folder: String) throws {
        guard let executable = popoverGoldensExecutable else { throw ToolMissing(description: "no popover-goldens") }
        outputPath = folder + "/review-output.txt"
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        process = toolProcess(executable, ["review", "--port", "0"], in: folder)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // The first line is the address; wait for it (the server needs a moment).
        var line = ""
        for _ in 0..<200 {
            line = (try? String(contentsOfFile: outputPath, encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? ""
            if line.contains("token=") { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        url = line
        let afterHost = line.dropFirst("http://127.0.0.1:".count)
        port = Int(afterHost.prefix { $0.isNumber }) ?? 0
        token = line.components(separatedBy: "token=").last ?? ""
    }

    var firstLine: String { url }
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning { _ = interrupt() }
    }

    /// Ctrl-C; returns the exit status. A server that has not stopped after ten seconds
    /// is killed, so a test of a hung server fails rather than hangs.
    func interrupt() -> Int32 {
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
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

    /// One request on a fresh connection; the answer, waiting at most `timeout` for each
    /// part of it (status 0: none came).
    func send(_ request: String, timeout: TimeInterval = 10) throws -> Answer {
        let connection = try RawConnection(port: port, timeout: timeout)
        connection.write(Array(request.utf8))
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

    static func run(_ arguments: [String]) throws -> ToolRun {
        try runProgram("/usr/bin/env", ["python3", script] + arguments)
    }
}
