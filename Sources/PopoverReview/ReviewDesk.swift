import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import PopoverImage
import PopoverSkins

/// Accepting a finished run's cases, and undoing that, from the report folder the run
/// left: the command line, an approvals file and the live server all come here. Each case
/// is checked by `GoldenAcceptor`; an operation's steps, and why there is no journal, are
/// `operation`'s.
public struct ReviewDesk: Sendable {
    public let report: ReportFolder
    /// The goldens folder; nil: the one the run was checked against.
    public let goldensFolder: String?
    /// The cases as this build draws them. Nil: the catalog of `skinsFolder`, loaded when
    /// needed.
    public let catalog: CaseCatalog?
    public let skinsFolder: String

    public init(reportsFolder: String, goldensFolder: String? = nil, skinsFolder: String = SkinCatalog.defaultSkinsFolder,
                catalog: CaseCatalog? = nil) {
        report = ReportFolder(reportsFolder)
        self.goldensFolder = goldensFolder
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

    public func accept(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try operation { run, store, outcome in
            let acceptor = GoldenAcceptor(store: store)
            let catalog = self.catalog ?? CaseCatalog.standard(skinsFolder: skinsFolder)
            let cases = Dictionary(catalog.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            return try steps(for: select(choice, in: run, refusing: &outcome.refused), of: run, outcome: &outcome) { result, approval in
                if result.accepted != nil { return nil }
                guard result.status.isAcceptable else { throw AcceptRefusal.notAcceptable(id: result.id, status: result.status) }
                guard let relative = result.artifacts.actual?.path else { throw AcceptRefusal.noActualImage(id: result.id) }
                let actual = try fileInReport(relative, of: result.id)
                guard let c = cases[result.id], let image = try? catalog.draw(c), let facts = try? catalog.facts(of: c) else {
                    throw AcceptRefusal.notInCatalog(id: result.id)
                }
                let plan = try acceptor.plan(result, actualFile: actual.bytes, actualPath: actual.path, approval: approval,
                                             drawing: .init(image: image, facts: facts.facts),
                                             kept: try? fileInReport(Self.previousFile(for: result.id), of: result.id).bytes)
                if !plan.alreadyWritten { try keepPrevious(plan, store: store) }
                return Step(id: result.id, accepted: plan.acceptance(at: Date()), finishing: plan.alreadyWritten) {
                    () throws(AcceptRefusal) in try acceptor.carryOutHoldingLock(plan)
                }
            }
        }
    }

    /// Puts back the goldens that accepting the chosen cases replaced.
    public func undo(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try operation { run, store, outcome in
            let acceptor = GoldenAcceptor(store: store)
            let chosen = try select(choice, in: run, forUndo: true, refusing: &outcome.refused)
            return try steps(for: chosen, of: run, outcome: &outcome) { result, _ in
                let kept = try? fileInReport(Self.previousFile(for: result.id), of: result.id)
                let facts = try? fileInReport(Self.previousFactsFile(for: result.id), of: result.id)
                let plan = try acceptor.planUndo(result, kept: kept?.bytes, keptPath: report.path + "/" + Self.previousFile(for: result.id),
                                                 keptFacts: facts.flatMap { try? GoldenFacts.decode($0.bytes, name: $0.path) })
                return Step(id: result.id, accepted: nil, finishing: plan.alreadyDone) {
                    () throws(AcceptRefusal) in try acceptor.undoHoldingLock(plan)
                }
            }
        }
    }

    /// Where the golden an acceptance replaced, and its facts' row, are kept, relative to
    /// the report folder.
    static func previousFile(for id: String) -> String { "accepted/\(id).previous.png" }
    static func previousFactsFile(for id: String) -> String { "accepted/\(id).previous.facts.json" }

    /// The file a path of the report names, with its bytes: it must lie inside the report
    /// folder, symbolic links followed (a report edited to point elsewhere is refused).
    private func fileInReport(_ relative: String, of id: String) throws(AcceptRefusal) -> (path: String, bytes: [UInt8]) {
        let path = report.path + "/" + relative
        switch FilePaths.file(relative, inside: report.path) {
        case .found: break
        case .notPlain: throw .unreadableActual(id: id, reason: "\(relative) is not a path inside the report folder")
        case .missingOrOutside: throw .unreadableActual(id: id, reason: "\(relative) is missing, or leads out of the report folder")
        }
        do { return (path, try FileIO.readBytes(path: path)) } catch { throw .unreadableActual(id: id, reason: "\(error)") }
    }

    // MARK: Steps

    /// One golden to replace (accepting) or put back (undoing), checked, and what the
    /// record says of its case once it is written.
    private struct Step {
        let id: String
        let accepted: Acceptance?
        /// The golden is already what the step writes: an operation stopped before its
        /// report recorded it.
        let finishing: Bool
        let write: () throws(AcceptRefusal) -> Void
    }

    /// The steps for `chosen`, each made by `make` (nil: already done), the run changed as
    /// if each will succeed; a refusal is said and changes nothing.
    private func steps(for chosen: [(Int, Approval?)], of run: RunRecord, outcome: inout ReviewOutcome,
                       _ make: (CaseResult, Approval?) throws -> Step?) throws -> [(Int, Step)] {
        var steps: [(Int, Step)] = []
        for (index, approval) in chosen {
            do {
                if let step = try make(run.results[index], approval) {
                    steps.append((index, step))
                } else {
                    outcome.alreadyAccepted.append(run.results[index].id)
                }
            } catch let refusal as AcceptRefusal {
                outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
            }
        }
        return steps
    }

    /// One review operation, holding the report's lock and then the goldens folder's:
    ///
    /// 1. `decide` checks the chosen cases and keeps in the report what they will replace,
    ///    having replaced no golden;
    /// 2. the report as it will be is staged: if it cannot be written (a full disk), no
    ///    golden is replaced;
    /// 3. each golden and its facts are replaced as one unit; a case whose write fails is
    ///    refused and taken out of the record, which is staged again;
    /// 4. the staged report is put in place, summary.json first.
    ///
    /// There is no journal: a golden is replaced in one rename, so after a kill it is old
    /// or new, and the disk says how far the operation got. A golden already what an
    /// accept (or undo) of the case leaves, while the report keeps what it replaced, is
    /// one stopped before the report recorded it: the next operation records it
    /// (`GoldenAcceptor`). Should the report not take the second staging (the disk filled
    /// meanwhile), the outcome says which goldens were written without being recorded.
    private func operation(_ decide: (RunRecord, GoldenStore, inout ReviewOutcome) throws -> [(Int, Step)])
        throws(ReviewError) -> ReviewOutcome {
        do {
            return try report.withLock {
                var run = try load()
                let store = try store(for: run)
                return try store.locked {
                    var outcome = ReviewOutcome()
                    let steps = try decide(run, store, &outcome)
                    guard !steps.isEmpty else { return outcome }
                    let before = run
                    for (index, step) in steps { run.results[index].accepted = step.accepted }
                    do { try report.stageFiles(of: run) } catch { throw ReviewError.cannotRecord("\(error)") }
                    CrashPoint.reach("review.staged")
                    var written: [Step] = []
                    for (index, step) in steps {
                        do {
                            try step.write()
                            written.append(step)
                            CrashPoint.reach("review.golden-written")
                        } catch {
                            outcome.refused.append(.init(id: step.id, reason: "\(error)"))
                            run.results[index].accepted = before.results[index].accepted
                        }
                    }
                    do {
                        if written.isEmpty { report.discardStagedFiles() }
                        if !written.isEmpty && written.count < steps.count { try report.stageFiles(of: run) }
                        if !written.isEmpty { try report.publishStagedFiles() }
                    } catch {
                        report.discardStagedFiles()
                        outcome.unrecorded = "\(error)"
                    }
                    CrashPoint.reach("review.published")
                    for step in written {
                        if step.accepted != nil {
                            outcome.accepted.append(step.id)
                        } else {
                            outcome.undone.append(step.id)
                            if outcome.unrecorded == nil {
                                unlink(report.path + "/" + Self.previousFile(for: step.id))
                                unlink(report.path + "/" + Self.previousFactsFile(for: step.id))
                            }
                        }
                        if step.finishing { outcome.finished.append(step.id) }
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

    /// The results a choice names, each once, as (index in the run, approval if any), in
    /// run order. A case approved twice with different images is refused.
    private func select(_ choice: Choice, in run: RunRecord, forUndo: Bool = false,
                        refusing refused: inout [ReviewOutcome.Refused]) throws(ReviewError) -> [(Int, Approval?)] {
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
            return Set(ids).compactMap { indexByID[$0] }.sorted().map { ($0, nil) }
        case .approvals(let approvals):
            let unknown = approvals.map(\.id).filter { indexByID[$0] == nil }
            guard unknown.isEmpty else { throw .unknownCases(unknown) }
            var byID: [String: Approval] = [:], twice: Set<String> = []
            for approval in approvals where byID.updateValue(approval, forKey: approval.id).map({ $0 != approval }) == true {
                twice.insert(approval.id)
            }
            refused += twice.sorted().map { .init(id: $0, reason: AcceptRefusal.approvedTwice(id: $0).description) }
            return byID.values.filter { !twice.contains($0.id) }.map { (indexByID[$0.id]!, $0) }.sorted { $0.0 < $1.0 }
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

    /// Keeps the golden a plan replaces, and its row of the facts table as it is, inside
    /// the report for undo.
    private func keepPrevious(_ plan: GoldenAcceptor.Plan, store: GoldenStore) throws(AcceptRefusal) {
        if let linked = FilePaths.linkedFolder(under: report.path, along: Self.previousFile(for: plan.id)) {
            throw .cannotWrite(id: plan.id, reason: "cannot keep the previous golden for undo: \(linked) is a symbolic link")
        }
        let kept = [(Self.previousFile(for: plan.id), plan.previous),
                    (Self.previousFactsFile(for: plan.id), store.recordedFacts(for: plan.id)?.encoded())]
        do {
            for (relative, bytes) in kept {
                let path = report.path + "/" + relative
                guard let bytes else {
                    unlink(path)
                    continue
                }
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
    /// Cases of `accepted` or `undone` whose golden was already as the operation leaves
    /// it: an earlier one stopped after writing it and before its report recorded it.
    public var finished: [String] = []
    /// Why the report could not record what was written (the goldens of `accepted` and
    /// `undone` are written all the same); nil when it did.
    public var unrecorded: String?

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
