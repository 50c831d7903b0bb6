import Foundation
import PopoverImage
import TestSupport
import Testing

/// Every input the fuzzers (scripts/fuzz) ever crashed on, kept under
/// Tests/FileTests/.fuzz-crashers/<target>/, replayed through the same checks by the
/// fuzz targets' replayers (a plain build makes FuzzPNG and FuzzLayout replay files
/// instead of fuzzing). Each replay runs in its own process, so a crash fails one test
/// instead of ending the suite. Files named `known-*` are bugs not fixed yet: their crash
/// is expected (a known issue), and the test says so once they stop crashing.
@Suite("Fuzz crashers replayed")
struct FuzzReplayTests {
    static let crashers: String = {
        let here = "\(#filePath)"
        return String(here[..<here.lastIndex(of: "/")!]) + "/.fuzz-crashers"
    }()

    /// (target, file) for every kept crasher.
    static let inputs: [(String, String)] = ["FuzzPNG", "FuzzLayout"].flatMap { target in
        let folder = crashers + "/" + target
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.sorted().map { (target, folder + "/" + $0) }
    }

    /// The replayer built beside the test bundle.
    static func replayer(_ target: String) -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let path = (exe as NSString).deletingLastPathComponent + "/" + target
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func replay(_ target: String, _ files: [String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(replayer(target), "\(target) was not built"))
        process.arguments = files
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        try await runToExit(process)
        return process.terminationStatus
    }

    /// With none found the replay below would run no cases and pass without checking
    /// anything; the repository keeps crashers, so finding none means they went missing.
    @Test("the kept crashers are found")
    func crashersFound() {
        #expect(!Self.inputs.isEmpty, "no crashers under \(Self.crashers)/FuzzPNG or /FuzzLayout: nothing would be replayed")
    }

    @Test("each kept crasher runs clean through its target's checks", arguments: inputs)
    func replayCrasher(target: String, file: String) async throws {
        let name = (file as NSString).lastPathComponent
        if name.hasPrefix("known-") {
            await withKnownIssue("\(target) \(name): a known crash, not fixed yet") { () async throws in
                let status = try await Self.replay(target, [file])
                #expect(status == 0)
            }
        } else {
            #expect(try await Self.replay(target, [file]) == 0, "\(target) crashed on \(name)")
        }
    }

    @Test("the replayers themselves work: the PNG fixtures and hostile files replay clean")
    func fixturesReplay() async throws {
        let fixtures = (try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory)).sorted()
        try #require(fixtures.count > 10)
        try #require(Self.replayer("FuzzPNG") != nil, "FuzzPNG was not built beside the tests")
        // One process for all of them; it prints "ok FILE" for each and stops at a crash.
        #expect(try await Self.replay("FuzzPNG", fixtures.map(Fixtures.path)) == 0)
    }
}
