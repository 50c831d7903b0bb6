#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A program run to completion as a child process, measured as the kernel counts it:
/// wall time, the child's own CPU time and its peak resident memory (from `wait4`, so
/// each figure is that one process's, whatever else this process has run).
public struct ChildRun: Sendable, Codable {
    public var status: Int32
    public var wallSeconds: Double
    public var cpuSeconds: Double
    public var peakMiB: Double

    /// Runs `executable` with `arguments` in `directory`, standard output and error to
    /// /dev/null, `environment` added to this process's.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String] = [:]) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let previous = FileManager.default.currentDirectoryPath
        // posix_spawn starts the child in our working folder: change it around the call
        // (the bench runs one child at a time).
        if let directory, !FileManager.default.changeCurrentDirectoryPath(directory) {
            throw BenchError("\(directory): cannot run \(executable) there: the folder cannot be entered")
        }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("\(executable): cannot start: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let (s, a) = (ContinuousClock.now - start).components
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildRun(status: exit, wallSeconds: Double(s) + Double(a) * 1e-18, cpuSeconds: cpu,
                        peakMiB: Double(usage.ru_maxrss) / 1024)
    }

    /// The best of `repetitions` runs by wall time (the least disturbed), each prepared by
    /// `before` (which is not timed).
    public static func best(_ repetitions: Int, before: () throws -> Void = {}, _ body: () throws -> ChildRun) throws -> ChildRun {
        var best: ChildRun?
        for _ in 0..<max(1, repetitions) {
            try before()
            let run = try body()
            if best == nil || run.wallSeconds < best!.wallSeconds { best = run }
        }
        return best!
    }
}

/// A measurement that could not be made; the message says why.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
