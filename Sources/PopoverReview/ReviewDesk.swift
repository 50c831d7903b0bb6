import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import PopoverImage
import PopoverSkins

/// Accepting a finished run's cases, and undoing that, from the report folder the run
/// left: the command line, an approvals file and the live server all come here. Each case
/// is checked by `GoldenAcceptor`; the steps are `operation`'s.
public struct ReviewDesk: Sendable {
    public let report: ReportFolder
    /// The goldens folder; nil: the one the run was checked against.
    public let goldensFolder: String?
    /// The cases as this build draws them; nil: the catalog of `skinsFolder`.
    public let catalog: CaseCatalog?
    public let skinsFolder: String

    public init(reportsFolder: String, goldensFolder: String? = nil, skinsFolder: String = SkinCatalog.defaultSkinsFolder,
                catalog: CaseCatalog? = nil) {
        (report, self.goldensFolder, self.skinsFolder, self.catalog) = (ReportFolder(reportsFolder), goldensFolder, skinsFolder, catalog)
    }

    /// Which cases to accept.
    public enum Choice: Sendable {
        /// Cases matching these filters (as `check --filter` reads them), each matching some.
        case matching([String])
        /// Exactly these IDs, each a case of the run (the live server's requests).
        case exactly([String])
        /// An approvals file's entries, each naming its case and the two images.
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
        let catalog = self.catalog ?? CaseCatalog.standard(skinsFolder: skinsFolder)
        let cases = Dictionary(catalog.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return try operation(choice, undo: false) { result, approval, acceptor in
            if result.accepted != nil { return nil }
            guard result.status.isAcceptable else { throw AcceptRefusal.notAcceptable(id: result.id, status: result.status) }
            guard let relative = result.artifacts.actual?.path else { throw AcceptRefusal.noActualImage(id: result.id) }
            let actual = try fileInReport(relative, of: result.id)
            guard let c = cases[result.id], let image = try? catalog.draw(c), let facts = try? catalog.facts(of: c) else {
                throw AcceptRefusal.notInCatalog(id: result.id)
            }
            let plan = try acceptor.plan(result, actualFile: actual.bytes, actualPath: actual.path, approval: approval,
                                         drawing: .init(image: image, facts: facts.facts),
                                         kept: try? fileInReport(Self.kept(result.id), of: result.id).bytes)
            if !plan.alreadyWritten { try keepPrevious(plan, store: acceptor.store) }
            return Step(id: result.id, accepted: plan.acceptance(at: Date()), finishing: plan.alreadyWritten) {
                () throws(AcceptRefusal) in try acceptor.carryOutHoldingLock(plan)
            }
        }
    }

    /// Puts back the goldens that accepting the chosen cases replaced.
    public func undo(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try operation(choice, undo: true) { result, _, acceptor in
            let kept = try? fileInReport(Self.kept(result.id), of: result.id)
            let facts = try? fileInReport(Self.kept(result.id, "facts.json"), of: result.id)
            let plan = try acceptor.planUndo(result, kept: kept?.bytes, keptPath: report.path + "/" + Self.kept(result.id),
                                             keptFacts: facts.flatMap { try? GoldenFacts.decode($0.bytes, name: $0.path) })
            return Step(id: result.id, accepted: nil, finishing: plan.alreadyDone) {
                () throws(AcceptRefusal) in try acceptor.undoHoldingLock(plan)
            }
        }
    }

    /// Where the golden an acceptance replaced (`png`), and its facts' row (`facts.json`),
    /// are kept for undo, relative to the report folder.
    static func kept(_ id: String, _ suffix: String = "png") -> String { "accepted/\(id).previous.\(suffix)" }

    /// The file a path of the report names, with its bytes: it must lie inside the report
    /// folder, symbolic links followed (a report edited to point elsewhere is refused).
    private func fileInReport(_ relative: String, of id: String) throws(AcceptRefusal) -> (path: String, bytes: [UInt8]) {
        switch FilePaths.file(relative, inside: report.path) {
        case .found: break
        case .notPlain: throw .unreadableActual(id: id, reason: "\(relative) is not a path inside the report folder")
        case .missingOrOutside: throw .unreadableActual(id: id, reason: "\(relative) is missing, or leads out of the report folder")
        }
        let path = report.path + "/" + relative
        do { return (path, try FileIO.readBytes(path: path)) } catch { throw .unreadableActual(id: id, reason: "\(error)") }
    }

    /// One golden to replace (accepting) or put back (undoing), checked, and what the
    /// record says of its case once it is written; `finishing`: the golden is so already,
    /// written by an operation that stopped before its report recorded it.
    private struct Step {
        let id: String
        let accepted: Acceptance?
        let finishing: Bool
        let write: () throws(AcceptRefusal) -> Void
    }

    /// One operation on the chosen cases, holding the report's lock and then the goldens
    /// folder's, in the order docs/review.md gives ("Kills, full disks and two
    /// reviewers"): each case checked by `make` (nil: nothing to do; a refusal changes
    /// nothing) and what it replaces kept; the report as it will be staged, so a full disk
    /// replaces no golden; each golden written with its facts, a failed one refused and
    /// taken out of the record, staged again; the staged report put in place. No journal:
    /// a golden is replaced in one rename, so the disk says how far a killed operation
    /// got, and `GoldenAcceptor` finishes a case written but not recorded.
    private func operation(_ choice: Choice, undo: Bool, _ make: (CaseResult, Approval?, GoldenAcceptor) throws -> Step?)
        throws(ReviewError) -> ReviewOutcome {
        do {
            return try report.withLock {
                var run = try load()
                let store = try store(for: run)
                return try store.locked {
                    var outcome = ReviewOutcome()
                    var steps: [(Int, Step)] = []
                    for (index, approval) in try select(choice, in: run, forUndo: undo, refusing: &outcome.refused) {
                        do {
                            guard let step = try make(run.results[index], approval, GoldenAcceptor(store: store)) else {
                                outcome.alreadyAccepted.append(run.results[index].id)
                                continue
                            }
                            steps.append((index, step))
                        } catch let refusal as AcceptRefusal {
                            outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                        }
                    }
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
                        if written.count < steps.count && !written.isEmpty { try report.stageFiles(of: run) }
                        if written.isEmpty { report.discardStagedFiles() } else { try report.publishStagedFiles() }
                    } catch {
                        report.discardStagedFiles()
                        outcome.unrecorded = "\(error)"
                    }
                    CrashPoint.reach("review.published")
                    for step in written {
                        if step.accepted != nil { outcome.accepted.append(step.id) } else { outcome.undone.append(step.id) }
                        if step.accepted == nil && outcome.unrecorded == nil {
                            for suffix in ["png", "facts.json"] { unlink(report.path + "/" + Self.kept(step.id, suffix)) }
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
    /// checked against that. A report from elsewhere must not choose where goldens are
    /// written (`Skins/...` holds PNG files too).
    private func store(for run: RunRecord) throws(ReviewError) -> GoldenStore {
        if let goldensFolder { return GoldenStore(folder: goldensFolder) }
        guard ["Goldens", "Goldens/", "./Goldens", "./Goldens/"].contains(run.goldensFolder) else {
            throw .goldensFolderNotNamed(run.goldensFolder)
        }
        return GoldenStore(folder: "Goldens")
    }

    /// The results a choice names, each once, as (index in the run, approval if any), in
    /// run order. A case approved twice with different images is refused.
    private func select(_ choice: Choice, in run: RunRecord, forUndo: Bool,
                        refusing refused: inout [ReviewOutcome.Refused]) throws(ReviewError) -> [(Int, Approval?)] {
        let indexByID = Dictionary(uniqueKeysWithValues: run.results.enumerated().map { ($1.id, $0) })
        func known(_ ids: [String]) throws(ReviewError) -> [Int] {
            let unknown = ids.filter { indexByID[$0] == nil }
            guard unknown.isEmpty else { throw .unknownCases(unknown) }
            return Set(ids.compactMap { indexByID[$0] }).sorted()
        }
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
            return try known(ids).map { ($0, nil) }
        case .approvals(let approvals):
            let byID = Dictionary(grouping: approvals, by: \.id).mapValues(Set.init)
            return try known(approvals.map(\.id)).compactMap { index in
                let id = run.results[index].id, named = byID[id] ?? []
                if named.count == 1 { return (index, named.first) }
                refused.append(.init(id: id, reason: AcceptRefusal.approvedTwice(id: id).description))
                return nil
            }
        case .matching(let patterns):
            var chosen = Set<Int>()
            for pattern in patterns {
                let filter = CaseFilter(pattern)
                let matched = run.results.indices.filter { filter.matches(run.results[$0].id) }
                guard !matched.isEmpty else { throw .noCaseMatches(pattern) }
                // A pattern picks what there is to accept (or undo); an exact ID is taken as
                // asked, so a passing case named on its own is refused with its reason.
                let picked = matched.count == 1 ? matched : matched.filter {
                    forUndo ? run.results[$0].accepted != nil : run.results[$0].status.isAcceptable
                }
                guard !picked.isEmpty else { throw .nothingToDo(pattern, undo: forUndo) }
                chosen.formUnion(picked)
            }
            return chosen.sorted().map { ($0, nil) }
        }
    }

    /// Keeps the golden a plan replaces, and its row of the facts table as it is, inside
    /// the report for undo; never through a link (the report may have travelled).
    private func keepPrevious(_ plan: GoldenAcceptor.Plan, store: GoldenStore) throws(AcceptRefusal) {
        let cannot = "cannot keep the previous golden for undo: "
        if let linked = FilePaths.linkedFolder(under: report.path, along: Self.kept(plan.id)) {
            throw .cannotWrite(id: plan.id, reason: cannot + "\(linked) is a symbolic link")
        }
        do {
            for (suffix, bytes) in [("png", plan.previous), ("facts.json", store.recordedFacts(for: plan.id)?.encoded())] {
                let path = report.path + "/" + Self.kept(plan.id, suffix)
                guard let bytes else {
                    unlink(path)
                    continue
                }
                try FileIO.createDirectories(FilePaths.parent(of: path))
                try FileIO.writeAtomically(bytes, to: path)
            }
        } catch {
            throw .cannotWrite(id: plan.id, reason: cannot + "\(error)")
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
    /// Cases of `accepted` or `undone` written by an earlier operation that stopped
    /// before its report recorded them.
    public var finished: [String] = []
    /// Why the report could not record what was written (written all the same); nil when it did.
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
