import Foundation
import MutationSwitch

// The driver side of the mutation analysis: compiled into the schemata copy of the
// package under analysis, beside its mutated modules, so the active mutant is switched
// in this process. `popover-mutants` talks to it over stdin/stdout, one JSON object per
// line each way (docs/sensitivity.md, "The driver").

/// A case's verdict at the suite's strictest: the drawn pixels are the golden's, or not.
public enum Verdict: String, Codable, Sendable {
    case same
    case different
    /// Drawing threw, or the golden is unusable: the suite's check fails the case too.
    case error
}

/// What the analysis needs of a package's cases: implemented once per package (the
/// popover driver, the fixture's driver).
public protocol MutationSubject: AnyObject {
    /// Every case, in a stable order.
    var caseIDs: [String] { get }
    /// Draws case `id` with whatever mutant is active and judges it against its golden,
    /// exactly: (verdict, a few words on why).
    func judge(_ id: String) -> (Verdict, String)
    /// Whether case `id` as drawn now passes the check under a tolerance policy (the
    /// committed one when `file` is nil), for the pass over killed mutants.
    func passesUnderTolerances(_ id: String, file: String?) -> Bool
    /// Inputs for classifying survivors: the shipped skins' parameter space, boundary
    /// inputs first. `description` is a ready case (skin, size, direction, offset, scale).
    var searchInputs: [SearchInput] { get }
    /// The same model drawn with other artwork (other metrics, colours, images).
    var artworkInputs: [SearchInput] { get }
    /// Draws an input with whatever mutant is active: a digest of what came out (pixels,
    /// or the error), equal for equal drawings.
    func draw(_ input: SearchInput) -> String
    /// Called after a coverage pass: keep what was learned (decoded goldens' digests).
    func finishCoverage()
    /// What case `id` costs to draw by a measure that is the same on every run (its pixels,
    /// say), which orders the cases each mutant is judged on; nil: its measured time orders
    /// them, and a mutant that fails two cases in different ways (a trap on one, pixels on
    /// the other) may be said to be killed in one run and crashed in the next.
    func cost(_ id: String) -> Double?
    /// For a subject set up under a mutant: the cases it sets up differently from
    /// `original` (or not at all).
    func changedCases(from original: Self) -> [String]
    /// For a subject set up under a mutant: whether it holds everything a drawing reads
    /// exactly as `original` does (the same cases, skins that draw alike). Then the mutant
    /// can change a case only through code the drawing runs, which the probes watch, and
    /// it is judged on the cases it infects there alone.
    func isSetUpAlike(_ original: Self) -> Bool
    /// A few cases standing for all (one per kind of drawing), judged for a mutant of the
    /// setup that changes no case: what it changed can only show in drawings.
    var representativeCases: [String] { get }
    /// What `input` asks to draw under the active mutant, exactly, when the subject can say:
    /// two inputs with the same key draw the same, so the search draws one of them.
    func drawingKey(_ input: SearchInput) -> String?
    /// Whether a case asks to draw exactly what `key` names and its golden holds exactly
    /// `outcome` (as `draw` puts it). A mutant that passes every case draws such an input as
    /// that golden, so its search knows the input draws no difference without drawing it.
    func isCaseDrawing(_ key: String, outcome: String) -> Bool
}

extension MutationSubject {
    public func changedCases(from original: Self) -> [String] { [] }
    public func isSetUpAlike(_ original: Self) -> Bool { false }
    public var representativeCases: [String] { [] }
    public func drawingKey(_ input: SearchInput) -> String? { nil }
    public func isCaseDrawing(_ key: String, outcome: String) -> Bool { false }
    public func cost(_ id: String) -> Double? { nil }
}

public struct SearchInput: Sendable {
    public var description: String
    /// Index for the subject's own use.
    public var index: Int

    public init(description: String, index: Int) {
        self.description = description
        self.index = index
    }
}

/// One line the tool sends.
struct Request: Decodable {
    var op: String
    var mutant: Int32?
    var cases: [String]?
    var stopAfter: Int?
    var file: String?
    var construct: Int?
    var budget: Int?
    var artworkBudget: Int?
    /// Whether a probe watches the mutant: the search then draws only the inputs it infects.
    var probed: Bool?
    var rebuild: Bool?
    /// searchCoverage: the fractions of each space's inputs to record, from and to.
    var from: Double?
    var to: Double?
    /// searchCoverage: the mutants to record for (the survivors the space is searched for);
    /// none, every mutant. A body holding none of them runs as the original, unrecorded.
    var watch: [Int32]?
    /// search: how many of the inputs it would draw were drawn already, with no difference (a
    /// search of the space's head): the search goes on after them.
    var skip: Int?
    var artworkSkip: Int?
    /// search: the mutant passes every case (a survivor), so inputs that are a case's own
    /// drawing need not be drawn.
    var passesEveryCase: Bool?
    /// coverage: per mutant ID, how the checks treat it (`mutation_check_prepare`'s kinds);
    /// none when no function is checked.
    var checks: [Int32]?
}

/// A set of small numbers (constructs, mutants) as hex: bit k of byte k / 8.
enum BitSet {
    static func hex(_ flags: UnsafeMutablePointer<UInt8>, count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
        for k in 0..<count where flags[k] != 0 { bytes[k / 8] |= 1 << UInt8(k % 8) }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(_ hex: String) -> [UInt8] {
        func value(_ c: UInt8) -> UInt8 { c >= 97 ? c - 87 : c - 48 }
        let utf8 = Array(hex.utf8)
        return stride(from: 0, to: utf8.count - 1, by: 2).map { value(utf8[$0]) << 4 | value(utf8[$0 + 1]) }
    }
}

/// What one search input drew in the original program, which constructs it ran and which
/// mutants it infected.
struct SearchRecord: Codable {
    var reached: String
    var infected: String
    var outcome: String

    /// The bit sets as bytes.
    var reachedBits: [UInt8] { BitSet.bytes(reached) }
    var infectedBits: [UInt8] { BitSet.bytes(infected) }
}

extension [UInt8] {
    func reaches(_ k: Int) -> Bool { k / 8 < count && self[k / 8] & (1 << UInt8(k % 8)) != 0 }
}

struct SearchTable: Codable {
    var shipped: [SearchRecord]
    var artwork: [SearchRecord]
}

/// One space of a search table, decoded for lookups: each input's records as bytes, and
/// where each input's description sits.
struct SearchSpaceIndex {
    let records: [SearchRecord]
    let reached: [[UInt8]]
    let infected: [[UInt8]]
    let position: [String: Int]
    /// For each input that the original draws exactly as a case's golden, what it asks to
    /// draw (its drawing key); nil for the others.
    let caseDrawings: [String?]

    /// `casesDrawn`: whether any input can be a case's drawing (other artwork's cannot: no
    /// case draws its skins), so the others are not asked what they draw.
    init<S: MutationSubject>(_ inputs: [SearchInput], _ records: [SearchRecord], original: S, casesDrawn: Bool) {
        self.records = records
        reached = records.map(\.reachedBits)
        infected = records.map(\.infectedBits)
        var position: [String: Int] = [:]
        for (i, input) in zip(records.indices, inputs) { position[input.description] = i }
        self.position = position
        caseDrawings = casesDrawn
            ? zip(inputs, records).map { input, record in
                original.drawingKey(input).flatMap { original.isCaseDrawing($0, outcome: record.outcome) ? $0 : nil }
            }
            : Array(repeating: nil, count: records.count)
    }

    func reaches(_ i: Int, _ construct: Int) -> Bool { reached[i].reaches(construct) }
    func infects(_ i: Int, _ mutant: Int) -> Bool { infected[i].reaches(mutant) }
    /// Whether the table holds every one of `inputs`, not only the head of the space.
    func isWhole(for inputs: [SearchInput]) -> Bool { records.count >= inputs.count }
    /// The inputs, in order, that run `construct`.
    func reaching(_ construct: Int) -> [Int] { reached.indices.filter { reached[$0].reaches(construct) } }
}

struct SearchIndex {
    let shipped: SearchSpaceIndex
    let artwork: SearchSpaceIndex
}

public enum DriverLoop {
    /// Serves requests from stdin until it closes. Arguments: `--constructs N` (size of the
    /// coverage array), `--memory-mb M` (an address-space limit, so a mutant that allocates
    /// wildly crashes instead of taking the machine).
    ///
    /// `make` builds the subject (catalog, skins, inputs); it runs once while coverage is
    /// recorded, so the constructs that setting up reaches are known (`hello` says them),
    /// and again under a mutant when the tool asks (`"rebuild": true`): a mutant of code
    /// that runs while the catalog is built changes the cases themselves.
    public static func run<S: MutationSubject>(_ make: () -> S) {
        let arguments = CommandLine.arguments
        func value(_ name: String) -> Int? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
        }
        // The tool ends its drivers when it can (Ctrl-C, SIGTERM); killed outright (SIGKILL, the
        // out-of-memory killer) it cannot, and a child spinning on a mutant that never ends
        // would run on: the kernel ends this driver with the tool, and each child with this driver.
        mutation_end_with_parent()
        let constructs = max(1, value("--constructs") ?? 1)
        // Mutant IDs run from 1: one byte each, and one for 0.
        let mutants = max(1, (value("--mutants") ?? 0) + 1)
        if let megabytes = value("--memory-mb"), megabytes > 0 {
            var limit = rlimit(rlim_cur: rlim_t(megabytes) << 20, rlim_max: rlim_t(megabytes) << 20)
            #if os(Linux)
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            #else
            setrlimit(RLIMIT_AS, &limit)
            #endif
        }
        let reached = UnsafeMutablePointer<UInt8>.allocate(capacity: constructs)
        reached.initialize(repeating: 0, count: constructs)
        mutation_set_reached(reached)
        let infected = UnsafeMutablePointer<UInt8>.allocate(capacity: mutants)
        infected.initialize(repeating: 0, count: mutants)
        mutation_set_infected(infected)
        func startRecording() {
            reached.update(repeating: 0, count: constructs)
            infected.update(repeating: 0, count: mutants)
            mutation_set_active(-1)
        }
        startRecording()
        let original = make()
        mutation_set_active(0)
        let setupReached = (0..<constructs).filter { reached[$0] != 0 }
        let setupInfected = (0..<mutants).filter { infected[$0] != 0 }
        var searchTable: (file: String, table: SearchIndex)?

        while let line = readLine() {
            guard let data = line.data(using: .utf8), let request = try? JSONDecoder().decode(Request.self, from: data) else {
                reply(["error": "not a request: \(line.prefix(200))"])
                continue
            }
            // Work is done in a child process, so nothing a mutant leaves in the process (a
            // cache of rendered images above all) outlives it, and a crash ends only the
            // child; this process stays as it was set up, its caches empty.
            func subjectUnderRequest() -> S {
                guard request.rebuild == true, let mutant = request.mutant else { return original }
                // A mutant that changes how the subject is set up is judged on a subject set
                // up under it.
                mutation_set_active(mutant)
                defer { mutation_set_active(0) }
                return make()
            }
            switch request.op {
            case "hello":
                reply(["cases": original.caseIDs, "constructs": constructs, "setupReached": setupReached,
                       "setupInfected": setupInfected])
            case "coverage":
                if let kinds = request.checks {
                    let table = UnsafeMutablePointer<Int32>.allocate(capacity: mutants)
                    table.initialize(repeating: -2, count: mutants)
                    for (m, kind) in kinds.prefix(mutants).enumerated() { table[m] = kind }
                    mutation_check_prepare(table, Int32(mutants), Int32(constructs))
                }
                // One child per case: each case's coverage is what it runs from a cold start, as the
                // first case of a check would.
                for id in request.cases ?? original.caseIDs {
                    let ended = isolated {
                        startRecording()
                        if request.checks != nil {
                            mutation_check_reset()
                            mutation_set_checks(true)
                        }
                        let clock = ContinuousClock.now
                        let (verdict, detail) = original.judge(id)
                        // The case's own time, for the time limits: without the checks' evaluations.
                        let seconds = (ContinuousClock.now - clock).seconds - Double(mutation_check_nanoseconds()) * 1e-9
                        mutation_set_checks(false)
                        mutation_set_active(0)
                        // The checks' marks go back into reached and infected before those are read.
                        var cleared: String?
                        if request.checks != nil {
                            let bits = UnsafeMutablePointer<UInt8>.allocate(capacity: mutants)
                            mutation_check_finish(bits)
                            cleared = BitSet.hex(bits, count: mutants)
                        }
                        var row: [String: Any] = [
                            "case": id, "seconds": seconds, "verdict": verdict.rawValue, "detail": detail,
                            "reached": BitSet.hex(reached, count: constructs), "infected": BitSet.hex(infected, count: mutants)]
                        row["cleared"] = cleared
                        row["checks"] = cleared.map { _ in Int(mutation_check_evaluations()) }
                        row["cost"] = original.cost(id)
                        reply(row)
                        original.finishCoverage()
                    }
                    if let signal = ended {
                        reply(["case": id, "seconds": 0, "verdict": "error", "detail": "crashed (signal \(signal))", "reached": "",
                               "infected": ""])
                    }
                }
                reply(["done": true])
            case "judge":
                let ended = isolated {
                    let subject = subjectUnderRequest()
                    // The plan: for a mutant of the setup that set up anything differently, the cases
                    // it sets up differently first, then those it infects while drawing, then the
                    // representatives, then every other case: what it changed while setting up (a
                    // metric, a colour) reaches a drawing as data, which no probe in the drawing sees.
                    var plan = request.cases ?? []
                    let alike = request.rebuild == true ? subject.isSetUpAlike(original) : nil
                    if alike == false {
                        var seen = Set<String>()
                        plan = (subject.changedCases(from: original) + plan + subject.representativeCases + subject.caseIDs)
                            .filter { seen.insert($0).inserted }
                    }
                    // The child's ID: a case past its time limit is ended by killing this child
                    // alone, and this driver goes on to the next mutant without setting up again.
                    var answer: [String: Any] = ["plan": plan, "child": Int(getpid())]
                    answer["setUpAlike"] = alike
                    reply(answer)
                    mutation_set_active(request.mutant ?? 0)
                    var kills = 0
                    for id in plan {
                        let (verdict, detail) = subject.judge(id)
                        reply(["case": id, "verdict": verdict.rawValue, "detail": detail])
                        if verdict != .same { kills += 1 }
                        if let stop = request.stopAfter, stop > 0, kills >= stop { break }
                    }
                }
                reply(ended.map { ["done": true, "crashed": $0] } ?? ["done": true])
            case "tolerances":
                let ended = isolated {
                    let subject = subjectUnderRequest()
                    mutation_set_active(request.mutant ?? 0)
                    for id in request.cases ?? [] {
                        let passes = subject.passesUnderTolerances(id, file: request.file)
                        reply(["case": id, "passes": passes])
                        if !passes { break }
                    }
                }
                reply(ended.map { ["done": true, "crashed": $0] } ?? ["done": true])
            case "searchCoverage":
                guard let file = request.file else { reply(["error": "searchCoverage needs a file"]); continue }
                // Of each space, the inputs from fraction `from` of its length to fraction `to`: the
                // tool asks for the space in pieces, the head first, the rest only when a survivor needs it.
                let ended = isolated {
                    // The other mutants are marked infected before each input, so the probes of a
                    // body that runs recorded skip them, and unmarked before its marks are read.
                    var unwatched: [Int] = []
                    if let watch = request.watch {
                        var watched = [Bool](repeating: false, count: mutants)
                        for m in watch where m > 0 && Int(m) < mutants { watched[Int(m)] = true }
                        unwatched = (1..<mutants).filter { !watched[$0] }
                        let below = UnsafeMutablePointer<Int32>.allocate(capacity: mutants + 2)
                        below[0] = 0
                        for m in 0...mutants { below[m + 1] = below[m] + (m < mutants && watched[m] ? 1 : 0) }
                        mutation_set_watched(below)
                    }
                    func record(_ inputs: [SearchInput]) -> [SearchRecord] {
                        let (lo, hi) = (Self.cut(inputs.count, at: request.from ?? 0), Self.cut(inputs.count, at: request.to ?? 1))
                        return inputs[lo..<max(lo, hi)].map { input in
                            startRecording()
                            for m in unwatched { infected[m] = 1 }
                            let outcome = original.draw(input)
                            mutation_set_active(0)
                            for m in unwatched { infected[m] = 0 }
                            return SearchRecord(reached: BitSet.hex(reached, count: constructs),
                                                infected: BitSet.hex(infected, count: mutants), outcome: outcome)
                        }
                    }
                    let table = SearchTable(shipped: record(original.searchInputs), artwork: record(original.artworkInputs))
                    do {
                        try JSONEncoder().encode(table).write(to: URL(fileURLWithPath: file), options: .atomic)
                        reply(["recorded": true, "inputs": table.shipped.count, "artworkInputs": table.artwork.count])
                    } catch {
                        reply(["error": "\(file): cannot be written: \(error)"])
                    }
                }
                reply(ended.map { ["done": true, "crashed": $0] } ?? ["done": true])
            case "search":
                guard let file = request.file, let mutant = request.mutant, let construct = request.construct else {
                    reply(["error": "search needs file, mutant and construct"])
                    continue
                }
                if searchTable?.file != file {
                    guard let data = FileManager.default.contents(atPath: file),
                          let table = try? JSONDecoder().decode(SearchTable.self, from: data) else {
                        reply(["error": "\(file): not a search table"])
                        continue
                    }
                    // Indexed once per table, here: the inputs (made by the original, in the table's
                    // order) and their bit sets, so no request repeats the work.
                    searchTable = (file, SearchIndex(
                        shipped: SearchSpaceIndex(original.searchInputs, table.shipped, original: original, casesDrawn: true),
                        artwork: SearchSpaceIndex(original.artworkInputs, table.artwork, original: original, casesDrawn: false)))
                }
                let index = searchTable!.table
                let rebuild = request.rebuild == true
                let shippedReaching = index.shipped.reaching(construct), artworkReaching = index.artwork.reaching(construct)
                if !rebuild && shippedReaching.isEmpty && artworkReaching.isEmpty {
                    // Nothing of either space runs the code: said without drawing or forking.
                    func none(_ kind: String, _ space: SearchSpaceIndex, _ inputs: [SearchInput]) -> [String: Any] {
                        ["kind": kind, "tried": 0, "reaching": 0, "infecting": 0, "whole": space.isWhole(for: inputs)]
                    }
                    let shipped = none("shipped", index.shipped, original.searchInputs)
                    reply(["searchedShipped": shipped])
                    reply(["found": true, "shipped": shipped, "artwork": none("artwork", index.artwork, original.artworkInputs)])
                    reply(["done": true])
                    continue
                }
                let ended = isolated {
                    let subject = subjectUnderRequest()
                    // What the mutant drew, by what was asked: scenes and keyframes often place
                    // the same popover as another input.
                    var drawn: [String: String] = [:]
                    func search(_ space: SearchSpaceIndex, _ inputs: [SearchInput], _ planned: [Int],
                                budget: Int, skip: Int, kind: String) -> [String: Any] {
                        // A rebuilt subject may list its inputs differently: they are matched by description.
                        var reaching: [(input: SearchInput, record: Int)] = []
                        if rebuild {
                            for input in inputs {
                                if let i = space.position[input.description], space.reaches(i, construct) { reaching.append((input, i)) }
                            }
                        } else {
                            reaching = planned.map { (inputs[$0], $0) }
                        }
                        // A mutant a probe watches is drawn only on the inputs it infects: on the others
                        // it draws what the original draws.
                        let infecting = request.probed == true ? reaching.filter { space.infects($0.record, Int(mutant)) } : reaching
                        var tried = min(skip, infecting.count, budget)
                        // Inputs known to draw no difference without drawing them: a case's own drawing,
                        // asked for alike under the mutant, which passes every case.
                        var fromCases = 0
                        let casesPassed = request.passesEveryCase == true && !rebuild
                        for (input, i) in infecting.prefix(budget).dropFirst(tried) {
                            let expected = space.records[i].outcome
                            reply(["trying": input.description, "kind": kind])
                            mutation_set_active(mutant)
                            let key = subject.drawingKey(input)
                            if casesPassed, let key, key == space.caseDrawings[i] {
                                mutation_set_active(0)
                                tried += 1
                                fromCases += 1
                                continue
                            }
                            let outcome = key.flatMap { drawn[$0] } ?? subject.draw(input)
                            if let key { drawn[key] = outcome }
                            mutation_set_active(0)
                            tried += 1
                            if outcome != expected {
                                return ["kind": kind, "found": input.description, "tried": tried, "reaching": reaching.count,
                                        "infecting": infecting.count, "original": expected, "mutated": outcome,
                                        "whole": space.isWhole(for: inputs), "fromCases": fromCases]
                            }
                        }
                        // The table may hold only the head of the space: the tool then knows whether
                        // the search saw all of it.
                        return ["kind": kind, "tried": tried, "reaching": reaching.count, "infecting": infecting.count,
                                "whole": space.isWhole(for: inputs), "fromCases": fromCases]
                    }
                    let shipped = search(index.shipped, subject.searchInputs, shippedReaching, budget: request.budget ?? 500,
                                         skip: request.skip ?? 0, kind: "shipped")
                    var result: [String: Any] = ["found": true, "shipped": shipped]
                    if shipped["found"] == nil {
                        // Said before other artwork is drawn: should the mutant hang or crash on
                        // one of its inputs, the tool still knows the shipped skins drew the same.
                        reply(["searchedShipped": shipped])
                        result["artwork"] = search(index.artwork, subject.artworkInputs, artworkReaching,
                                                   budget: request.artworkBudget ?? 200, skip: request.artworkSkip ?? 0, kind: "artwork")
                    }
                    reply(result)
                }
                reply(ended.map { ["done": true, "crashed": $0] } ?? ["done": true])
            default:
                reply(["error": "unknown op \(request.op)"])
            }
        }
    }

    /// Runs `work` in a child process and waits for it: nil when it ended normally, else the
    /// signal that ended it (or 256 + its exit status when that was not 0).
    static func isolated(_ work: () -> Void) -> Int32? {
        let child = fork()
        if child == 0 {
            mutation_end_with_parent()
            work()
            _exit(0)
        }
        guard child > 0 else {
            work()
            return nil
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        if signal != 0 { return signal }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : 256 + code
    }

    /// Where fraction `f` of a list of `count` inputs ends: the same cut for the head's
    /// recording and the rest's.
    static func cut(_ count: Int, at f: Double) -> Int { min(count, max(0, Int((Double(count) * f).rounded(.up)))) }

    static func reply(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            print("{\"error\":\"reply not encodable\"}")
            return
        }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

extension Duration {
    var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) * 1e-18
    }
}
