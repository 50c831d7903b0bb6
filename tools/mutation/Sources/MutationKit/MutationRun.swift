import Foundation

/// One run of the analysis, start to finish: find, build the schemata, record coverage,
/// judge, pass the tolerances, classify survivors, report.
public struct MutationRun: Sendable {
    public var subject: Subject
    /// The scratch folder (git-ignored): the schemata copy, caches, logs.
    public var scratch: String
    /// Where sensitivity.json and sensitivity.html go.
    public var output: String
    /// `release` for the real analysis; the tool's tests build their fixture in `debug`.
    public var configuration = "release"
    public var options = AnalysisOptions()
    /// Only mutants of this file (relative to the root), and of this line of it.
    public var file: String?
    public var line: Int?
    /// A sample of this many mutants, drawn with `seed`.
    public var sample: Int?
    public var seed: UInt64 = 1
    /// A previous run's report and where it was read: judge again only the mutants it lists
    /// as survived (after cases were added to close them) and those it does not hold, and
    /// take every other result from it.
    public var survivorsOf: (path: String, report: SensitivityReport)?
    public var buildOnly = false
    /// What the schemata's builds learned does not compile, per file, kept in the repository
    /// (`not-built.json` beside the driver) as well as in the scratch folder: a fresh clone,
    /// a scheduled job's above all, builds the schemata once instead of finding it again in
    /// rounds of builds. Nil: the scratch folder's copy alone.
    public var notBuiltFile: String?
    public var log: @Sendable (String) -> Void = { print($0) }

    public init(subject: Subject, scratch: String, output: String) {
        self.subject = subject
        self.scratch = scratch
        self.output = output
    }

    public struct Result: Sendable {
        public var report: SensitivityReport
        public var findings: [FileFindings]
        public var build: SchemataBuild.Outcome
        /// Drivers started to judge the mutants: one per job unless a driver died (a case past
        /// its time limit ends only the child judging it).
        public var judgingDrivers = 0
    }

    public func run() throws -> Result {
        let started = ContinuousClock.now
        var timings: [String: Double] = [:]
        func lap(_ name: String, since: ContinuousClock.Instant) { timings[name, default: 0] += (ContinuousClock.now - since).seconds }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)

        var clock = ContinuousClock.now
        let findings = Finder.find(try subject.sources(), checked: Set(subject.checked), throwOnly: Set(subject.throwOnly))
        let allMutants = findings.flatMap(\.mutants)
        let constructCount = findings.reduce(0) { $0 + $1.constructs.count }
        lap("find", since: clock)
        log("found \(allMutants.count) mutants in \(constructCount) constructs of \(findings.count) files")

        if let file, !findings.contains(where: { $0.source.path == file }) {
            throw MutationError.io("--file \(file): not a Swift file of the mutated modules (\(subject.mutate.joined(separator: ", ")))"
                + "; files are named from the package root, e.g. \(findings.first?.source.path ?? "Sources/Module/File.swift")")
        }

        // The mutants this run judges.
        var chosen = allMutants.filter { m in
            (file == nil || m.file == file) && (line == nil || m.line == line)
        }
        var carried: [Int: MutantResult] = [:]
        if let survivorsOf {
            (chosen, carried) = Self.survivors(of: survivorsOf.report, among: chosen)
        }
        if let line, chosen.isEmpty { throw MutationError.io("--line \(line): no mutant of \(file ?? "the files") lies on that line") }
        if let sample, sample < chosen.count {
            var generator = SeededGenerator(seed: seed)
            chosen = Array(chosen.shuffled(using: &generator).prefix(sample)).sorted { $0.id < $1.id }
        }
        let chosenIDs = Set(chosen.map(\.id))

        // Only the files that hold a chosen mutant are written as schemata (every file in a
        // full run); the rest compile as they are.
        clock = .now
        let scoped = file != nil || line != nil || survivorsOf != nil || sample != nil
        let only = scoped ? Set(chosen.map(\.file)) : nil
        let state = SchemataState(file: scratch + "/schemata-state.json", shared: notBuiltFile)
        var build = SchemataBuild(package: SchemataPackage(subject: subject, scratch: scratch), configuration: configuration)
        build.log = log
        let outcome = try build.build(findings, known: state.known(for: findings), only: only)
        if state.save(outcome, findings: findings, written: only), let notBuiltFile {
            let shown = notBuiltFile.hasPrefix(subject.root + "/") ? String(notBuiltFile.dropFirst(subject.root.count + 1)) : notBuiltFile
            log("\(shown): updated with what this build learned (commit it with the change to the sources)")
        }
        lap("build", since: clock)
        log("schemata \(only.map { "of \($0.count) file\($0.count == 1 ? "" : "s") " } ?? "")built in \(outcome.rounds) "
            + "round\(outcome.rounds == 1 ? "" : "s") (\(outcome.seconds.map { String(format: "%.0f s", $0) }.joined(separator: ", "))); "
            + "\(outcome.notBuilt.count) mutants not built")

        // A mutant outside the run is "not run", or "not built" only when this build tried it:
        // a file compiled as it is says nothing of its mutants.
        let built = Set(outcome.files)
        var results: [MutantResult] = allMutants.filter { !chosenIDs.contains($0.id) }.map {
            let notBuilt = built.contains($0.file) ? outcome.notBuilt[$0.id] : nil
            if notBuilt == nil, let kept = carried[$0.id] { return kept }
            return MutantResult(mutant: $0, status: notBuilt != nil ? .notBuilt : .notRun, detail: notBuilt)
        }
        let runnable = chosen.filter { outcome.notBuilt[$0.id] == nil }
        results += chosen.filter { outcome.notBuilt[$0.id] != nil }.map {
            MutantResult(mutant: $0, status: .notBuilt, detail: outcome.notBuilt[$0.id])
        }

        var tolerancePolicy: String?
        var judgingDrivers = 0
        if buildOnly {
            results += runnable.map { MutantResult(mutant: $0, status: .notRun) }
        } else {
            let analysis = Analysis(driver: outcome.driver, driverArguments: ["--root", subject.root, "--scratch", scratch],
                                    scratch: scratch, constructCount: constructCount, options: options)
            analysis.log = log
            analysis.mutantCount = allMutants.map(\.id).max() ?? 0
            clock = .now
            let coverageKey = outcome.digest + "-" + Self.goldensKey(subject.root)
            let coverage = try analysis.coverage(key: coverageKey, checks: Self.checkKinds(findings, outcome, count: analysis.mutantCount))
            lap("coverage", since: clock)
            let failing = coverage.cases.filter { $0.verdict != "same" }
            if !failing.isEmpty {
                log("warning: \(failing.count) case(s) do not match their goldens unmutated (left out of judging): "
                    + failing.prefix(5).map { Escape.terminal($0.id) + " (" + Escape.terminal($0.detail) + ")" }.joined(separator: ", "))
            }
            analysis.learnCosts(coverage)
            clock = .now
            let jobs = Analysis.jobs(for: runnable, coverage: coverage, probed: outcome.probed)
            log("\(outcome.probed.count) of \(allMutants.count - outcome.notBuilt.count) mutants watched by a probe "
                + "(\(outcome.droppedSites.count) probes did not type-check); judging \(jobs.filter { !$0.cases.isEmpty || $0.rebuild }.count) "
                + "on the cases they infect, \(jobs.reduce(0) { $0 + $1.cases.count }) case drawings in all")
            let step = max(1, runnable.count / 50)
            // Every result as it comes, for these sources, these goldens and this count of kills: a
            // run started again after a stop judges only what the stopped one had not, whatever
            // build of the schemata it judges with (a stopped first build's many rounds and the
            // one round that rebuilds it leave the same mutants out, by other text).
            var key = Digest()
            key.add(Self.sourcesKey(subject) + "-" + Self.goldensKey(subject.root) + " kills \(options.killsToName)")
            let whole = scratch + "/judged-\(key.hex).jsonl"
            // A run of part of the code takes what a full run judged of these sources, and keeps
            // its own results apart (judged with other files compiled as they are), so a full
            // run takes only what a build of every file judged.
            var resume = whole, takeFrom: [String] = []
            if let only {
                key.add(" files " + only.sorted().joined(separator: ","))
                resume = scratch + "/judged-\(key.hex).jsonl"
                takeFrom = [whole]
            }
            let startedBefore = analysis.driversStarted
            var judged = analysis.judge(jobs, resume: resume, takeFrom: takeFrom) { done, all in
                if done % step == 0 || done == all { log("  judged \(done)/\(all)") }
            }
            judgingDrivers = analysis.driversStarted - startedBefore
            lap("judge", since: clock)
            let tolerances = options.tolerancesFile ?? (FileManager.default.fileExists(atPath: subject.root + "/Goldens/tolerances.json")
                ? subject.root + "/Goldens/tolerances.json" : nil)
            if let tolerances {
                clock = .now
                analysis.tolerancePass(&judged, jobs: jobs, file: options.tolerancesFile)
                tolerancePolicy = tolerances
                lap("tolerances", since: clock)
            }
            let searched = Set(judged.filter { $0.status == .survived }.map(\.mutant.id))
            if options.search && !searched.isEmpty {
                let progress: @Sendable (Int, Int) -> Void = { done, all in
                    if done % max(1, all / 10) == 0 || done == all { log("  searched \(done)/\(all)") }
                }
                // The head of the space first, recorded for the survivors alone (a body that holds
                // none of them draws as the original does, unrecorded); the rest only for the
                // survivors the head leaves open, mostly code no case runs, searched on from where
                // the head left them.
                clock = .now
                let head = try analysis.searchTableHead(key: outcome.digest, watch: searched)
                lap("search space", since: clock)
                clock = .now
                let open = analysis.classify(&judged, jobs: jobs, table: head, probed: outcome.probed,
                                             notDrawing: subject.notOnDrawingPath, progress: progress)
                lap("search", since: clock)
                if !open.isEmpty {
                    log("\(open.count) survivor(s) need more of the search space than its head; searched on from where the head left them")
                    clock = .now
                    let table = try analysis.searchTable(key: outcome.digest, watch: Set(open.keys.map { judged[$0].mutant.id }))
                    lap("search space", since: clock)
                    clock = .now
                    analysis.classify(&judged, only: open, jobs: jobs, table: table, probed: outcome.probed,
                                      notDrawing: subject.notOnDrawingPath, progress: progress)
                    lap("search", since: clock)
                }
            }
            results += judged
        }
        lap("total", since: started)

        var scope = "every mutant"
        if let file { scope = "mutants of \(file)" + (line.map { " line \($0)" } ?? "") }
        if let sample { scope += ", a sample of \(sample) (seed \(seed))" }
        if let survivorsOf {
            scope += "; the \(chosen.count) survivors of \(survivorsOf.path) (and mutants it does not hold) judged again, every other result taken from it"
        }
        // The places left unmutated, of the files the run judged.
        let unmutated = findings.filter { only?.contains($0.source.path) ?? true }.flatMap(\.unmutated)
        let report = SensitivityReport(
            results: results, notMutated: unmutated, date: Self.today(), commit: Self.commit(subject.root),
            machine: Self.machine(), scope: scope,
            options: ["jobs": "\(options.jobs)", "kills named": options.killsToName == 0 ? "all counted" : "\(options.killsToName)",
                      "search budget": "\(options.searchBudget) shipped + \(options.artworkBudget) other-artwork inputs",
                      "time limit": "\(options.timeFactor) x each case's original time + \(Int(options.timeConstant)) s",
                      "build rounds": "\(outcome.rounds)"],
            timings: timings, tolerancePolicy: tolerancePolicy)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try report.json().write(to: URL(fileURLWithPath: output + "/sensitivity.json"), options: .atomic)
        try Data(report.html().utf8).write(to: URL(fileURLWithPath: output + "/sensitivity.html"), options: .atomic)
        return Result(report: report, findings: findings, build: outcome, judgingDrivers: judgingDrivers)
    }

    /// The mutants to judge again after `previous`: those it lists as survived, and those it
    /// does not hold (new code, or code whose place moved: matched by place and change, not
    /// by ID, so a result is never taken for code it was not judged on); every other result of
    /// it, keyed by the current ID.
    public static func survivors(of previous: SensitivityReport, among candidates: [Mutant])
        -> (chosen: [Mutant], carried: [Int: MutantResult]) {
        func key(_ m: Mutant) -> String {
            "\(m.file):\(m.line):\(m.column) \(m.mutationOperator.rawValue) \(m.original) -> \(m.replacement)"
        }
        var byKey: [String: MutantResult] = [:]
        for r in previous.mutants { byKey[key(r.mutant)] = r }
        var chosen: [Mutant] = []
        var carried: [Int: MutantResult] = [:]
        for m in candidates {
            if var r = byKey[key(m)], r.status != .survived {
                r.mutant = m
                carried[m.id] = r
            } else {
                chosen.append(m)
            }
        }
        return (chosen, carried)
    }

    /// What a mutant's verdict depends on besides the goldens: the text of every source file
    /// of the package (the mutated modules and all they draw with), its skins and manifest,
    /// the driver's and the kit's sources, and this tool's own executable (which finds the
    /// mutants and numbers them). Not the schemata's text: which other mutants a build left
    /// out changes no verdict of one it holds.
    static func sourcesKey(_ subject: Subject, tool: String = CommandLine.arguments[0]) -> String {
        var digest = Digest()
        let fm = FileManager.default
        for folder in [subject.root + "/Sources", subject.root + "/Skins", subject.driverFolder, subject.kitFolder] {
            for item in entries(under: folder) {
                guard let data = fm.contents(atPath: folder + "/" + item) else { continue }
                digest.add(folder + "/" + item)
                digest.add(String(decoding: data, as: UTF8.self))
            }
        }
        digest.add((try? String(contentsOfFile: subject.root + "/Package.swift", encoding: .utf8)) ?? "")
        let attributes = try? fm.attributesOfItem(atPath: tool)
        digest.add("tool \(attributes?[.size] ?? 0) \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        return digest.hex
    }

    /// Every path under `folder` (relative to it, folders too), sorted; none when it is missing.
    static func entries(under folder: String) -> [String] {
        var entries: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder)
        while let item = walker?.nextObject() as? String { entries.append(item) }
        return entries.sorted()
    }

    /// What the checks do with each mutant ID (the driver's `mutation_check_prepare`): -1 a probe
    /// watches it (checked where the probe saw it change a value), its construct's ID when no
    /// probe does (checked where the construct ran), -2 never cleared: not built, in a file
    /// compiled as it is, or outside every function body (a global's or a stored property's
    /// value, which may be worked out once, inside a check, and kept). Nil when no checked
    /// function was built with its check.
    static func checkKinds(_ findings: [FileFindings], _ outcome: SchemataBuild.Outcome, count: Int) -> [Int]? {
        guard outcome.checks else { return nil }
        let built = Set(outcome.files)
        var kinds = [Int](repeating: -2, count: count + 1)
        for f in findings where built.contains(f.source.path) {
            for c in f.constructs where f.bodies.contains(where: { $0.contains(c.start) }) {
                for m in c.mutants where outcome.notBuilt[m] == nil && m <= count {
                    kinds[m] = outcome.probed.contains(m) ? -1 : c.id
                }
            }
        }
        return kinds
    }

    /// Names, sizes and times of the golden files: coverage records their verdicts.
    static func goldensKey(_ root: String) -> String {
        var digest = Digest()
        let folder = root + "/Goldens"
        for item in entries(under: folder) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + item)
            digest.add("\(item) \(attributes?[.size] ?? 0) \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        }
        return digest.hex
    }

    static func today() -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd HH:mm"
        f.locale = Locale(identifier: "en_US_POSIX")
        return f.string(from: Date())
    }

    static func commit(_ root: String) -> String {
        guard let (status, out) = try? SchemataBuild.run(["git", "-C", root, "rev-parse", "--short", "HEAD"]), status == 0 else {
            return "unknown"
        }
        let dirty = (try? SchemataBuild.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"]))?.1
            .contains { !$0.isWhitespace } ?? false
        return out.trimmingCharacters(in: .whitespacesAndNewlines) + (dirty ? " (with uncommitted changes)" : "")
    }

    static func machine() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        return "\(cores) cores, load \(load) at the end"
    }
}

/// The mutants and constructs that did not build, kept between runs per file (by the
/// file's digest and each mutant's place in it), so an unchanged file's schemata builds at
/// once next time.
struct SchemataState {
    let file: String
    /// The same, committed beside the driver (`MutationRun.notBuiltFile`): a fresh clone's
    /// first build starts from what the last run learned instead of finding it again in rounds.
    var shared: String? = nil

    struct Entry: Codable {
        var digest: String
        /// Mutant index within the file -> the compiler's message.
        var notBuilt: [Int: String]
        var droppedConstructs: [Int: String]
        /// The probes, kept apart: a change to how probes are written keeps what is known of the mutants.
        var probeDigest: String?
        var droppedSites: [Int: String]?
    }

    static func load(_ file: String) -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: file) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }

    /// The file and what the finder made of it: a finder that changes starts the file afresh.
    static func digest(_ f: FileFindings) -> String {
        var d = Digest()
        d.add(f.source.text)
        for c in f.constructs { d.add("\(c.form) \(c.start) \(c.end) \(c.mutants.count)") }
        for m in f.mutants { d.add("\(m.start) \(m.end) \(m.replacement)") }
        return d.hex
    }

    static func probeDigest(_ f: FileFindings) -> String {
        var d = Digest()
        d.add(digest(f))
        d.add(SchemataWriter.reachFile)
        // By place within the file: IDs count on across files, and a change in one file must not
        // throw away what is known of another's probes.
        let firstConstruct = f.constructs.first?.id ?? 0
        for s in f.sites { d.add("\(s.construct - firstConstruct) \(s.start) \(s.end) \(s.pieces.map(Self.shape))") }
        return d.hex
    }

    /// A probe's piece without the mutant IDs it names (they count on across files too).
    private static func shape(_ piece: ProbeSite.Piece) -> String {
        if case .mutant = piece { return "mutant" }
        return "\(piece)"
    }

    func known(for findings: [FileFindings]) -> SchemataBuild.Known {
        let entries = Self.load(file), sharedEntries = shared.map(Self.load) ?? [:]
        var known = SchemataBuild.Known()
        for f in findings {
            // The scratch folder's word first; the shared file's when the scratch holds nothing
            // for this text of the file (a fresh clone, or a file changed back).
            let digest = Self.digest(f), probeDigest = Self.probeDigest(f)
            let candidates = [entries[f.source.path], sharedEntries[f.source.path]].compactMap { $0 }.filter { $0.digest == digest }
            guard let entry = candidates.first(where: { $0.probeDigest == probeDigest }) ?? candidates.first,
                  let firstMutant = f.mutants.first?.id, let firstConstruct = f.constructs.first?.id else { continue }
            for (index, message) in entry.notBuilt where index < f.mutants.count { known.notBuilt[firstMutant + index] = message }
            for (index, message) in entry.droppedConstructs where index < f.constructs.count {
                known.droppedConstructs[firstConstruct + index] = message
            }
            if let firstSite = f.sites.first?.id, entry.probeDigest == probeDigest {
                for (index, message) in entry.droppedSites ?? [:] where index < f.sites.count {
                    known.droppedSites[firstSite + index] = message
                }
            }
        }
        return known
    }

    /// Records what the build learned of the files it wrote (`written`, every file when nil),
    /// in the scratch folder and in the shared file; what is known of the others stays, and
    /// files no longer found are forgotten. Whether the shared file changed.
    @discardableResult
    func save(_ outcome: SchemataBuild.Outcome, findings: [FileFindings], written: Set<String>? = nil) -> Bool {
        _ = Self.save(outcome, findings: findings, written: written, to: file)
        return shared.map { Self.save(outcome, findings: findings, written: written, to: $0) } ?? false
    }

    private static func save(_ outcome: SchemataBuild.Outcome, findings: [FileFindings], written: Set<String>?, to file: String) -> Bool {
        let present = Set(findings.map(\.source.path))
        var entries = load(file).filter { present.contains($0.key) }
        for f in findings where written?.contains(f.source.path) ?? true {
            guard let firstMutant = f.mutants.first?.id, let firstConstruct = f.constructs.first?.id else { continue }
            var entry = Entry(digest: Self.digest(f), notBuilt: [:], droppedConstructs: [:], probeDigest: Self.probeDigest(f),
                              droppedSites: [:])
            for m in f.mutants { if let message = outcome.notBuilt[m.id] { entry.notBuilt[m.id - firstMutant] = message } }
            for c in f.constructs {
                if let message = outcome.droppedConstructs[c.id] { entry.droppedConstructs[c.id - firstConstruct] = message }
            }
            if let firstSite = f.sites.first?.id {
                for s in f.sites { if let message = outcome.droppedSites[s.id] { entry.droppedSites?[s.id - firstSite] = message } }
            }
            entries[f.source.path] = entry
        }
        // Sorted and one field a line: the shared file is reviewed in diffs.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entries), data != FileManager.default.contents(atPath: file) else { return false }
        return (try? data.write(to: URL(fileURLWithPath: file), options: .atomic)) != nil
    }
}

/// SplitMix64: a sample the same for the same seed on every machine.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
