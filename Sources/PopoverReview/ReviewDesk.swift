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
    public func prepare() throws(ReviewError) { _ = try store(for: load()) }

    public func accept(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        let catalog = self.catalog ?? CaseCatalog.standard(skinsFolder: skinsFolder)
        let cases = Dictionary(catalog.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return try operation(choice, undo: false) { result, approval, acceptor, kept in
            if result.accepted != nil { return nil }
            guard result.status.isAcceptable else { throw AcceptRefusal.notAcceptable(id: result.id, status: result.status) }
            guard let relative = result.artifacts.actual?.path else { throw AcceptRefusal.noActualImage(id: result.id) }
            let actual = try fileInReport(relative, of: result.id)
            guard let c = cases[result.id], let image = try? catalog.draw(c), let facts = try? catalog.facts(of: c) else {
                throw AcceptRefusal.notInCatalog(id: result.id)
            }
            let write = try acceptor.plan(result, actualFile: actual.bytes, actualPath: actual.path, approval: approval,
                                          drawing: .init(image: image, facts: facts.facts),
                                          kept: try? fileInReport(Self.kept(result.id) + ".png", of: result.id).bytes)
            if !write.finishing { try keep(write, row: acceptor.store.recordedFacts(for: result.id), in: kept) }
            return write
        }
    }

    /// Puts back the goldens that accepting the chosen cases replaced.
    public func undo(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try operation(choice, undo: true) { result, _, acceptor, kept in
            try acceptor.planUndo(result, kept: try? fileInReport(Self.kept(result.id) + ".png", of: result.id).bytes,
                                  keptPath: kept.path(for: Self.kept(result.id)),
                                  keptRow: kept.recordedFacts(for: Self.kept(result.id)).map { .init(golden: $0.golden, facts: $0.facts) })
        }
    }

    /// Where the golden an acceptance replaced is kept for undo, as a golden of the report
    /// folder (`<id>.png`, its facts' row in that folder's `facts.tsv`).
    static func kept(_ id: String) -> String { "accepted/\(id)" }

    /// Keeps the golden a write replaces, and its facts' row, in `kept` (the report folder)
    /// for undo; never through a link (the report may have travelled). Not by
    /// `replaceHoldingLock`, whose crash point is the goldens' own.
    private func keep(_ write: GoldenAcceptor.Write, row: GoldenFacts?, in kept: GoldenStore) throws(AcceptRefusal) {
        let id = Self.kept(write.id), path = kept.path(for: id)
        do {
            if let linked = FilePaths.linkedFolder(under: kept.folder, along: id + ".png") {
                throw HarnessError.io("\(linked) is a symbolic link")
            }
            try FileIO.createDirectories(FilePaths.parent(of: path))
            if let previous = write.previous { try FileIO.writeAtomically(previous, to: path) } else { unlink(path) }
            if let row { try kept.writeFactsHoldingLock(.init(caseID: id, golden: row.golden, facts: row.facts)) }
            else { try kept.removeFactsHoldingLock(id) }
        } catch {
            throw .cannotWrite(id: write.id, reason: "cannot keep the previous golden for undo: \(error)")
        }
    }

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

    /// One operation on the chosen cases, holding the report's lock and then the goldens
    /// folder's, in the order docs/review.md gives ("Kills, full disks and two
    /// reviewers"): each case checked by `make` (nil: nothing to do; a refusal changes
    /// nothing) and what it replaces kept; the report as it will be staged, so a full disk
    /// replaces no golden; each golden written with its facts, a failed one refused and
    /// taken out of the record, staged again; the staged report put in place. No journal:
    /// a golden is replaced in one rename, so the disk says how far a killed operation
    /// got, and `GoldenAcceptor` finishes a case written but not recorded.
    private func operation(_ choice: Choice, undo: Bool,
                           _ make: (CaseResult, Approval?, GoldenAcceptor, GoldenStore) throws -> GoldenAcceptor.Write?)
        throws(ReviewError) -> ReviewOutcome {
        do {
            return try report.withLock {
                var run = try load()
                let store = try store(for: run)
                return try store.locked {
                    var outcome = ReviewOutcome()
                    let acceptor = GoldenAcceptor(store: store), kept = GoldenStore(folder: report.path)
                    var steps: [(Int, GoldenAcceptor.Write)] = []
                    for (index, approval) in try select(choice, in: run, forUndo: undo, refusing: &outcome.refused) {
                        do {
                            guard let step = try make(run.results[index], approval, acceptor, kept) else {
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
                    var written: [GoldenAcceptor.Write] = []
                    for (index, step) in steps {
                        do {
                            try acceptor.carryOutHoldingLock(step)
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
                        if step.accepted == nil && outcome.unrecorded == nil { try? kept.removeHoldingLock(Self.kept(step.id)) }
                        if step.finishing { outcome.finished.append(step.id) }
                    }
                    return outcome
                }
            }
        } catch {
            throw (error as? ReviewError) ?? ReviewError(description: "\(error)")
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
}

/// A review operation that could not start; nothing was written. Each reason is said
/// once, where it is made.
public struct ReviewError: Error, Equatable, CustomStringConvertible {
    public let description: String
    /// The request named cases the run does not have (the server answers 400, not 409).
    public var namesUnknownCases = false

    public static func report(_ error: ReportError) -> Self { .init(description: "\(error)") }
    public static func noCaseMatches(_ pattern: String) -> Self { .init(description: "'\(pattern)' matches no case of the run") }
    public static func nothingToDo(_ pattern: String, undo: Bool) -> Self {
        .init(description: undo ? "'\(pattern)' matches no case accepted in this review" : "'\(pattern)' matches no case that can be accepted")
    }
    public static func unknownCases(_ ids: [String]) -> Self {
        .init(description: "not cases of the run being reviewed: " + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : ""),
              namesUnknownCases: true)
    }
    public static func goldensFolderNotNamed(_ folder: String) -> Self {
        .init(description: "the run was checked against the goldens folder \(String(reflecting: folder)); a report does not "
            + "choose where goldens are written, so name it with --goldens")
    }
    public static func unknownChange(_ id: String, known: [String]) -> Self {
        .init(description: "'\(id)' is not a change of the run" + (known.isEmpty ? " (it has none)" : " (its changes: "
            + known.prefix(8).joined(separator: ", ") + (known.count > 8 ? ", …" : "") + ")"))
    }
    /// The report could not be staged (a full disk, say): no golden was replaced.
    public static func cannotRecord(_ reason: String) -> Self {
        .init(description: "\(reason); no golden was replaced, since the report could not record it")
    }
}
