import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReport
import PopoverGeometry
import PopoverSkins

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
                cacheFolder: String? = GoldenPixelCache.defaultFolder(), skinsFolder: String = SkinCatalog.defaultSkinsFolder,
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
        try transaction { run, outcome in
            let chosen = try select(choice, in: run)
            let acceptor = GoldenAcceptor(store: try store(for: run), cache: GoldenPixelCache(folder: cacheFolder))
            let catalog = self.catalog ?? CaseCatalog.standard(skinsFolder: skinsFolder)
            let cases = Dictionary(catalog.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for (index, approval) in chosen {
                var result = run.results[index]
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
                    try checkCause(result, drawn: drawn.facts, store: acceptor.store)
                    let plan = try acceptor.plan(result, actualFile: bytes, actualPath: actualPath, approval: approval,
                                                 facts: drawn.facts)
                    try keepPrevious(plan)
                    result.accepted = try acceptor.carryOut(plan, at: date, key: machineKey())
                    run.results[index] = result
                    outcome.accepted.append(result.id)
                } catch let refusal as AcceptRefusal {
                    outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                }
            }
            if let cache = acceptor.cache { try? cache.save() }
        }
    }

    /// Puts back the goldens that accepting the chosen cases replaced.
    public func undo(_ choice: Choice) throws(ReviewError) -> ReviewOutcome {
        try transaction { run, outcome in
            let chosen = try select(choice, in: run, forUndo: true)
            let acceptor = GoldenAcceptor(store: try store(for: run), cache: nil)
            for (index, _) in chosen {
                var result = run.results[index]
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
                    try acceptor.undo(result, previous: previous, previousPath: previousPath, previousFacts: previousFacts,
                                      key: machineKey())
                    try? FileManager.default.removeItem(atPath: previousPath)
                    try? FileManager.default.removeItem(atPath: factsPath)
                    result.accepted = nil
                    run.results[index] = result
                    outcome.undone.append(result.id)
                } catch let refusal as AcceptRefusal {
                    outcome.refused.append(.init(id: refusal.id, reason: refusal.description))
                }
            }
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
        if case .key(let key) = MachineKey.readOrMake(in: cacheFolder ?? GoldenPixelCache.defaultFolder()) { return key }
        return nil
    }

    // MARK: Steps

    private func transaction(_ body: (inout RunRecord, inout ReviewOutcome) throws -> Void) throws(ReviewError) -> ReviewOutcome {
        do {
            return try report.modify { run in
                var outcome = ReviewOutcome()
                try body(&run, &outcome)
                return outcome
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
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw .unreadableActual(id: id, reason: "\(relative) is not a path inside the report folder")
        }
        // Nor through a symbolic link out of it.
        let path = report.path + "/" + relative
        guard FilePaths.realPath(path, inside: report.path) != nil else {
            throw .unreadableActual(id: id, reason: "\(relative) is missing, or leads out of the report folder")
        }
        return path
    }

    private func keepPrevious(_ plan: GoldenAcceptor.Plan) throws(AcceptRefusal) {
        guard let previous = plan.previous else { return }
        let path = report.path + "/" + Self.previousFile(for: plan.id)
        if let linked = FilePaths.linkedFolder(under: report.path, along: Self.previousFile(for: plan.id)) {
            throw .cannotWrite(id: plan.id, reason: "cannot keep the previous golden for undo: \(linked) is a symbolic link")
        }
        do {
            try FileIO.createDirectories(FilePaths.parent(of: path))
            try FileIO.writeAtomically(previous, to: path)
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
        case .goldensFolderNotNamed(let folder):
            "the run was checked against the goldens folder \(String(reflecting: folder)); a report does not "
                + "choose where goldens are written, so name it with --goldens"
        }
    }
}
