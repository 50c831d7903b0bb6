import Foundation
import Synchronization

/// Options of one analysis run.
public struct AnalysisOptions: Sendable {
    /// Worker processes (each judges one mutant at a time).
    public var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Name at most this many killing cases; 0 counts every selected case.
    public var killsToName = 3
    /// Inputs drawn with each survivor, in the shipped skins' space and in other artwork's.
    public var searchBudget = 200
    public var artworkBudget = 75
    public var search = true
    /// A tolerance policy for the second pass (nil: the committed one, if any).
    public var tolerancesFile: String?
    public var committedTolerances: String?
    /// Address-space limit of each driver, in MiB.
    public var memoryMB = 4096
    /// The time limit: factor x the original's time for the mutant's cases + the constant.
    /// A case takes at most about 0.1 s on this project's machine, so a second over its
    /// limit is a hang; each of the 35 time-outs of a full run waits the constant out.
    public var timeFactor = 1.25
    public var timeConstant = 1.0
    /// A survivor's whole search; each input of it has `timeConstant` (its drawing a hang after that).
    public var searchSeconds = 120.0

    public init() {}
}

/// One row of coverage: a case, its unmutated cost and verdict, the constructs it runs and
/// the mutants it infects (as the driver's hex bit sets).
public struct CaseCoverage: Sendable, Codable {
    public var id: String
    public var seconds: Double
    /// What the driver says the case costs by a measure the same on every run (the popover
    /// driver: its pixels); nil when it does not say.
    public var cost: Double? = nil
    public var verdict: String
    public var detail: String
    public var reached: String
    public var infected: String
    /// The mutants the checks cleared here: reached only inside checked calls, each of which
    /// gave the original's result under them (nil when nothing was checked).
    public var cleared: String? = nil
    /// How many times the checks evaluated a call under a mutant.
    public var checks: Int? = nil

    public var reachedSet: [Int] { HexBits.members(reached) }
    public var infectedSet: [Int] { HexBits.members(infected) }
    public var clearedSet: [Int] { HexBits.members(cleared ?? "") }
}

public struct CoverageTable: Sendable, Codable {
    public var key: String
    public var cases: [CaseCoverage]
    /// Constructs run, and mutants infected, while the driver sets the cases up (catalog, skins).
    public var setupReached: [Int]
    public var setupInfected: [Int]
    /// How long the driver took to start and set up.
    public var setupSeconds: Double
}

/// The driver's bit sets: hex, bit k of byte k / 8.
public enum HexBits {
    public static func members(_ hex: String) -> [Int] {
        func value(_ c: UInt8) -> Int { c >= 97 ? Int(c) - 87 : Int(c) - 48 }
        let utf8 = Array(hex.utf8)
        var out: [Int] = []
        var i = 0
        while i + 1 < utf8.count {
            let byte = value(utf8[i]) << 4 | value(utf8[i + 1])
            if byte != 0 { for bit in 0..<8 where byte & (1 << bit) != 0 { out.append(i / 2 * 8 + bit) } }
            i += 2
        }
        return out
    }
}

/// Runs the mutants on driver processes: coverage once, each mutant on the cases that run
/// its code (cheapest first, stopping after the first few kills), the tolerance pass over
/// killed mutants, and the search over survivors.
public final class Analysis: @unchecked Sendable {
    public let driver: String
    public let driverArguments: [String]
    public let scratch: String
    public let constructCount: Int
    public let options: AnalysisOptions
    public var log: @Sendable (String) -> Void = { _ in }
    /// Each case's unmutated time, and the driver's setup time (from coverage).
    var caseSeconds: [String: Double] = [:]
    var setupSeconds = 1.0

    /// The highest mutant ID (the size of the drivers' infection array).
    public var mutantCount = 0

    public init(driver: String, driverArguments: [String], scratch: String, constructCount: Int, options: AnalysisOptions) {
        self.driver = driver
        self.driverArguments = driverArguments
        self.scratch = scratch
        self.constructCount = constructCount
        self.options = options
    }

    /// Drivers started so far.
    public var driversStarted: Int { startCount.load(ordering: .relaxed) }
    private let startCount = Atomic<Int>(0)

    func start(environment: [String: String] = [:]) throws -> DriverProcess {
        startCount.add(1, ordering: .relaxed)
        return try DriverProcess(executable: driver,
                          arguments: driverArguments + ["--constructs", "\(constructCount)", "--mutants", "\(mutantCount)",
                                                      "--memory-mb", "\(options.memoryMB)"],
                          errorLog: scratch + "/driver-errors.log", environment: environment)
    }

    /// The coverage drivers' allocator when checks run: glibc's checking malloc, which keeps a
    /// guard byte past each block and aborts when a block is freed or grown with it
    /// overwritten. A mutant that writes past a buffer it allocates inside a checked call (a
    /// sweep sized one row short) then crashes in its check, as it may in a drawing, instead
    /// of returning the original's result from spoilt memory and being cleared.
    static let checkingAllocator = ["LD_PRELOAD": "libc_malloc_debug.so.0", "MALLOC_CHECK_": "3"]

    /// Reads lines until `done`; nil if the driver ended or timed out first. With `perInput`,
    /// each input the driver says it is `trying` must be done within that, too.
    func collect(_ process: DriverProcess, deadline: ContinuousClock.Instant, perInput: Duration? = nil,
                 onLine: ([String: Any]) -> Void = { _ in }) -> (done: [String: Any]?, failure: DriverProcess.ReadResult?) {
        var inputDeadline: ContinuousClock.Instant?
        while true {
            switch process.read(until: inputDeadline.map { min($0, deadline) } ?? deadline) {
            case .line(let object):
                if let error = object["error"] as? String {
                    log("driver: \(error)")
                    return (nil, .ended(status: -1, signal: nil))
                }
                if object["done"] != nil { return (object, nil) }
                if let perInput, object["trying"] != nil { inputDeadline = .now + perInput }
                onLine(object)
            case let other:
                return (nil, other)
            }
        }
    }

    // MARK: Coverage

    /// The coverage table, from the cache when `key` matches, else recorded on `jobs` drivers.
    /// `checks`: per mutant ID, how the checks treat it (see the driver's `mutation_check_prepare`),
    /// nil when no function is checked.
    public func coverage(key: String, checks: [Int]? = nil) throws -> CoverageTable {
        let file = scratch + "/coverage.json"
        if let data = FileManager.default.contents(atPath: file),
           let table = try? JSONDecoder().decode(CoverageTable.self, from: data), table.key == key {
            log("coverage: cached (\(table.cases.count) cases)")
            return table
        }
        let setupClock = ContinuousClock.now
        let environment = checks == nil ? [:] : Self.checkingAllocator
        let first = try start(environment: environment)
        guard first.send(["op": "hello"]) else { throw MutationError.driver("the driver did not start (see \(scratch)/driver-errors.log)") }
        let hello: [String: Any]
        switch first.read(until: .now + .seconds(300)) {
        case .line(let object): hello = object
        default: throw MutationError.driver("the driver did not answer (see \(scratch)/driver-errors.log)")
        }
        guard let ids = hello["cases"] as? [String] else {
            throw MutationError.driver("the driver's hello has no cases: \(hello["error"] ?? hello)")
        }
        let setupReached = hello["setupReached"] as? [Int] ?? []
        let setupInfected = hello["setupInfected"] as? [Int] ?? []
        let setup = (ContinuousClock.now - setupClock).seconds
        let clock = ContinuousClock.now
        let shares = (0..<options.jobs).map { j in stride(from: j, to: ids.count, by: options.jobs).map { ids[$0] } }
        let rows = Mutex<[CaseCoverage]>([])
        let failure = Mutex<String?>(nil)
        DispatchQueue.concurrentPerform(iterations: shares.count) { j in
            do {
                let process = j == 0 ? first : try start(environment: environment)
                var request: [String: Any] = ["op": "coverage", "cases": shares[j]]
                request["checks"] = checks
                process.send(request)
                let (done, failed) = collect(process, deadline: .now + .seconds(3600)) { object in
                    guard let id = object["case"] as? String else { return }
                    let row = CaseCoverage(id: id, seconds: object["seconds"] as? Double ?? 0,
                                           cost: (object["cost"] as? NSNumber)?.doubleValue, verdict: object["verdict"] as? String ?? "error",
                                           detail: object["detail"] as? String ?? "", reached: object["reached"] as? String ?? "",
                                           infected: object["infected"] as? String ?? "", cleared: object["cleared"] as? String,
                                           checks: object["checks"] as? Int)
                    rows.withLock { $0.append(row) }
                }
                if done == nil { failure.withLock { $0 = "coverage stopped: \(String(describing: failed))" } }
                process.kill()
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        if let message = failure.withLock({ $0 }) { throw MutationError.driver(message + " (see \(scratch)/driver-errors.log)") }
        let order = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        let table = CoverageTable(key: key, cases: rows.withLock { $0 }.sorted { order[$0.id]! < order[$1.id]! },
                                  setupReached: setupReached, setupInfected: setupInfected, setupSeconds: setup)
        log("coverage: \(table.cases.count) cases in \(String(format: "%.1f", (ContinuousClock.now - clock).seconds)) s")
        try? JSONEncoder().encode(table).write(to: URL(fileURLWithPath: file), options: .atomic)
        return table
    }

    // MARK: Judging

    /// What one mutant is judged on.
    public struct Job: Sendable {
        public var mutant: Mutant
        /// The cases it infects, in judging order.
        public var cases: [String]
        public var cost: Double
        public var rebuild: Bool
        /// The cases that run its construct (the infected ones among them).
        public var reaching = 0
    }

    /// The jobs for `mutants`: each on the cases (passing unmutated) it infects — for a
    /// mutant a probe watches, the cases where it changes a value; for any other, the cases
    /// that run its construct — and the checks did not clear, in the judging order
    /// (`priority`). A mutant that infects the setup is judged on cases set up under it (the
    /// driver adds the cases it changes and representatives).
    public static func jobs(for mutants: [Mutant], coverage: CoverageTable, probed: Set<Int> = []) -> [Job] {
        let rank = priority(coverage)
        let passing = coverage.cases.filter { $0.verdict == "same" }.sorted { rank[$0.id]! < rank[$1.id]! }
        var byConstruct: [Int: [CaseCoverage]] = [:], byMutant: [Int: [CaseCoverage]] = [:], cleared: [Int: Set<String>] = [:]
        for c in passing {
            for k in c.reachedSet { byConstruct[k, default: []].append(c) }
            for m in c.infectedSet { byMutant[m, default: []].append(c) }
            for m in c.clearedSet { cleared[m, default: []].insert(c.id) }
        }
        let setupReached = Set(coverage.setupReached), setupInfected = Set(coverage.setupInfected)
        return mutants.map { m in
            let watched = probed.contains(m.id)
            let rebuild = watched ? setupInfected.contains(m.id) : setupReached.contains(m.construct)
            var cases = (watched ? byMutant[m.id] : byConstruct[m.construct]) ?? []
            if let shown = cleared[m.id] { cases.removeAll { shown.contains($0.id) } }
            return Job(mutant: m, cases: cases.map(\.id), cost: cases.reduce(0) { $0 + $1.seconds }, rebuild: rebuild,
                       reaching: byConstruct[m.construct]?.count ?? 0)
        }
    }

    private let journals = Mutex<[String: FileHandle]>([:])

    /// One line per judged mutant in `<scratch>/judge.log`, and per searched survivor in
    /// `<scratch>/search.log`: what a slow run spends its time on.
    func journal(_ line: String, in name: String = "judge.log") {
        journals.withLock { handles in
            if handles[name] == nil {
                let path = scratch + "/" + name
                FileManager.default.createFile(atPath: path, contents: nil)
                handles[name] = FileHandle(forWritingAtPath: path)
            }
            handles[name]?.write(Data((line + "\n").utf8))
        }
    }

    /// Takes each case's cost and the setup's time from coverage, for the time limits.
    public func learnCosts(_ coverage: CoverageTable) {
        caseSeconds = Dictionary(uniqueKeysWithValues: coverage.cases.map { ($0.id, $0.seconds) })
        setupSeconds = coverage.setupSeconds
    }

    /// The order cases are judged in: first a run of cases each adding the most constructs
    /// not yet run per unit it costs (additional-coverage prioritisation), so the first
    /// few cases of any mutant differ in what they draw and a kill comes early; then the
    /// rest, cheapest first. The cost is the driver's own measure when it gives one for every
    /// case: measured times vary from run to run, and with them which of two failing cases
    /// comes first, so a mutant that traps on one and draws wrong pixels on the other was
    /// killed in one run and crashed in the next (27 mutants between runs 18 and 21).
    static func priority(_ coverage: CoverageTable, head: Int = 300) -> [String: Int] {
        let steady = coverage.cases.allSatisfy { $0.cost != nil }
        let count = (coverage.cases.map { $0.reached.utf8.count * 4 }.max() ?? 0) + 1
        let words = (count + 63) / 64
        func bits(_ reached: [Int]) -> [UInt64] {
            var b = [UInt64](repeating: 0, count: words)
            for k in reached { b[k / 64] |= 1 << UInt64(k % 64) }
            return b
        }
        var remaining = coverage.cases.map {
            (id: $0.id, cost: max(steady ? $0.cost! : $0.seconds, 1e-4), bits: bits($0.reachedSet))
        }
        var order: [String] = []
        var covered = [UInt64](repeating: 0, count: words)
        while order.count < head && !remaining.isEmpty {
            var best = -1
            var bestGain = 0.0
            for (i, c) in remaining.enumerated() {
                var fresh = 0
                for w in 0..<words { fresh += (c.bits[w] & ~covered[w]).nonzeroBitCount }
                let gain = Double(fresh) / c.cost
                if gain > bestGain { bestGain = gain; best = i }
            }
            if best < 0 {
                // Everything run: start over from nothing covered (or stop if no case adds any).
                if covered.allSatisfy({ $0 == 0 }) { break }
                covered = [UInt64](repeating: 0, count: words)
                continue
            }
            let c = remaining.remove(at: best)
            for w in 0..<words { covered[w] |= c.bits[w] }
            order.append(c.id)
        }
        order += remaining.sorted { ($0.cost, $0.id) < ($1.cost, $1.id) }.map(\.id)
        return Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    }

    /// The results already judged in `file` (one JSON line each, written by `judge` as each
    /// mutant finishes) of these same mutants: a run stopped part-way (a kill, a reboot) resumes
    /// from them. A line cut short by the stop, or of a mutant this run does not hold as it was
    /// (another build numbers mutants differently), is judged again.
    public static func judgedBefore(in file: String, jobs: [Job]) -> [Int: MutantResult] {
        guard let data = FileManager.default.contents(atPath: file) else { return [:] }
        let wanted = Dictionary(jobs.map { ($0.mutant.id, $0.mutant) }, uniquingKeysWith: { a, _ in a })
        var found: [Int: MutantResult] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let result = try? JSONDecoder().decode(MutantResult.self, from: Data(line)),
                  wanted[result.mutant.id] == result.mutant else { continue }
            found[result.mutant.id] = result
        }
        return found
    }

    /// Judges every job on `jobs` drivers. `progress` is told after each mutant. With
    /// `resume`, results already in that file are taken as they are and each new one is
    /// appended to it as soon as it is known; results in `takeFrom` (read, never written)
    /// are taken too.
    public func judge(_ jobs: [Job], resume: String? = nil, takeFrom: [String] = [],
                      progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) -> [MutantResult] {
        var before: [Int: MutantResult] = [:]
        for file in takeFrom + (resume.map { [$0] } ?? []) {
            let found = Self.judgedBefore(in: file, jobs: jobs)
            if !found.isEmpty { log("judging: \(found.count) mutants already judged, taken from \(file)") }
            before.merge(found) { _, new in new }
        }
        let resumeFile = resume.flatMap { path -> FileHandle? in
            if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
            let handle = FileHandle(forWritingAtPath: path)
            _ = try? handle?.seekToEnd()
            return handle
        }
        let resumeLock = Mutex(())
        // Longest first (taken from the end): the workers finish together.
        let queue = Mutex<[Job]>(jobs.filter { before[$0.mutant.id] == nil }.sorted { ($0.cost, $0.mutant.id) < ($1.cost, $1.mutant.id) })
        let results = Mutex<[MutantResult]>(Array(before.values))
        DispatchQueue.concurrentPerform(iterations: options.jobs) { _ in
            var process: DriverProcess?
            while let job = queue.withLock({ $0.popLast() }) {
                let started = ContinuousClock.now
                var result = judge(job, on: &process)
                result.seconds = (ContinuousClock.now - started).seconds
                journal("\(result.mutant.id) \(result.status.rawValue) \(String(format: "%.2f", result.seconds)) s, "
                    + "\(result.selected) cases (\(String(format: "%.1f", job.cost)) s unmutated)\(job.rebuild ? ", setup" : "")"
                    + (result.killedBy.first.map { ", first kill \($0)" } ?? "") + (result.lastCase.map { ", at \($0)" } ?? ""))
                if let resumeFile, let line = try? JSONEncoder().encode(result) {
                    // One write per line, under a lock: a stop leaves at most the last line cut short.
                    resumeLock.withLock { _ in resumeFile.write(line + Data("\n".utf8)) }
                }
                let done = results.withLock { $0.append(result); return $0.count }
                progress(done, jobs.count)
            }
            process?.kill()
        }
        return results.withLock { $0 }
    }

    private func judge(_ job: Job, on process: inout DriverProcess?) -> MutantResult {
        var result = MutantResult(mutant: job.mutant, status: .survived, selected: job.cases.count, reaching: job.reaching)
        guard !job.cases.isEmpty || job.rebuild else { return result }
        let clock = ContinuousClock.now
        do {
            if process == nil { process = try start() }
        } catch {
            result.status = .crashed
            result.detail = "\(error)"
            return result
        }
        process!.send(["op": "judge", "mutant": job.mutant.id, "cases": job.cases, "stopAfter": options.killsToName,
                       "rebuild": job.rebuild])
        // The driver answers with its plan first (after setting up under the mutant, for a
        // mutant of the setup: that gets the time the original's setup took, with the same margin).
        var plan = job.cases
        var child: pid_t?
        var limit = options.timeFactor * setupSeconds + options.timeConstant
        var failure: DriverProcess.ReadResult?
        switch process!.read(until: clock + .seconds(limit)) {
        case .line(let object):
            plan = object["plan"] as? [String] ?? job.cases
            child = (object["child"] as? Int).map { pid_t($0) }
            result.setUpAlike = object["setUpAlike"] as? Bool
        case let other:
            failure = other
        }
        result.selected = plan.count
        var answered = 0
        var kills: [String] = []
        var done: [String: Any]?
        // Each case has its own limit, as each test has in PIT: 1.25 x its time + 4 s from the
        // answer before it.
        func caseLimit() -> Double {
            options.timeFactor * (answered < plan.count ? caseSeconds[plan[answered]] ?? 0 : 0) + options.timeConstant
        }
        reading: while failure == nil {
            limit = caseLimit()
            switch process!.read(until: .now + .seconds(limit)) {
            case .line(let object):
                if object["done"] != nil { done = object; break reading }
                guard let id = object["case"] as? String else { continue }
                answered += 1
                if (object["verdict"] as? String) != "same" { kills.append(id) }
            case let other:
                failure = other
            }
        }
        // A case past its limit: the child judging the mutant is killed, and the driver, which
        // waits for it, says so and takes the next mutant. Should it not answer, it goes too.
        var driverGoesOn = false
        if case .timedOut? = failure, let child, child > 1 {
            Glibc.kill(child, SIGKILL)
            let answer = collect(process!, deadline: .now + .seconds(10 + options.timeConstant))
            driverGoesOn = answer.done != nil
            if !driverGoesOn { failure = answer.failure ?? .timedOut }
        }
        result.killedBy = kills
        // The driver's child for this mutant died by a signal: the driver itself goes on.
        if let done, let signal = done["crashed"] as? Int {
            result.lastCase = answered < plan.count ? plan[answered] : nil
            result.status = kills.isEmpty ? .crashed : .killed
            result.detail = signal > 255 ? "exit status \(signal - 256)" : "signal \(signal)\(Self.signalName(Int32(signal)))"
            return result
        }
        if done != nil {
            result.status = kills.isEmpty ? .survived : .killed
            result.killsCounted = options.killsToName == 0 || kills.count < options.killsToName
            return result
        }
        // The driver ran out of time or died: the mutant's doing (unless a case failed first).
        result.lastCase = answered < plan.count ? plan[answered] : nil
        if !driverGoesOn {
            process!.kill()
            process = nil
        }
        if !kills.isEmpty {
            result.status = .killed
            return result
        }
        switch failure {
        case .timedOut?:
            result.status = .timedOut
            result.detail = "over \(String(format: "%.1f", limit)) s"
        case .ended(let status, let signal)?:
            result.status = .crashed
            result.detail = signal.map { "signal \($0)\(Self.signalName($0))" } ?? "exit status \(status)"
        default:
            result.status = .crashed
        }
        return result
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case 4: " (SIGILL: a Swift runtime trap)"
        case 5: " (SIGTRAP: a Swift runtime trap)"
        case 6: " (SIGABRT)"
        case 9: " (SIGKILL)"
        case 11: " (SIGSEGV)"
        default: ""
        }
    }

    // MARK: Tolerances

    /// Killed mutants that every case running their code still passes under the tolerance
    /// policy (`file`, or the committed one when nil): what the tolerances would let through.
    public func tolerancePass(_ results: inout [MutantResult], jobs: [Job], file: String?) {
        let byID = Dictionary(uniqueKeysWithValues: jobs.map { ($0.mutant.id, $0) })
        let indices = results.indices.filter { results[$0].status == .killed }
        let verdicts = Mutex<[Int: Bool]>([:])
        let queue = Mutex<[Int]>(indices)
        let snapshot = results
        DispatchQueue.concurrentPerform(iterations: options.jobs) { _ in
            var process: DriverProcess?
            while let i = queue.withLock({ $0.popLast() }) {
                let result = snapshot[i]
                guard let job = byID[result.mutant.id] else { continue }
                if process == nil { process = try? start() }
                guard let p = process else { continue }
                // Killing cases first: most mutants fail there at once.
                let cases = result.killedBy + job.cases.filter { !result.killedBy.contains($0) }
                var request: [String: Any] = ["op": "tolerances", "mutant": job.mutant.id, "cases": cases, "rebuild": job.rebuild]
                if let file { request["file"] = file }
                p.send(request)
                var failed = false
                let (done, _) = collect(p, deadline: .now + .seconds(options.timeFactor * job.cost * 3 + 20)) { object in
                    if (object["passes"] as? Bool) == false { failed = true }
                }
                if done == nil { p.kill(); process = nil; failed = true }
                verdicts.withLock { $0[i] = !failed }
            }
            process?.kill()
        }
        for (i, passes) in verdicts.withLock({ $0 }) { results[i].passesUnderTolerances = passes }
    }

    // MARK: Search

    /// The part of each space of the search recorded first: a survivor whose budget its head
    /// fills (most: code every drawing runs) is classified without the rest, so the rest is
    /// recorded only for the survivors that need it (code few inputs run, or none).
    public static let searchHead = 0.125

    struct SearchTableFile: Codable {
        struct Record: Codable { var reached: String; var infected: String; var outcome: String }
        var shipped: [Record]
        var artwork: [Record]
    }

    /// The head of the search space, recorded once per build (`key`) for the mutants `watch`
    /// (nil: every mutant), or taken from the head or whole space recorded for more of them.
    public func searchTableHead(key: String, watch: Set<Int>? = nil) throws -> String {
        let whole = scratch + "/search-\(key).json", file = scratch + "/search-\(key)-head.json"
        for existing in [file, whole] where Self.recorded(existing, for: watch) { return existing }
        let clock = ContinuousClock.now
        let table = try recordSearchSpace(sharesBeside: file, from: 0, to: Self.searchHead, watch: watch)
        try save(table, to: file, watch: watch, as: "search space, its head", since: clock)
        return file
    }

    /// The whole search space, recorded once per build (`key`) for the mutants `watch` (nil:
    /// every mutant): the rest after a head recorded for them.
    public func searchTable(key: String, watch: Set<Int>? = nil) throws -> String {
        let file = scratch + "/search-\(key).json", headFile = scratch + "/search-\(key)-head.json"
        if Self.recorded(file, for: watch) { return file }
        let clock = ContinuousClock.now
        let table: SearchTableFile
        if Self.recorded(headFile, for: watch), let data = FileManager.default.contents(atPath: headFile),
           let head = try? JSONDecoder().decode(SearchTableFile.self, from: data) {
            let rest = try recordSearchSpace(sharesBeside: file, from: Self.searchHead, to: 1, watch: watch)
            table = SearchTableFile(shipped: head.shipped + rest.shipped, artwork: head.artwork + rest.artwork)
        } else {
            table = try recordSearchSpace(sharesBeside: file, from: 0, to: 1, watch: watch)
        }
        try save(table, to: file, watch: watch, as: "search space", since: clock)
        return file
    }

    /// Whether `file` holds a table recorded for every mutant of `watch` (nil: every mutant):
    /// a body holding none of the mutants a table was recorded for ran unrecorded, so the table
    /// says nothing of the others. What it was recorded for is kept beside it (`.watched`),
    /// written after the table and removed before it is written again.
    static func recorded(_ file: String, for watch: Set<Int>?) -> Bool {
        guard FileManager.default.fileExists(atPath: file),
              let data = FileManager.default.contents(atPath: file + ".watched"),
              let watched = try? JSONDecoder().decode(Watched.self, from: data) else { return false }
        guard let mutants = watched.mutants else { return true }
        return watch.map { $0.isSubset(of: Set(mutants)) } ?? false
    }

    /// The mutants a table was recorded for; nil, every mutant.
    struct Watched: Codable { var mutants: [Int]? }

    private func save(_ table: SearchTableFile, to file: String, watch: Set<Int>?, as name: String,
                      since clock: ContinuousClock.Instant) throws {
        try? FileManager.default.removeItem(atPath: file + ".watched")
        try JSONEncoder().encode(table).write(to: URL(fileURLWithPath: file), options: .atomic)
        try JSONEncoder().encode(Watched(mutants: watch.map { $0.sorted() }))
            .write(to: URL(fileURLWithPath: file + ".watched"), options: .atomic)
        let scope = watch.map { " for \($0.count) survivor\($0.count == 1 ? "" : "s")" } ?? ""
        log("\(name): \(table.shipped.count) inputs of the shipped skins, \(table.artwork.count) of other artwork, "
            + "recorded\(scope) in \(String(format: "%.1f", (ContinuousClock.now - clock).seconds)) s")
    }

    /// Records each space's inputs from fraction `from` of it to `to`, in pieces (written beside
    /// `file` and removed once read) the drivers take in turn as each finishes one, so neither
    /// waits long on the other at the end; merged in input order.
    private func recordSearchSpace(sharesBeside file: String, from: Double, to: Double, watch: Set<Int>?) throws -> SearchTableFile {
        let pieces = options.jobs * 8
        let failures = Mutex<[String]>([])
        let queue = Mutex<[Int]>(Array((0..<pieces).reversed()))
        DispatchQueue.concurrentPerform(iterations: options.jobs) { _ in
            var process: DriverProcess?
            while let piece = queue.withLock({ $0.popLast() }) {
                do {
                    if process == nil { process = try start() }
                    let p = process!
                    let width = (to - from) / Double(pieces)
                    var request: [String: Any] = ["op": "searchCoverage", "file": file + ".piece\(piece)",
                                                  "from": from + width * Double(piece),
                                                  "to": piece == pieces - 1 ? to : from + width * Double(piece + 1)]
                    request["watch"] = watch.map { $0.sorted() }
                    p.send(request)
                    let (done, failure) = collect(p, deadline: .now + .seconds(3600))
                    if done == nil {
                        p.kill()
                        process = nil
                        failures.withLock { $0.append(String(describing: failure)) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            process?.kill()
        }
        if let failure = failures.withLock({ $0.first }) {
            throw MutationError.driver("the search space could not be recorded: \(failure) (see \(scratch)/driver-errors.log)")
        }
        var table = SearchTableFile(shipped: [], artwork: [])
        for piece in 0..<pieces {
            guard let data = FileManager.default.contents(atPath: file + ".piece\(piece)"),
                  let share = try? JSONDecoder().decode(SearchTableFile.self, from: data) else {
                throw MutationError.driver("\(file).piece\(piece): a piece of the search space cannot be read")
            }
            table.shipped += share.shipped
            table.artwork += share.artwork
            try? FileManager.default.removeItem(atPath: file + ".piece\(piece)")
        }
        return table
    }

    /// Classifies each survivor by searching the inputs for one that tells it from the original.
    ///
    /// With a table of the space's head only, a survivor is classified when the head settles
    /// it: an input that tells it apart, or both budgets filled. The others are returned (their
    /// indices in `results`, with the inputs of each space the head drew with no difference),
    /// to be searched on over the whole space from where the head left them (`only`).
    @discardableResult
    public func classify(_ results: inout [MutantResult], only: [Int: SearchProgress]? = nil, jobs: [Job], table: String,
                         probed: Set<Int> = [], notDrawing: [String: String] = [:],
                         progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) -> [Int: SearchProgress] {
        let byID = Dictionary(uniqueKeysWithValues: jobs.map { ($0.mutant.id, $0) })
        let indices = only.map { $0.keys.sorted() } ?? results.indices.filter { results[$0].status == .survived }
        let unsettled = Mutex<[Int: SearchProgress]>([:])
        let found = Mutex<[Int: Classification]>([:])
        let queue = Mutex<[Int]>(indices)
        let snapshot = results
        let budget = options.searchBudget, artworkBudget = options.artworkBudget
        DispatchQueue.concurrentPerform(iterations: options.jobs) { _ in
            var process: DriverProcess?
            while let i = queue.withLock({ $0.popLast() }) {
                let m = snapshot[i].mutant
                if process == nil { process = try? start() }
                guard let p = process else { continue }
                let already = only?[i] ?? SearchProgress()
                let started = ContinuousClock.now
                // A mutant of the setup that set the subject up alike is searched on the subject
                // as set up: nothing it did while setting up reaches a drawing, as in judging.
                let rebuild = (byID[m.id]?.rebuild ?? false) && snapshot[i].setUpAlike != true
                p.send(["op": "search", "mutant": m.id, "construct": m.construct, "file": table, "budget": budget,
                        // Other artwork that made it hang or crash is not drawn again: only the shipped
                        // skins' rest can change what it is.
                        "artworkBudget": already.artworkFailure == nil ? artworkBudget : 0,
                        "rebuild": rebuild, "probed": probed.contains(m.id),
                        "skip": already.shipped, "artworkSkip": already.artwork,
                        "passesEveryCase": snapshot[i].status == .survived])
                var last: String?, lastKind: String?
                var answer: [String: Any]?, searchedShipped: [String: Any]?
                let searchDeadline = ContinuousClock.now + .seconds(options.searchSeconds)
                let (done, failure) = collect(p, deadline: searchDeadline, perInput: .seconds(options.timeConstant)) { object in
                    if let trying = object["trying"] as? String { last = trying; lastKind = object["kind"] as? String }
                    if let shipped = object["searchedShipped"] as? [String: Any] { searchedShipped = shipped }
                    if object["shipped"] != nil { answer = object }
                }
                var c: Classification
                let how: String
                if case .timedOut? = failure {
                    how = ContinuousClock.now < searchDeadline ? "took more than \(Self.seconds(options.timeConstant)) on one input"
                        : "ran out of its \(Self.seconds(options.searchSeconds))"
                } else {
                    how = "crashed"
                }
                if let done, done["crashed"] == nil, let answer, let hang = already.artworkFailure,
                   let shipped = answer["shipped"] as? [String: Any], shipped["found"] == nil {
                    c = Self.classification(["shipped": shipped, "artwork": ["found": hang.input]], budget: budget,
                                            artworkBudget: artworkBudget)
                    c.reason += " (the search \(hang.how) drawing it with the mutant)"
                } else if let done, done["crashed"] == nil, let answer {
                    c = Self.classification(answer, budget: budget, artworkBudget: artworkBudget)
                    let fromCases = already.shippedFromCases + ((answer["shipped"] as? [String: Any])?["fromCases"] as? Int ?? 0)
                    c.shippedFromCases = fromCases
                    if fromCases > 0 && c.kind != .unreached {
                        c.reason += " (\(fromCases) of the shipped inputs tried are cases' own drawings, which it passes: known without drawing)"
                    }
                    if !Self.settles(answer, budget: budget, artworkBudget: artworkBudget) {
                        // Other artwork's input that told it apart is drawn again, not skipped: unless the
                        // rest of the shipped space tells it apart, it is still the first that does.
                        let artwork = answer["artwork"] as? [String: Any]
                        let drawn = SearchProgress(shipped: (answer["shipped"] as? [String: Any])?["tried"] as? Int ?? 0,
                                                   artwork: (artwork?["tried"] as? Int ?? 0) - (artwork?["found"] == nil ? 0 : 1),
                                                   shippedFromCases: fromCases)
                        unsettled.withLock { $0[i] = drawn }
                    }
                } else {
                    // A hang or crash on a shipped input is a missing case wherever the input lies;
                    // on other artwork's, the shipped search before it must have been whole.
                    if lastKind == "artwork", let last, !Self.saw(searchedShipped, budget: budget) {
                        unsettled.withLock {
                            $0[i] = SearchProgress(shipped: searchedShipped?["tried"] as? Int ?? 0, artwork: 0, artworkFailure: (last, how))
                        }
                    }
                    if done == nil {
                        p.kill()
                        process = nil
                    }
                    if lastKind == "artwork", let searchedShipped, let last {
                        // Every shipped input it was given drew the same; other artwork's input
                        // made it hang or crash, which is a difference only other artwork shows.
                        c = Self.classification(["shipped": searchedShipped, "artwork": ["found": last]], budget: budget,
                                                artworkBudget: artworkBudget)
                        c.reason += " (the search \(how) drawing it with the mutant)"
                    } else {
                        c = Classification(kind: .hangsOrCrashes, input: last, shippedTried: 0, shippedReaching: 0, shippedInfecting: 0,
                                           artworkTried: 0, artworkReaching: 0, artworkInfecting: 0, budget: budget,
                                           artworkBudget: artworkBudget,
                                           reason: "the search \(how) drawing \(last ?? "its first input") with the mutant: that input is a missing case")
                    }
                }
                let spent = String(format: "%.2f", (ContinuousClock.now - started).seconds)
                journal("\(m.id) \(c.kind.rawValue) \(spent) s, \(rebuild ? "set up again" : "as set up"), shipped "
                        + "\(c.shippedTried) tried of \(c.shippedInfecting) infecting (\(c.shippedReaching) reaching), other artwork "
                        + "\(c.artworkTried) of \(c.artworkInfecting)", in: "search.log")
                let total = found.withLock { $0[i] = c; return $0.count }
                progress(total, indices.count)
            }
            process?.kill()
        }
        let left = unsettled.withLock { $0 }
        for (i, found) in found.withLock({ $0 }) where left[i] == nil {
            var c = found
            // Unreached code of a file the subject says no drawing runs: outside what pixels can see.
            if c.kind == .unreached, let held = notDrawing[results[i].mutant.file] {
                c.kind = .notOnDrawingPath
                c.reason = "not on the drawing path: no case and no input of the search runs it; \(held)"
            }
            results[i].classification = c
            switch c.kind {
            case .missingCase, .hangsOrCrashes: results[i].status = .survived
            case .otherArtworkOnly, .likelyEquivalent, .unreached: results[i].status = .equivalent
            case .notOnDrawingPath: results[i].status = .notOnDrawingPath
            }
        }
        return left
    }

    /// How many inputs of each space a survivor's search has drawn with no difference.
    public struct SearchProgress: Sendable {
        public var shipped = 0
        public var artwork = 0
        /// Of `shipped`, those a case's own drawing answered.
        public var shippedFromCases = 0
        /// Other artwork's input that made it hang or crash, and which.
        public var artworkFailure: (input: String, how: String)?
    }

    /// Whether a search's answer settles its survivor though the table held only the head of
    /// the space: a shipped input told it apart, or each space's search saw all it would have
    /// seen in the whole space (an input found, its budget filled, or the space all there).
    static func settles(_ answer: [String: Any], budget: Int, artworkBudget: Int) -> Bool {
        let shipped = answer["shipped"] as? [String: Any]
        return shipped?["found"] != nil
            || saw(shipped, budget: budget) && saw(answer["artwork"] as? [String: Any], budget: artworkBudget)
    }

    /// "4 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    static func saw(_ space: [String: Any]?, budget: Int) -> Bool {
        guard let space else { return false }
        return space["found"] != nil || (space["tried"] as? Int ?? 0) >= budget || (space["whole"] as? Bool ?? true)
    }

    static func classification(_ done: [String: Any], budget: Int, artworkBudget: Int) -> Classification {
        let shipped = done["shipped"] as? [String: Any] ?? [:]
        let artwork = done["artwork"] as? [String: Any]
        let sTried = shipped["tried"] as? Int ?? 0, sReach = shipped["reaching"] as? Int ?? 0
        let sInfect = shipped["infecting"] as? Int ?? sReach
        let aTried = artwork?["tried"] as? Int ?? 0, aReach = artwork?["reaching"] as? Int ?? 0
        let aInfect = artwork?["infecting"] as? Int ?? aReach
        var c = Classification(kind: .likelyEquivalent, input: nil, shippedTried: sTried, shippedReaching: sReach,
                               shippedInfecting: sInfect, artworkTried: aTried, artworkReaching: aReach,
                               artworkInfecting: aInfect, budget: budget, artworkBudget: artworkBudget, reason: "")
        /// The counts below are of the space's head when the search settled there.
        func of(_ space: [String: Any]?) -> String { (space?["whole"] as? Bool) == false ? " in the space's first eighth" : "" }
        /// What the search saw in one space, in words.
        func none(_ space: String, tried: Int, infecting: Int, reaching: Int, _ counts: [String: Any]?) -> String {
            if reaching == 0 { return "no input of \(space) runs this code" }
            if infecting == 0 { return "no input of \(space) changes a value at the mutation point (\(reaching) run this code)" }
            return "no difference in \(tried) of the \(infecting) inputs of \(space)\(of(counts)) where it changes a value"
                + (tried < infecting ? " (the budget)" : "") + " (\(reaching) run this code)"
        }
        if let input = shipped["found"] as? String {
            c.kind = .missingCase
            c.input = input
            c.reason = "missing case: \(input) draws differently (input \(sTried) of the \(sInfect) shipped-skin inputs\(of(shipped)) "
                + "where it changes a value; \(sReach) run this code)"
        } else if let input = artwork?["found"] as? String {
            c.kind = .otherArtworkOnly
            c.input = input
            c.reason = "equivalent for the shipped skins: " + none("the shipped skins", tried: sTried, infecting: sInfect, reaching: sReach, shipped)
                + "; other artwork tells them apart: \(input), so this is code the shipped skins never exercise"
        } else if sReach == 0 && aReach == 0 {
            c.kind = .unreached
            c.reason = "unreached: no case and no input of the search (shipped skins or other artwork) runs this code"
        } else {
            c.reason = "equivalent for the shipped skins: " + none("the shipped skins", tried: sTried, infecting: sInfect, reaching: sReach, shipped)
                + "; other artwork does not tell them apart either: " + none("other artwork", tried: aTried, infecting: aInfect, reaching: aReach, artwork)
                + "; likely truly equivalent"
        }
        return c
    }
}
