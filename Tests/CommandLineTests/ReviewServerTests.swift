import Dispatch
import Foundation
import PopoverFiles
import PopoverHarness
import Testing
import TestSupport

/// `popover-goldens review` as a process, sent what no browser would, and kept busy in
/// ways the audit found: heads without end, connections held open or left unread, and
/// accepts that wait. Each hostile connection is refused or closed, and none of them holds
/// up a proper request: asserted by the order things happen in, never by how long.
///
/// The bounds the server states (docs/review.md): at most 8192 bytes before the gate
/// admits a body, the request within 10 seconds of connecting, each part of the answer
/// taken within 10 seconds.
@Suite("The review server against clients that are not browsers",
       .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct ReviewServerTests {
    static let filter = "path-slate/up/popover8"

    /// A project folder holding the committed goldens of the filter's cases, two of them
    /// perturbed, and the failing check's report.
    static func workspace() async throws -> (folder: TemporaryFolder, changed: [String]) {
        let folder = TemporaryFolder("review-server")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        let changed = Array(ids.prefix(2))
        for id in changed {
            var image = try PNGFile.read(path: folder.file("Goldens/\(id).png"))
            image.pixels.replaceSubrange(0..<4, with: [200, 10, 10, 255])
            try PNGFile.write(image, to: folder.file("Goldens/\(id).png"))
        }
        let check = try await runTool(["check", "--filter", filter, "--record", "never"], in: folder.path)
        try #require(check.status == 1, "the perturbed check should fail: \(check.stdout)\(check.stderr)")
        return (folder, changed)
    }

    static func page(_ server: ReviewProcess) -> String {
        "GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
    }

    static func accept(_ server: ReviewProcess, _ id: String) -> String {
        let body = #"{"ids": ["\#(id)"]}"#
        return "POST /accept?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// Every file under `folder` with its bytes.
    static func files(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for relative in FileManager.default.subpaths(atPath: folder) ?? [] {
            if let data = FileManager.default.contents(atPath: folder + "/" + relative) { out[relative] = data }
        }
        return out
    }

    @Test("a head longer than the bound is not read: the connection closes without an answer, nothing changes, and others are served")
    func oversizedHeads() async throws {
        let (folder, _) = try await Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let goldens = Self.files(folder.file("Goldens"))
        // Just within: a head of 8000 bytes is served.
        let start = "GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Pad: "
        let within = start + String(repeating: "p", count: 8000 - start.utf8.count - 4) + "\r\n\r\n"
        #expect(within.utf8.count == 8000)
        #expect(try server.send(within).status == 200)
        // The audit's: a 1 MiB request line, and a 16 MiB header line, sent as fast as can be.
        let line = Array("GET /?token=\(server.token)&pad=".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let header = Array("GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Pad: ".utf8)
            + [UInt8](repeating: UInt8(ascii: "b"), count: 16 << 20)
        for hostile in [line, header] {
            let connection = try RawConnection(port: server.port, timeout: 60)
            let sender = DispatchGroup()
            DispatchQueue.global().async(group: sender) { connection.write(hostile) }
            let answer = connection.answer()
            #expect(answer.closed && answer.status == 0, "\(answer.status) \(answer.body.prefix(200))")
            sender.wait()
        }
        #expect(try server.send(Self.page(server)).status == 200, "the server still answers")
        #expect(Self.files(folder.file("Goldens")) == goldens)
    }

    @Test("framing that cannot be read one way only is refused or closed, and accepts nothing")
    func malformed() async throws {
        let (folder, changed) = try await Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let goldens = Self.files(folder.file("Goldens"))
        let post = "POST /accept?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n"
        let body = #"{"ids": ["\#(changed[0])"]}"#
        let cases: [(label: String, request: String)] = [
            ("negative length", post + "Content-Length: -1\r\n\r\n" + body),
            ("length not a number", post + "Content-Length: abc\r\n\r\n" + body),
            ("length with a sign", post + "Content-Length: +\(body.utf8.count)\r\n\r\n" + body),
            ("length and chunks", post + "Content-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n" + body),
            ("chunks", post + "Transfer-Encoding: chunked\r\n\r\n\(String(body.utf8.count, radix: 16))\r\n\(body)\r\n0\r\n\r\n"),
            ("no version", "GET /?token=\(server.token)\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"),
            ("a foreign Host after this server's", "GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Host: evil.example\r\n\r\n"),
        ]
        for (label, request) in cases {
            let answer = try server.send(request)
            #expect(answer.status == 0 || (400..<500).contains(answer.status), "\(label): \(answer.status) \(answer.body.prefix(200))")
        }
        #expect(Self.files(folder.file("Goldens")) == goldens, "a malformed request changed a golden")
        #expect(try server.send(Self.page(server)).status == 200)
    }

    @Test("a connection that sends nothing, and one whose head never ends, are closed by the server; others are served meanwhile")
    func idle() async throws {
        let (folder, _) = try await Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let silent = try RawConnection(port: server.port, timeout: 60)
        let unfinished = try RawConnection(port: server.port, timeout: 60)
        unfinished.write(Array(Self.page(server).utf8.dropLast(2)))  // without the empty line
        #expect(try server.send(Self.page(server)).status == 200)
        #expect(!silent.closedByServer && !unfinished.closedByServer)
        for connection in [silent, unfinished] {
            let answer = connection.answer()
            #expect(answer.closed && answer.status == 0, "\(answer.status) \(answer.body.prefix(200))")
        }
    }

    @Test("a page is answered while accepts wait for the report's lock, and the accepts go ahead once it is free")
    func answeredDuringAccept() async throws {
        let (folder, changed) = try await Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        // Holding the report's lock holds every accept at the point where it takes it. More
        // accepts than the server has threads: none of them may hold up the page.
        let lock = try FileLock.acquire(folder.file(".Reports.lock"))
        let accepts = try (0..<(ProcessInfo.processInfo.activeProcessorCount + 2)).map { _ in
            let connection = try RawConnection(port: server.port, timeout: 120)
            connection.write(Array(Self.accept(server, changed[0]).utf8))
            connection.endSending()
            return connection
        }
        try Self.waitForLockWaiter(on: folder.file(".Reports.lock"), unless: { accepts.contains(where: \.hasAnswer) })
        let page = try server.send(Self.page(server))
        #expect(page.status == 200 && page.body.contains("<!DOCTYPE html>"), "\(page.status)")
        #expect(accepts.allSatisfy { !$0.hasAnswer }, "an accept answered while the report's lock was held")
        lock.release()
        let answers = accepts.map { $0.answer() }
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map { "\($0.status) \($0.body)" })")
        #expect(answers.filter { $0.body.contains(#""accepted":["\#(changed[0])"]"#) }.count == 1)
    }

    /// Waits until some process waits for the lock on `path` (/proc/locks lists a waiter
    /// with "->" before its entry), or fails once `unless` holds.
    static func waitForLockWaiter(on path: String, unless: () -> Bool) throws {
        var info = stat()
        try #require(stat(path, &info) == 0)
        let inode = ":\(info.st_ino) "
        while true {
            try #require(!unless(), "no accept waited for the report's lock")
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            if locks.split(separator: "\n").contains(where: { $0.contains("->") && $0.contains(inode) }) { return }
            sched_yield()
        }
    }

    @Test("a page is answered while 1,500 page requests are left unread, all of them still open")
    func answeredDuringFlood() async throws {
        let (folder, _) = try await Self.workspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let flood = try (0..<1500).map { _ in
            let connection = try RawConnection(port: server.port, timeout: 60)
            connection.write(Array(Self.page(server).utf8))
            return connection
        }
        let page = try server.send(Self.page(server))
        #expect(page.status == 200 && page.body.contains("<!DOCTYPE html>"), "\(page.status)")
        #expect(flood.filter(\.closedByServer).isEmpty, "the server closed unread connections before answering")
    }
}
