import Foundation
import PopoverFiles
import PopoverHarness
import PopoverImage
import Testing
import TestSupport

/// The review loop end to end, as a person runs it: a golden perturbed, a check that
/// fails, the change accepted in each of the three ways, and a check that passes. The
/// page itself is driven in headless Chromium through Playwright
/// (Tests/Browser/report_in_chromium.py), installed by scripts/test.
@Suite("Review: from a failing run to committed goldens", .serialized,
       .enabled(if: popoverGoldensExecutable != nil || runningOnCI, "popover-goldens was not built beside the tests"))
struct ReviewFlowTests {
    static let filter = "path-slate/up/popover8"

    /// A project folder holding the committed goldens of the filter's cases, two of them
    /// perturbed, and the failing check's report.
    func failingWorkspace() async throws -> (folder: TemporaryFolder, changed: [String]) {
        let folder = TemporaryFolder("review-flow")
        let ids = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: Self.filter).map(\.id)
        try copyCommittedGoldens(ids, to: folder.file("Goldens"))
        try linkCommittedSkins(into: folder.path)
        let changed = Array(ids.prefix(2))
        for id in changed {
            var image = try PNGFile.read(path: folder.file("Goldens/\(id).png"))
            image.pixels.replaceSubrange(0..<8, with: [200, 10, 10, 255, 200, 10, 10, 255])
            try PNGFile.write(image, to: folder.file("Goldens/\(id).png"))
        }
        let check = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        try #require(check.status == 1, "the perturbed check should fail: \(check.stdout)")
        return (folder, changed)
    }

    func checkPasses(_ folder: TemporaryFolder) async throws {
        let check = try await runTool(["check", "--filter", Self.filter, "--record", "never"], in: folder.path)
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test("accept by ID and by pattern; a refusal exits 2 naming the case; undo puts the golden back")
    func commandLine() async throws {
        let (folder, changed) = try await failingWorkspace()
        defer { folder.remove() }
        let before = try FileIO.readBytes(path: folder.file("Goldens/\(changed[0]).png"))
        let one = try await runTool(["accept", changed[0]], in: folder.path)
        #expect(one.status == 0 && one.stdout.contains("accepted  \(changed[0])"), "\(one.stdout)\(one.stderr)")
        let undo = try await runTool(["accept", "--undo", changed[0]], in: folder.path)
        #expect(undo.status == 0 && undo.stdout.contains("restored"), "\(undo.stdout)\(undo.stderr)")
        #expect(try FileIO.readBytes(path: folder.file("Goldens/\(changed[0]).png")) == before)
        // The second golden edited since the run: refused, named, exit 2; the first accepted.
        try PNGFile.write(RGBAImage(width: 2, height: 2), to: folder.file("Goldens/\(changed[1]).png"))
        let mixed = try await runTool(["accept", Self.filter + "*@1x", changed[1]], in: folder.path)
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("REFUSED \(changed[1]): Goldens/\(changed[1]).png is no longer the golden"), "\(mixed.stderr)")
        #expect(mixed.stdout.contains("accepted  \(changed[0])"))
        #expect(try PNGFile.read(path: folder.file("Goldens/\(changed[1]).png")) == RGBAImage(width: 2, height: 2))
    }

    @Test("the static report in Chromium: views, zoom, filters, keys, accept toggles, export; accept --from applies it",
          .enabled(if: Browser.available || runningOnCI, "Chromium and Playwright for Python are not installed (scripts/install-dependencies --browser)"))
    func staticReport() async throws {
        try #require(Browser.available, "Chromium and Playwright for Python must be installed on CI (scripts/install-dependencies --browser)")
        let (folder, changed) = try await failingWorkspace()
        defer { folder.remove() }
        let download = folder.file("downloads/approvals.json")
        let driven = try await Browser.run(["static", folder.file("Reports"), download] + changed)
        #expect(driven.status == 0, "\(driven.stderr)")
        let apply = try await runTool(["accept", "--from", download], in: folder.path)
        #expect(apply.status == 0, "\(apply.stdout)\(apply.stderr)")
        #expect(changed.allSatisfy { apply.stdout.contains("accepted  \($0)") })
        try await checkPasses(folder)
    }

    @Test("live review in Chromium: Accept changes the golden on disk, Undo restores it; then Accept for real and the check passes",
          .enabled(if: Browser.available || runningOnCI, "Chromium and Playwright for Python are not installed (scripts/install-dependencies --browser)"))
    func liveReview() async throws {
        try #require(Browser.available, "Chromium and Playwright for Python must be installed on CI (scripts/install-dependencies --browser)")
        let (folder, changed) = try await failingWorkspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        defer { server.stop() }
        let driven = try await Browser.run(["live", server.url, folder.file("Goldens/\(changed[0]).png"), changed[0]])
        #expect(driven.status == 0, "\(driven.stderr)")
        // Accept both through the API the buttons use, then check.
        let accept = try server.post("/accept", body: #"{"ids": ["\#(changed[0])", "\#(changed[1])"]}"#)
        #expect(accept.status == 200, "\(accept.body)")
        try await checkPasses(folder)
    }

    @Test("review prints its address first, serves only 127.0.0.1, and stops cleanly on Ctrl-C")
    func reviewProcess() async throws {
        let (folder, _) = try await failingWorkspace()
        defer { folder.remove() }
        let server = try ReviewProcess(in: folder.path)
        #expect(server.firstLine.hasPrefix("http://127.0.0.1:") && server.firstLine.contains("/?token="))
        #expect(try server.get("/?token=\(server.token)").status == 200)
        #expect(try server.get("/").status == 403)
        // A body of unstated length is not read at all, token or not.
        let chunked = try server.send("POST /accept?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "5\r\n{\"ids\r\n0\r\n\r\n")
        #expect(chunked.status == 411, "\(chunked.status) \(chunked.body)")
        // Nothing listens on the machine's other addresses at that port.
        for address in ReviewProcess.otherAddresses() {
            #expect(!ReviewProcess.connects(address, server.port), "reachable on \(address)")
        }
        let status = server.interrupt()
        #expect(status == 0, "review exited \(status): \(server.output)")
    }
}
