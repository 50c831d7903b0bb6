import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The drivers alive, by process group, so that interrupting the tool (Ctrl-C, a kill by
/// SIGTERM, a closed terminal) ends them and the children they fork too: each driver leads
/// a group of its own, which the terminal's signal does not reach, and a child judging a
/// mutant that never ends would otherwise run on. A kill by SIGKILL cannot be caught.
public enum LiveDrivers {
    static let capacity = 256
    /// Read by the signal handler without a lock (reading a slot and `kill` are all it does);
    /// written under `writers`. 0 is a free slot.
    nonisolated(unsafe) static let groups: UnsafeMutablePointer<pid_t> = {
        let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        return slots
    }()
    private static let writers = Mutex<Void>(())

    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// What each of `signals` did before (for the handler to hand the signal on to).
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        saved.initialize(repeating: sigaction(), count: signals.count)
        return saved
    }()

    /// Installed with the first driver, only for signals not ignored (a run under nohup keeps
    /// ignoring SIGHUP). The handler kills the drivers, puts back what the signal did before
    /// and raises it again: by default the tool then ends as interrupted.
    private static let handlers: Void = {
        _ = groups
        for (i, signalNumber) in signals.enumerated() {
            sigaction(signalNumber, nil, previous + i)
            if unsafeBitCast(previous[i].__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                LiveDrivers.killAll()
                for (i, signalNumber) in LiveDrivers.signals.enumerated() where signalNumber == received {
                    sigaction(received, LiveDrivers.previous + i, nil)
                }
                raise(received)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
    }()

    /// Installs the handlers now and lets the calling thread (the command's main thread,
    /// there for the whole run) take the signals even if its parent started it with them
    /// blocked, as a process started from another program's worker thread may be.
    public static func handleInterrupts() {
        _ = handlers
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in signals { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    static func add(_ group: pid_t) {
        _ = handlers
        writers.withLock { _ in
            if let free = (0..<capacity).first(where: { groups[$0] == 0 }) { groups[free] = group }
        }
    }

    static func remove(_ group: pid_t) {
        writers.withLock { _ in
            for slot in 0..<capacity where groups[slot] == group { groups[slot] = 0 }
        }
    }

    /// Kills every live driver's group (async-signal-safe: slots read, `kill` called).
    static func killAll() {
        for slot in 0..<capacity {
            let group = groups[slot]
            if group > 0 { Glibc.kill(-group, SIGKILL) }
        }
    }
}

/// One driver process, spoken to in JSON lines; reads time out, so a mutant that hangs is
/// stopped by its deadline, and a process that dies by a signal is told apart from one
/// that answered. One thread uses a process at a time.
public final class DriverProcess: @unchecked Sendable {
    public enum ReadResult {
        case line([String: Any])
        /// The deadline passed with no line.
        case timedOut
        /// The process ended; `signal` when a signal ended it (a crash, or our kill).
        case ended(status: Int32, signal: Int32?)
    }

    public let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var reaped: (Int32, Int32?)?

    /// Starts `executable` with `arguments`; its standard error goes to `errorLog`.
    /// `environment`: variables set for the driver beside this process's own.
    public init(executable: String, arguments: [String], errorLog: String, environment extra: [String: String] = [:]) throws {
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw MutationError.driver("cannot make pipes: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        for fd in [toChild[0], toChild[1], fromChild[0], fromChild[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        // A mutant that traps should die at once: the runtime's backtracer would spend seconds
        // symbolicating (and count against the time limit).
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { _, new in new }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        // Its own process group: a kill reaches the children it forks for each piece of work.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw MutationError.driver("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        LiveDrivers.add(child)
        // A driver that died must not kill us with SIGPIPE when we write to it.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        kill()
        close(input)
        close(output)
    }

    /// Sends one request line; false when the process is gone.
    @discardableResult
    public func send(_ object: [String: Any]) -> Bool {
        guard var data = try? JSONSerialization.data(withJSONObject: object) else { return false }
        data.append(UInt8(ascii: "\n"))
        return data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = write(input, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    /// The next line, or what happened instead before `deadline`.
    public func read(until deadline: ContinuousClock.Instant) -> ReadResult {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
                return .line(object)
            }
            let left = deadline - .now
            if left <= .zero { return .timedOut }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ms = Int32(min(Double(Int32.max), max(1, left.seconds * 1000)))
            let ready = poll(&poller, 1, ms)
            if ready < 0 { if errno == EINTR { continue }; return ended() }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = Glibc.read(output, &chunk, chunk.count)
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return ended() }
            if n == 0 { return ended() }
            buffer += chunk[..<n]
        }
    }

    /// Kills the process and its children (SIGKILL to its group) and reaps it: `ended` does both.
    public func kill() {
        _ = ended()
    }

    /// Ends the process's group and waits for the process: (exit status, terminating signal).
    private func ended() -> ReadResult {
        if let reaped { return .ended(status: reaped.0, signal: reaped.1) }
        // Before reaping, while the ended driver still holds its process ID: a child it
        // left (judging a mutant that never ends) goes with it, and the interrupt handler
        // forgets the group before the ID can be another's.
        Glibc.kill(-pid, SIGKILL)
        LiveDrivers.remove(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        let result: (Int32, Int32?) = signal == 0 ? ((status >> 8) & 0xff, nil) : (0, signal)
        reaped = result
        return .ended(status: result.0, signal: result.1)
    }
}
