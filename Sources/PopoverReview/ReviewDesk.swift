import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import PopoverGeometry
import PopoverSkins
import PopoverImage

/// Accepting a finished run's actual images as goldens, and undoing that, from the
/// report folder the run left: the command line, an approvals file and the live server
/// all come here.
///
/// Every operation is one transaction under the report's lock: the run is read from its
/// summary.json, each chosen case is checked (its saved actual image and the golden on
/// disk must still be what the run recorded; an approval must name those same files) and
/// written, and the report is rewritten to mark what was accepted. A case that fails a
/// check is refused with a reason and nothing is written for it; the others go ahead.
/// The golden each acceptance replaces is kept under the report's `accepted/` folder, so
/// `undo` can put it back until the next check replaces the report.
public struct ReviewDesk: Sendable {
    public let report: ReportFolder
    /// The goldens folder; nil: the one the run was checked against.
    public let goldensFolder: String?
    public let cacheFolder: String?
    /// The cases as this build draws them: an acceptance computes each case's facts from
    /// them rather than trust a report's. Nil: the catalog of `skinsFolder`, loaded when
    /// needed.
    public let catalog: CaseCatalog?
    public let skinsFolder: String

    public init(reportsFolder: String, goldensFolder: String? = nil,
                cacheFolder: String? = GoldenDigestCache.defaultFolder(), skinsFolder: String = SkinCatalog.defaultSkinsFolder,
                catalog: CaseCatalog? = nil) {
        report = ReportFolder(reportsFolder)
        self.goldensFolder = goldensFolder
        self.cacheFolder = cacheFolder
        self.skinsFolder = skinsFolder
        self.catalog = catalog
    }

    /// Which cases to accept.
    public enum Choice: Sendable {
        /// Cases whose IDs match these filters (plain text or wildcard patterns, as
        /// `check --filter` reads them): each must match some case of the run.
        case matching([String])
        /// Exactly these IDs, each a case of the run (the live server's requests).
        case exactly([String])
        /// An approvals file's entries: each names its case and the two images.
        case approvals([Approval])
        /// Every case of one change of the run (`RunRecord.changes`).
        case change(String)
    }

    public func load() throws(ReviewError) -> RunRecord {
        do { return try report.load() } catch { throw .report(error) }
    }

    /// Loads the run and settles the goldens folder, so a review that could accept
    /// nothing says why before it starts.
    public func prepare() throws(ReviewError) -> RunRecord {
        let run = try load()
        _ = try store(for: run)
        return run
    }

    public func accept(_ choice: Choice, at date: Date = Date()) throws(ReviewError) -> ReviewOutcome {
        try transaction { run, store, outcome in
            let chosen = try select(choice, in: run)
            let acceptor = GoldenAcceptor(store: store, cache: GoldenDigestCache(folder: cacheFolder))
            let key = machineKey()
            let catalog = self.catalog ?? CaseCatalog.standard(skinsFolder: skinsFolder)
            let cases = Dictionary(catalog.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var steps: [Step] = []
            for (index, approval) in chosen {
                let result = run.results[index]
                if result.accepted != nil {
                    outcome.alreadyAccepted.append(result.id)
                    continue
                }
                do {
                    guard result.status.isAcceptable else {
                        throw AcceptRefusal.notAcceptable(id: result.id, status: result.status)
                    }
                    let actualPath = try imagePath(result.artifacts.actual?.path, of: result.id)
                    let bytes: [UInt8]
                    do { bytes = try FileIO.readBytes(path: actualPath) } catch {
                        throw AcceptRefusal.unreadableActual(id: result.id, reason: "\(error)")
                    }
                    guard let c = cases[result.id], let drawn = try? catalog.facts(of: c) else {
                        throw AcceptRefusal.notInCatalog(id: result.id)
                    }
                    try checkCause(result, drawn: drawn.facts, store: store)
                    let plan = try acceptor.plan(result, actualFile: bytes, actualPath: actualPath, approval: approval,
                                                 facts: drawn.facts)
                    try keepPrevious(plan, store: store)
                    let acceptance = acceptor.acceptance(of: plan, at: date, key: key)
                    run.results[index].accepted = acceptance
                    steps.append(Step(index: index, id: result.id, acceptance: acceptance, undo: false) {
                        () throws(AcceptRefusal) in try acceptor.carryOutHoldingLock(plan)
                    })
                } catch let refusal as AcceptRefusal {
                    outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                }
            }
            defer { if let cache = acceptor.cache { try? cache.save() } }
            return steps
        }
    }

    /// Puts back the goldens that accepting the chosen cases replaced.
    public func undo(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try transaction { run, store, outcome in
            let chosen = try select(choice, in: run, forUndo: true)
            let acceptor = GoldenAcceptor(store: store, cache: nil)
            let key = machineKey()
            var steps: [Step] = []
            for (index, _) in chosen {
                let result = run.results[index]
                // An undo a killed operation had completed on disk, which recovery has just
                // recorded: done.
                if result.accepted == nil && outcome.recovered.contains(result.id) {
                    outcome.undone.append(result.id)
                    continue
                }
                do {
                    let previousPath = report.path + "/" + Self.previousFile(for: result.id)
                    // Kept inside the report, not through a link out of it.
                    var inside = previousPath
                    if FileManager.default.fileExists(atPath: previousPath) {
                        do { inside = try imagePath(Self.previousFile(for: result.id), of: result.id) } catch {
                            throw AcceptRefusal.previousLost(id: result.id, path: previousPath)
                        }
                    }
                    let previous = try? FileIO.readBytes(path: inside)
                    let factsPath = report.path + "/" + Self.previousFactsFile(for: result.id)
                    let previousFacts = (try? FileIO.readBytes(path: factsPath)).flatMap {
                        try? GoldenFacts.decode($0, name: factsPath)
                    }
                    // Checked now, so that a refusal changes nothing; the write comes later.
                    let plan = try acceptor.planUndo(result, previous: previous, previousPath: previousPath, key: key)
                    run.results[index].accepted = nil
                    steps.append(Step(index: index, id: result.id, acceptance: plan.acceptance, undo: true) {
                        () throws(AcceptRefusal) in try acceptor.undoHoldingLock(plan, previousFacts: previousFacts)
                    })
                } catch let refusal as AcceptRefusal {
                    outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                }
            }
            return steps
        }
    }

    /// A change groups cases by what the run recorded of their causes, and the record may
    /// have travelled: so the geometry a case's cause names must be what the golden's own
    /// facts and this build's give, or the case is refused.
    private func checkCause(_ result: CaseResult, drawn: Facts, store: GoldenStore) throws(AcceptRefusal) {
        guard let cause = result.cause, cause.facts == .recorded else { return }
        let recorded = store.facts(for: result.id, goldenDigest: result.goldenDigest)
        guard let expected = recorded.facts, CaseCause.deltas(expected: expected, actual: drawn) == cause.geometry else {
            throw AcceptRefusal.causeDiffers(id: result.id)
        }
    }

    /// Where the golden an acceptance replaced is kept, relative to the report folder.
    static func previousFile(for id: String) -> String { "accepted/\(id).previous.png" }
    static func previousFactsFile(for id: String) -> String { "accepted/\(id).previous.facts.json" }

    /// The key acceptances are sealed with: this machine's, kept beside the digest cache.
    private func machineKey() -> MachineKey? {
        if case .key(let key) = MachineKey.readOrMake(in: cacheFolder ?? GoldenDigestCache.defaultFolder()) { return key }
        return nil
    }

    // MARK: Steps

    /// One golden to replace (accepting) or put back (undoing), decided and checked; its
    /// write comes once the report can record it.
    private struct Step {
        let index: Int
        let id: String
        let acceptance: Acceptance
        let undo: Bool
        let write: () throws(AcceptRefusal) -> Void
    }

    /// One review operation, holding the report's lock and then the goldens folder's:
    ///
    /// 1. a journal a killed operation left is applied to the run (see `AcceptJournal`);
    /// 2. `decide` checks the chosen cases, changes the run as if every write succeeds and
    ///    returns the writes, having written no golden;
    /// 3. the changed report is staged and the journal written: if either cannot be
    ///    written (a full disk), no golden is replaced;
    /// 4. the goldens are replaced; a write that fails is refused and taken out of the run
    ///    (restaged);
    /// 5. the report is published, and the journal removed.
    private func transaction(_ decide: (inout RunRecord, GoldenStore, inout ReviewOutcome) throws -> [Step])
        throws(ReviewError) -> ReviewOutcome {
        do {
            return try report.withLock {
                var run = try load()
                let store = try store(for: run)
                return try store.locked {
                    var outcome = ReviewOutcome()
                    let journal = try AcceptJournal.read(in: report)
                    if let journal { outcome.recovered = journal.settle(&run, store: store) }
                    let before = run
                    let steps = try decide(&run, store, &outcome)
                    guard !steps.isEmpty || journal != nil else { return outcome }
                    do {
                        try report.stageFiles(of: run)
                        try AcceptJournal(entries: steps.map { .init(id: $0.id, acceptance: $0.acceptance) }).write(in: report)
                    } catch {
                        report.discardStagedFiles()
                        throw ReviewError.cannotRecord("\(error)")
                    }
                    CrashPoint.reach("review.staged")
                    var failed = false
                    for step in steps {
                        do {
                            try step.write()
                            if step.undo { outcome.undone.append(step.id) } else { outcome.accepted.append(step.id) }
                            CrashPoint.reach("review.golden-written")
                        } catch {
                            outcome.refused.append(.init(id: step.id, reason: "\(error)"))
                            run.results[step.index].accepted = before.results[step.index].accepted
                            failed = true
                        }
                    }
                    if failed { try report.stageFiles(of: run) }
                    try report.publishStagedFiles()
                    CrashPoint.reach("review.published")
                    AcceptJournal.remove(in: report)
                    for step in steps where step.undo && outcome.undone.contains(step.id) {
                        unlink(report.path + "/" + Self.previousFile(for: step.id))
                        unlink(report.path + "/" + Self.previousFactsFile(for: step.id))
                    }
                    return outcome
                }
            }
        } catch let error as ReviewError {
            throw error
        } catch let error as ReportError {
            throw .report(error)
        } catch {
            throw .report(.io("\(error)"))
        }
    }

    /// The goldens folder: as named (`--goldens`), else `Goldens` when the run was
    /// checked against that. summary.json says which folder, and a report from elsewhere
    /// must not choose where goldens are written (`Skins/...` holds PNG files too).
    private func store(for run: RunRecord) throws(ReviewError) -> GoldenStore {
        if let goldensFolder { return GoldenStore(folder: goldensFolder) }
        let folder = run.goldensFolder
        guard ["Goldens", "Goldens/", "./Goldens", "./Goldens/"].contains(folder) else {
            throw .goldensFolderNotNamed(folder)
        }
        return GoldenStore(folder: "Goldens")
    }

    /// The results a choice names, as (index in the run, approval if any), in run order.
    private func select(_ choice: Choice, in run: RunRecord, forUndo: Bool = false) throws(ReviewError) -> [(Int, Approval?)] {
        let indexByID = Dictionary(uniqueKeysWithValues: run.results.enumerated().map { ($1.id, $0) })
        switch choice {
        case .change(let id):
            guard let change = run.change(id) else { throw .unknownChange(id, known: run.changes.map(\.id)) }
            // Every member, each checked on its own: a change is only what the run's record
            // says, and a record may have been edited.
            let members = Set(change.cases)
            let chosen = run.results.indices.filter {
                members.contains(run.results[$0].id) && (!forUndo || run.results[$0].accepted != nil)
            }
            guard !chosen.isEmpty else { throw .nothingToDo("--change \(id)", undo: forUndo) }
            return chosen.map { ($0, nil) }
        case .exactly(let ids):
            let unknown = ids.filter { indexByID[$0] == nil }
            guard unknown.isEmpty else { throw .unknownCases(unknown) }
            return Array(Set(ids)).compactMap { indexByID[$0] }.sorted().map { ($0, nil) }
        case .approvals(let approvals):
            let unknown = approvals.map(\.id).filter { indexByID[$0] == nil }
            guard unknown.isEmpty else { throw .unknownCases(unknown) }
            return approvals.map { (indexByID[$0.id]!, $0) }.sorted { $0.0 < $1.0 }
        case .matching(let patterns):
            var chosen = Set<Int>()
            for pattern in patterns {
                let filter = CaseFilter(pattern)
                let matched = run.results.indices.filter { filter.matches(run.results[$0].id) }
                guard !matched.isEmpty else { throw .noCaseMatches(pattern) }
                // A pattern picks what there is to accept (or undo); an exact ID is taken as
                // asked, so a passing case named on its own is refused with its reason.
                let useful = matched.filter { forUndo ? run.results[$0].accepted != nil : run.results[$0].status.isAcceptable }
                chosen.formUnion(matched.count == 1 ? matched : useful)
                if useful.isEmpty && matched.count > 1 { throw .nothingToDo(pattern, undo: forUndo) }
            }
            return chosen.sorted().map { ($0, nil) }
        }
    }

    /// The file an image path of summary.json names, which must lie inside the report
    /// folder (a summary edited to point elsewhere is refused).
    private func imagePath(_ relative: String?, of id: String) throws(AcceptRefusal) -> String {
        guard let relative else { throw .noActualImage(id: id) }
        switch FilePaths.file(relative, inside: report.path) {
        case .found: return report.path + "/" + relative
        case .notPlain: throw .unreadableActual(id: id, reason: "\(relative) is not a path inside the report folder")
        case .missingOrOutside:
            throw .unreadableActual(id: id, reason: "\(relative) is missing, or leads out of the report folder")
        }
    }

    /// Keeps the golden a plan replaces, and its facts, inside the report for undo.
    private func keepPrevious(_ plan: GoldenAcceptor.Plan, store: GoldenStore) throws(AcceptRefusal) {
        guard let previous = plan.previous else { return }
        if let linked = FilePaths.linkedFolder(under: report.path, along: Self.previousFile(for: plan.id)) {
            throw .cannotWrite(id: plan.id, reason: "cannot keep the previous golden for undo: \(linked) is a symbolic link")
        }
        var files = [(Self.previousFile(for: plan.id), previous)]
        if let facts = store.recordedFacts(for: plan.id) {
            files.append((Self.previousFactsFile(for: plan.id), facts.encoded()))
        }
        do {
            for (relative, bytes) in files {
                let path = report.path + "/" + relative
                try FileIO.createDirectories(FilePaths.parent(of: path))
                try FileIO.writeAtomically(bytes, to: path)
            }
        } catch {
            throw .cannotWrite(id: plan.id, reason: "cannot keep the previous golden for undo: \(error)")
        }
    }
}

/// What a review operation did, case by case.
public struct ReviewOutcome: Sendable, Codable, Equatable {
    public struct Refused: Sendable, Codable, Equatable {
        public var id: String
        public var reason: String
    }

    public var accepted: [String] = []
    public var alreadyAccepted: [String] = []
    public var undone: [String] = []
    public var refused: [Refused] = []
    /// Cases whose record a killed review operation had left behind their goldens, now
    /// brought into line (see `AcceptJournal`).
    public var recovered: [String] = []

    public init() {}
}

/// A review operation that could not start; nothing was written.
public enum ReviewError: Error, Equatable, CustomStringConvertible {
    case report(ReportError)
    case noCaseMatches(String)
    case nothingToDo(String, undo: Bool)
    case unknownCases([String])
    case approvals(file: String, reason: String)
    case goldensFolderNotNamed(String)
    case unknownChange(String, known: [String])
    /// The report could not be staged (a full disk, say): no golden was replaced.
    case cannotRecord(String)

    public var description: String {
        switch self {
        case .report(let error): "\(error)"
        case .noCaseMatches(let pattern): "'\(pattern)' matches no case of the run"
        case .nothingToDo(let pattern, let undo):
            undo ? "'\(pattern)' matches no case accepted in this review" : "'\(pattern)' matches no case that can be accepted"
        case .unknownCases(let ids):
            "not cases of the run being reviewed: " + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
        case .approvals(let file, let reason): "\(file): \(reason)"
        case .unknownChange(let id, let known):
            "'\(id)' is not a change of the run" + (known.isEmpty ? " (it has none)" : " (its changes: "
                + known.prefix(8).joined(separator: ", ") + (known.count > 8 ? ", …" : "") + ")")
        case .cannotRecord(let reason):
            "\(reason); no golden was replaced, since the report could not record it"
        case .goldensFolderNotNamed(let folder):
            "the run was checked against the goldens folder \(String(reflecting: folder)); a report does not "
                + "choose where goldens are written, so name it with --goldens"
        }
    }
}
