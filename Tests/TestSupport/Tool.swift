import Foundation

/// The popover-goldens executable built with the tests: it sits in the same products
/// folder as the test bundle (`swift build --build-tests` and `swift test` build every
/// product). Nil when it is not there.
public let popoverGoldensExecutable: String? = {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append((exe as NSString).deletingLastPathComponent)
    }
    candidates.append(Bundle.main.bundleURL.path)
    candidates.append((CommandLine.arguments[0] as NSString).deletingLastPathComponent)
    for folder in candidates {
        // The bundle may be a folder (macOS .xctest) inside the products folder.
        for dir in [folder, (folder as NSString).deletingLastPathComponent] {
            let path = dir + "/popover-goldens"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
    }
    return nil
}()

/// What a run of a program did.
public struct ToolRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public struct ToolMissing: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// Runs popover-goldens with `arguments` in `directory` and waits for it. GOLDEN_RECORD,
/// CI, the CIs' shard and summary variables and POPOVER_GOLDENS_CACHE are cleared (and the cache pointed at a fresh folder
/// unless `environment` says otherwise) so the caller's environment cannot change a
/// default.
public func runTool(_ arguments: [String], in directory: String? = nil,
                    environment extra: [String: String] = [:]) async throws -> ToolRun {
    guard let executable = popoverGoldensExecutable else {
        throw ToolMissing(description: "popover-goldens was not built beside the tests (swift build --build-tests)")
    }
    return try await runProgram(executable, arguments, in: directory, environment: extra)
}

/// Runs any program and waits for it, with the same cleaned environment as `runTool`.
public func runProgram(_ executable: String, _ arguments: [String], in directory: String? = nil,
                       environment extra: [String: String] = [:]) async throws -> ToolRun {
    let process = toolProcess(executable, arguments, in: directory, environment: extra)
    let out = TemporaryFolder("tool-output")
    defer { out.remove() }
    _ = FileManager.default.createFile(atPath: out.file("stdout"), contents: nil)
    _ = FileManager.default.createFile(atPath: out.file("stderr"), contents: nil)
    let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: out.file("stdout")))
    let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: out.file("stderr")))
    process.standardOutput = stdout
    process.standardError = stderr
    try await runToExit(process)
    try stdout.close()
    try stderr.close()
    return ToolRun(status: process.terminationStatus,
                   stdout: (try? String(contentsOfFile: out.file("stdout"), encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: out.file("stderr"), encoding: .utf8)) ?? "")
}

/// Starts `process` and suspends until it has exited. Suspends rather than blocks: Swift
/// Testing runs tests on as many threads as there are cores, and a test blocked on a child
/// process would hold one of them idle (docs/performance.md, "The test suite").
public func runToExit(_ process: Process) async throws {
    // A process that fails to start never calls its termination handler.
    let notStarted: (any Error)? = await withCheckedContinuation { waiting in
        process.terminationHandler = { _ in waiting.resume(returning: nil) }
        do { try process.run() } catch { waiting.resume(returning: error) }
    }
    if let notStarted { throw notStarted }
}

/// Starts every one of `processes` at once and suspends until all have exited.
public func runToExit(_ processes: [Process]) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for process in processes { group.addTask { try await runToExit(process) } }
        try await group.waitForAll()
    }
}

/// A process for `executable` with the cleaned environment, not yet started.
public func toolProcess(_ executable: String, _ arguments: [String], in directory: String?,
                        environment extra: [String: String] = [:]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var environment = ProcessInfo.processInfo.environment
    environment["GOLDEN_RECORD"] = nil
    environment["CI"] = nil
    environment["GOLDEN_SHARD"] = nil
    environment["GOLDEN_SHARD_TIMINGS"] = nil
    // A CI's own variables would change what `--shard auto`, annotations and job
    // summaries do: tests say what they want.
    for name in ["CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB",
                 "BUILDKITE_PARALLEL_JOB_COUNT", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"] {
        environment[name] = nil
    }
    // One cache per workspace, as one person's machine has: runs in the same folder share it.
    environment["POPOVER_GOLDENS_CACHE"] = directory.map { $0 + "/.popover-goldens-cache" }
        ?? testProcessFolder + "/tool-cache-\(UUID().uuidString.prefix(8))"
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    return process
}

/// Runs a shell command line; returns its exit status (output discarded).
@discardableResult
public func shell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Whether a program is on the PATH.
public func isInstalled(_ program: String) -> Bool {
    shell("command -v \(program) >/dev/null 2>&1") == 0
}

extension Duration {
    /// The duration in seconds, for arithmetic with delays.
    public var inSeconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
