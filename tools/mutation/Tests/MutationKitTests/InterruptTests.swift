import Foundation
import Synchronization
import Testing

/// Interrupting `popover-mutants` (the built command, on a copy of the fixture) while a
/// driver's child judges a mutant that never ends.
@Suite("Interrupting the tool", .serialized)
struct InterruptTests {
    /// One copy of the fixture for both tests, taken in turn: the second finds the schemata
    /// the first built (a build of the fixture is most of either test's time).
    static let work: String = {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("mutation-interrupt-\(getpid())").path
        try? FileManager.default.removeItem(atPath: work)
        try? FileManager.default.copyItem(atPath: FixtureRun.fixture, toPath: work)
        atexit { try? FileManager.default.removeItem(atPath: InterruptTests.work) }
        return work
    }()

    /// The process IDs whose parent is `parent`, from /proc.
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After "pid (name) state ": the parent's ID.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    /// Whether `pid` has ended: gone, or a zombie nobody has reaped yet.
    static func ended(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    /// Polls `condition` until it holds or `seconds` pass: what the processes do is seen
    /// only in /proc.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// The tool running on a copy of the fixture, judging line 19's mutants, which never end
    /// (`i += 1` made `i -= 1`, removed, or `i += 0`); with a 120 s margin the tool itself
    /// stops none of them while a test looks. `body` gets the tool, its driver and the
    /// driver's child judging a mutant; whatever happens in it, nothing is left running.
    static func whileAMutantHangs(_ body: (Process, _ driver: pid_t, _ judging: pid_t) throws -> Void) throws {
        let tool = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("popover-mutants").path
        try #require(FileManager.default.isExecutableFile(atPath: tool), "\(tool): not built (swift build --build-tests)")
        let work = Self.work
        try #require(FileManager.default.fileExists(atPath: work + "/Package.swift"), "\(work): the fixture was not copied")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--root", work, "--driver", work + "/Driver", "--configuration", "debug",
                             "--file", "Sources/Shapes/Shapes.swift", "--line", "19", "--jobs", "1", "--no-search",
                             "--time-margin", "120"]
        // What the tool says: judging starts after the line that counts the probed mutants,
        // so a driver's child seen after it judges a mutant (coverage's children are gone).
        let said = Mutex("")
        let output = Pipe()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            said.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var driver: pid_t = 0, judging: pid_t = 0
        defer {
            if judging > 0 && !Self.ended(judging) { kill(judging, SIGKILL) }
            if driver > 0 && !Self.ended(driver) { kill(-driver, SIGKILL) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        // The driver, once it has forked a child for a mutant of line 19: the child spins.
        let started = Self.eventually(within: 300) {
            guard said.withLock({ $0.contains("watched by a probe") }),
                  let d = Self.children(of: process.processIdentifier).first(where: {
                      (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("mutation-driver") == true
                  }) else { return false }
            driver = d
            guard let child = Self.children(of: d).first, !Self.ended(child) else { return false }
            judging = child
            return true
        }
        try #require(started, "no driver judging a mutant of line 19 appeared")
        try #require(!Self.ended(driver) && !Self.ended(judging), "the driver or its child ended before the test acted")
        try body(process, driver, judging)
    }

    @Test("Ctrl-C while a mutant hangs: the tool ends as interrupted, and its driver and the child judging the mutant end too")
    func interruptEndsDrivers() throws {
        try Self.whileAMutantHangs { process, driver, judging in
            kill(process.processIdentifier, SIGINT)
            #expect(Self.eventually(within: 10) { Self.ended(driver) && Self.ended(judging) },
                    "the driver \(driver) or its child \(judging) still runs after the tool was interrupted")
            // Should they run on, they end here: until then the tool's end may not be seen
            // (they hold what Foundation watches it by).
            if !Self.ended(driver) { kill(-driver, SIGKILL) }
            #expect(Self.eventually(within: 30) { !process.isRunning }, "the tool still runs after Ctrl-C")
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT,
                    "ended by \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        }
    }

    @Test("the tool killed outright (SIGKILL, which it cannot catch) while a mutant hangs: its driver and the child judging the mutant end with it")
    func killEndsDrivers() throws {
        try Self.whileAMutantHangs { process, driver, judging in
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(Self.eventually(within: 10) { Self.ended(driver) && Self.ended(judging) },
                    "the driver \(driver) or its child \(judging) still runs after the tool was killed")
        }
    }
}
