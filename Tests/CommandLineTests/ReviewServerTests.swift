import Dispatch
import Foundation
import Testing
import TestSupport

/// `popover-goldens review` as a process, sent what no browser would: heads too long, sent
/// too slowly or not at all, and bodies framed in ways that cannot be read one way only.
/// Each is answered with a status within a stated time and closed, and none of them holds
/// up a proper request.
///
/// The limits the server states: a request line of at most 8192 bytes (414 beyond), header
/// fields of at most 32768 bytes in all (431 beyond), and the whole request within 10
/// seconds of connecting (408 beyond).
@Suite("The review server against clients that are not browsers",
       .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct ReviewServerTests {
    /// A project folder holding a checked run of two cases and its report.
    static func workspace() throws -> TemporaryFolder {
        let folder = TemporaryFolder("review-server")
        try linkCommittedSkins(into: folder.path)
        let check = try runTool(["check", "--filter", "path-slate/up/popover8*@1x", "--record", "missing"], in: folder.path)
        try #require(check.status == 0, "the check should pass: \(check.stdout)\(check.stderr)")
        return folder
    }

    /// A GET request line (without its CRLF) of exactly `length` bytes, carrying the token.
    static func requestLine(_ length: Int, token: String) -> String {
        let start = "GET /?token=\(token)&pad=", end = " HTTP/1.1"
        return start + String(repeating: "a", count: length - start.utf8.count - end.utf8.count) + end
    }

    /// Header fields (each line with its CRLF, without the empty line ending them) of
    /// exactly `length` bytes: this server's Host and one padding field.
    static func fields(_ length: Int, port: Int) -> String {
        let host = "Host: 127.0.0.1:\(port)\r\n", start = "X-Pad: ", end = "\r\n"
        return host + start + String(repeating: "b", count: length - host.utf8.count - start.utf8.count - end.utf8.count) + end
    }

    @Test("a request line over 8192 bytes gets 414, header fields over 32768 bytes get 431; at the limits it is served")
    func oversizedHeads() throws {
        let folder = try Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        #expect(Self.requestLine(8192, token: server.token).utf8.count == 8192)
        #expect(Self.fields(32768, port: server.port).utf8.count == 32768)
        let lines: [(length: Int, status: Int)] = [(8192, 200), (8193, 414), (1 << 20, 414)]
        for (length, status) in lines {
            let answer = try server.send(Self.requestLine(length, token: server.token) + "\r\n" + host + "\r\n")
            #expect(answer.status == status, "a request line of \(length) bytes: \(answer.status) \(answer.body.prefix(200))")
        }
        let get = "GET /?token=\(server.token) HTTP/1.1\r\n"
        let blocks: [(length: Int, status: Int)] = [(32768, 200), (32769, 431), (1 << 20, 431)]
        for (length, status) in blocks {
            let answer = try server.send(get + Self.fields(length, port: server.port) + "\r\n")
            #expect(answer.status == status, "header fields of \(length) bytes: \(answer.status) \(answer.body.prefix(200))")
        }
        // The audit's case: a 1 MiB request line, then a 16 MiB header line.
        let audit = try RawConnection(port: server.port, timeout: 10)
        let first = Array(Self.requestLine(1 << 20, token: server.token).utf8) + Array("\r\nX-Pad: ".utf8)
        let sender = DispatchGroup()
        DispatchQueue.global().async(group: sender) {
            guard audit.write(first) else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: "c"), count: 1 << 16)
            for _ in 0..<256 where audit.write(chunk) {}
        }
        let answer = audit.answer()
        #expect(answer.status == 414, "\(answer.status) \(answer.body)")
        sender.wait()
        #expect(try server.get("/?token=\(server.token)").status == 200, "the server still answers")
    }

    @Test("malformed framing and malformed heads are answered 400, not closed in silence")
    func malformed() throws {
        let folder = try Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let post = "POST /accept?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n"
        let body = #"{"ids": ["path-slate/up/popover8@1x"]}"#
        let cases: [(label: String, request: String, names: String)] = [
            ("negative length", post + "Content-Length: -1\r\n\r\n" + body, "Content-Length"),
            ("length not a number", post + "Content-Length: abc\r\n\r\n" + body, "Content-Length"),
            ("length with a sign", post + "Content-Length: +\(body.utf8.count)\r\n\r\n" + body, "Content-Length"),
            ("length and chunks", post + "Content-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n" + body,
             "Transfer-Encoding"),
            ("two lengths", post + "Content-Length: \(body.utf8.count)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body,
             "Content-Length"),
            ("lines ended by LF alone", "GET /?token=\(server.token) HTTP/1.1\nHost: 127.0.0.1:\(server.port)\n\n", "line"),
            ("a folded header line", "GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-A: a\r\n b\r\n\r\n",
             "header"),
            ("space before the colon", "GET /?token=\(server.token) HTTP/1.1\r\nHost : 127.0.0.1:\(server.port)\r\n\r\n", "header"),
            ("no version", "GET /?token=\(server.token)\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", "request line"),
        ]
        for (label, request, names) in cases {
            let answer = try server.send(request)
            #expect(answer.status == 400 && answer.body.contains(names), "\(label): \(answer.status) \(answer.body.prefix(200))")
        }
    }

    @Test("a connection that sends nothing, and one that sends a byte at a time, are answered 408 and closed after 10 seconds")
    func idle() throws {
        let folder = try Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let opened = Date()
        let silent = try RawConnection(port: server.port, timeout: 25)
        let trickle = try RawConnection(port: server.port, timeout: 25)
        let request = Array("GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n".utf8)
        let sender = DispatchGroup()
        DispatchQueue.global().async(group: sender) {
            // Slower than the whole head would need to arrive, and longer than the test waits.
            for byte in request + Array(repeating: UInt8(ascii: "x"), count: 100) {
                guard trickle.write([byte]) else { return }
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        let quiet = silent.answer()
        let silentFor = Date().timeIntervalSince(opened)
        #expect(quiet.closed && quiet.status == 408, "the silent connection: \(quiet.status) \(quiet.body)")
        #expect(silentFor >= 9.5 && silentFor < 20, "closed after \(silentFor) s")
        let answer = trickle.answer()
        let trickledFor = Date().timeIntervalSince(opened)
        #expect(answer.closed && answer.status == 408, "the trickle: \(answer.status) \(answer.body)")
        #expect(trickledFor >= 9.5 && trickledFor < 20, "answered after \(trickledFor) s")
        sender.wait()
    }

    @Test("while clients send huge heads, slowly or at once, a proper request is answered within a few seconds")
    func othersGoOn() throws {
        let folder = try Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let hostile = DispatchGroup()
        let started = Date()
        let head = Array("GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Pad: ".utf8)
        // Two that send a header a kilobyte at a time, for up to six seconds.
        var slow: [RawConnection] = []
        for _ in 0..<2 {
            let connection = try RawConnection(port: server.port, timeout: 10)
            slow.append(connection)
            DispatchQueue.global().async(group: hostile) {
                guard connection.write(head) else { return }
                let chunk = [UInt8](repeating: UInt8(ascii: "d"), count: 1024)
                while Date().timeIntervalSince(started) < 6, connection.write(chunk) { Thread.sleep(forTimeInterval: 0.05) }
            }
        }
        // Two that send megabytes as fast as they can: a request line and a header line.
        for first in [Array("GET /".utf8), head] {
            let connection = try RawConnection(port: server.port, timeout: 10)
            DispatchQueue.global().async(group: hostile) {
                guard connection.write(first) else { return }
                let chunk = [UInt8](repeating: UInt8(ascii: "e"), count: 1 << 16)
                for _ in 0..<256 where connection.write(chunk) {}
            }
        }
        Thread.sleep(forTimeInterval: 0.5)
        let asked = Date()
        let answer = try server.send("GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", timeout: 5)
        #expect(answer.status == 200 && answer.body.contains("<!DOCTYPE html>"), "\(answer.status)")
        #expect(Date().timeIntervalSince(asked) < 5)
        #expect(hostile.wait(timeout: .now() + 30) == .success)
        for connection in slow {
            #expect(connection.answer().status == 431)
        }
    }
}
