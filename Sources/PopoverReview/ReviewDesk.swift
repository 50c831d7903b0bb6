import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import PopoverImage
import PopoverSkins

/// Accepting a finished run's cases, and undoing that, from the report folder the run
/// left: the command line, an approvals file and the live server all come here.
///
/// An operation holds the report's lock, then the goldens folder's. It reads the run from
/// summary.json, checks each chosen case (`GoldenAcceptor`: what this build draws must
/// be what the report shows, and the golden on disk the one the run compared against),
/// keeps each golden it will replace under the report's `accepted/` folder (so `undo` can
/// put it back until the next check replaces the report), stages the report as it will
/// be, replaces each golden and its facts as one unit, and publishes the report. A case
/// that fails a check is refused with a reason and nothing is written for it; the others
/// go ahead.
///
/// There is no journal: a golden is replaced in one rename, so a kill leaves it old or
/// new, and the state on disk says how far an operation got. A golden that is already
/// this build's drawing, while the report keeps the golden the run compared against, is
/// an accept stopped before its report recorded it; the next accept of the case records
/// it. The same for undo.
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
            var steps: [Step] = []
            for (index, approval) in try select(choice, in: run, refusing: &outcome.refused) {
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
                    guard let c = cases[result.id], let image = try? catalog.draw(c), let facts = try? catalog.facts(of: c) else {
                        throw AcceptRefusal.notInCatalog(id: result.id)
                    }
                    let plan = try acceptor.plan(result, actualFile: bytes, actualPath: actualPath, approval: approval,
                                                 drawing: .init(image: image, facts: facts.facts),
                                                 kept: kept(result.id).bytes)
                    if !plan.alreadyWritten { try keepPrevious(plan, store: store) }
                    run.results[index].accepted = plan.acceptance(at: Date())
                    steps.append(Step(index: index, id: result.id, undo: false, finishing: plan.alreadyWritten) {
                        () throws(AcceptRefusal) in try acceptor.carryOutHoldingLock(plan)
                    })
                } catch let refusal as AcceptRefusal {
                    outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                }
            }
            return steps
        }
    }

    /// Puts back the goldens that accepting the chosen cases replaced.
    public func undo(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try operation { run, store, outcome in
            let acceptor = GoldenAcceptor(store: store)
            var steps: [Step] = []
            for (index, _) in try select(choice, in: run, forUndo: true, refusing: &outcome.refused) {
                let result = run.results[index]
                do {
                    let previous = kept(result.id)
                    let factsPath = report.path + "/" + Self.previousFactsFile(for: result.id)
                    let keptFacts = (try? FileIO.readBytes(path: factsPath)).flatMap { try? GoldenFacts.decode($0, name: factsPath) }
                    let plan = try acceptor.planUndo(result, kept: previous.bytes, keptPath: previous.path, keptFacts: keptFacts)
                    run.results[index].accepted = nil
                    steps.append(Step(index: index, id: result.id, undo: true, finishing: plan.alreadyDone) {
                        () throws(AcceptRefusal) in try acceptor.undoHoldingLock(plan)
                    })
                } catch let refusal as AcceptRefusal {
                    outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                }
            }
            return steps
        }
    }

    /// Where the golden an acceptance replaced is kept, relative to the report folder.
    static func previousFile(for id: String) -> String { "accepted/\(id).previous.png" }
    static func previousFactsFile(for id: String) -> String { "accepted/\(id).previous.facts.json" }

    /// What the report keeps of the golden `id`'s acceptance replaced: its path, and its
    /// bytes when it is a file inside the report (never through a link out of it).
    private func kept(_ id: String) -> (path: String, bytes: [UInt8]?) {
        let relative = Self.previousFile(for: id)
        guard case .found = FilePaths.file(relative, inside: report.path) else { return (report.path + "/" + relative, nil) }
        return (report.path + "/" + relative, try? FileIO.readBytes(path: report.path + "/" + relative))
    }

    // MARK: Steps

    /// One golden to replace (accepting) or put back (undoing), decided and checked; its
    /// write comes once the report can record it.
    private struct Step {
        let index: Int
        let id: String
        let undo: Bool
        /// The golden is already what the step writes: it records an operation stopped
        /// before its report did.
        let finishing: Bool
        let write: () throws(AcceptRefusal) -> Void
    }

    /// One review operation, holding the report's lock and then the goldens folder's:
    ///
    /// 1. `decide` checks the chosen cases, keeps the goldens they replace in the report,
    ///    changes the run as if every write succeeds and returns the writes, having
    ///    replaced no golden;
    /// 2. the changed report is staged: if it cannot be written (a full disk), no golden
    ///    is replaced;
    /// 3. each golden and its facts are replaced as one unit; a case whose write fails is
    ///    refused and taken out of the run, which is staged again;
    /// 4. the staged report is put in place, summary.json first.
    ///
    /// Should the report not take the second staging (a disk filled meanwhile), the
    /// outcome says which goldens were written without being recorded (`unrecorded`).
    private func operation(_ decide: (inout RunRecord, GoldenStore, inout ReviewOutcome) throws -> [Step])
        throws(ReviewError) -> ReviewOutcome {
        do {
            return try report.withLock {
                var run = try load()
                let store = try store(for: run)
                return try store.locked {
                    var outcome = ReviewOutcome()
                    let before = run
                    let steps = try decide(&run, store, &outcome)
                    guard !steps.isEmpty else { return outcome }
                    do {
                        try report.stageFiles(of: run)
                    } catch {
                        throw ReviewError.cannotRecord("\(error)")
                    }
                    CrashPoint.reach("review.staged")
                    var written: [Step] = []
                    for step in steps {
                        do {
                            try step.write()
                            written.append(step)
                            CrashPoint.reach("review.golden-written")
                        } catch {
                            outcome.refused.append(.init(id: step.id, reason: "\(error)"))
                            run.results[step.index].accepted = before.results[step.index].accepted
                        }
                    }
                    do {
                        if written.isEmpty {
                            report.discardStagedFiles()
                        } else {
                            if written.count < steps.count { try report.stageFiles(of: run) }
                            try report.publishStagedFiles()
                        }
                    } catch {
                        report.discardStagedFiles()
                        outcome.unrecorded = "\(error)"
                    }
                    CrashPoint.reach("review.published")
                    for step in written {
                        if step.undo {
                            outcome.undone.append(step.id)
                            if outcome.unrecorded == nil {
                                unlink(report.path + "/" + Self.previousFile(for: step.id))
                                unlink(report.path + "/" + Self.previousFactsFile(for: step.id))
                            }
                        } else {
                            outcome.accepted.append(step.id)
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
