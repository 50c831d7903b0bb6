import Foundation
import Synchronization
import PopoverDiff
import PopoverFiles
import PopoverImage
import PopoverSkins

/// Draws cases, judges each against its golden, and records goldens as the record mode
/// says. What a person should see of a case goes to the artifact sink as soon as the
/// case is judged; the finished run is returned as plain data for a report to write.
///
/// Cases run on `jobs` threads; each case is drawn and judged on its own, so verdicts
/// and bytes are the same whatever the thread count.
public struct CheckRunner: Sendable {
    public let catalog: CaseCatalog
    public let options: CheckOptions
    /// How a case is drawn, in straight colour, when not by its skin: say to judge the
    /// goldens against another renderer (the fault-injection suite draws with deliberate
    /// faults this way). Nil: by its skin.
    public var draw: (@Sendable (GoldenCase) throws -> RGBAImage)?
    /// The geometry a case is drawn from: by its skin unless replaced, in step with `draw`
    /// (a test drawing a deliberate fault gives the fault's facts here).
    public var facts: @Sendable (GoldenCase) throws -> DrawingFacts
    /// Receives the pictures of cases worth looking at.
    public var sink: any CaseArtifactSink = DiscardingSink()
    /// Told after each case: (cases judged, cases in the run).
    public var progress: (@Sendable (Int, Int) -> Void)?

    public init(catalog: CaseCatalog, options: CheckOptions) {
        self.catalog = catalog
        self.options = options
        facts = { c in try catalog.facts(of: c) }
    }

    /// The cases the filter selects, before sharding.
    public func selectedCases() throws(HarnessError) -> [GoldenCase] {
        let selected = catalog.cases(matching: options.filter)
        if selected.isEmpty, let filter = options.filter {
            // Asking for a skin whose folder has a mistake: say what the mistake is.
            if let broken = catalog.unavailableSkins.first(where: { filter.hasPrefix($0.id) }) {
                throw .io("\(broken.message) (so the filter '\(filter)' matches no case)")
            }
            throw .noCaseMatches(filter, closest: catalog.closestIDs(to: filter))
        }
        return selected
    }

    /// Checks the cases the filter (and shard) select, or exactly `cases` when given
    /// (tests use this to check a chosen subset).
    public func run(cases chosen: [GoldenCase]? = nil) throws(HarnessError) -> RunRecord {
        let started = Date()
        let selection: [GoldenCase]
        if let chosen { selection = chosen } else { selection = try selectedCases() }
        let cases = options.shard.map { shard in shard.select(selection, cost: catalog.shardCost(for: selection, timings: options.shardTimings)) }
            ?? selection
        let store = GoldenStore(folder: options.goldensFolder)
        var errors: [String] = []
        var notes: [String] = []

        // The goldens folder: must be readable; recording may create it.
        // Skin folders with a mistake: said once each; the other skins are still judged.
        errors += catalog.unavailableSkins.map(\.message)
        var folderProblem: String?
        do {
            try store.checkReadable()
        } catch HarnessError.goldensFolderMissing(let path) where options.recordMode != .never {
            do { try FileIO.createDirectories(path) } catch { folderProblem = "\(error)" }
        } catch {
            folderProblem = "\(error)"
        }
        if let folderProblem { errors.append(folderProblem) }

        let tolerances: TolerancePolicy
        do {
            tolerances = try TolerancePolicy.load(goldensFolder: options.goldensFolder, suite: options.suiteTolerance)
        } catch {
            errors.append("\(error)")
            tolerances = TolerancePolicy(suite: options.suiteTolerance ?? .exact)
        }
        let cache = GoldenDigestCache(folder: options.cacheFolder)
        if let note = cache.note { notes.append(note) }

        let judge = CaseJudge(store: store, cache: cache, tolerances: tolerances, options: options, sink: sink,
                              folderProblem: folderProblem, drawer: draw.map(CaseJudge.Drawer.replaced) ?? .skin(catalog),
                              facts: facts)
        let results = parallelMap(cases, jobs: max(1, options.jobs), progress: progress) { judge.judge($0) }

        var run = RunRecord(results: results, recordMode: options.recordMode, filter: options.filter,
                           goldensFolder: options.goldensFolder, tolerance: tolerances.suite.description,
                           started: started, jobs: options.jobs)
        run.errors = errors
        run.skinsFolder = options.skinsFolder
        run.reportsFolder = options.reportsFolder
        run.notes = notes + Self.factsNotes(results, store: store, command: run.factsCommand.command)
        if folderProblem == nil { finishGoldens(&run, store: store) }
        run.groupChanges()
        if folderProblem == nil && (options.recordMode == .all || options.factsOnly) { dropFactsOfGoneGoldens(&run, store: store) }
        do {
            try cache.save()
        } catch {
            run.notes.append("\(error); the next check decodes the goldens again")
        }
        if let shard = options.shard {
            if let source = options.shardSource { run.notes.insert("shard \(shard.index) of \(shard.count), from \(source)", at: 0) }
            run.shard = ShardRecord(index: shard.index, count: shard.count,
                                    identity: identity(store: store, tolerances: tolerances),
                                    selection: selection.map(\.id))
        }
        run.seconds = Date().timeIntervalSince(started)
        return run
    }

    /// Goldens whose facts are missing or stale, said once for the run.
    static func factsNotes(_ results: [CaseResult], store: GoldenStore, command: String) -> [String] {
        func ids(_ standing: FactsStanding) -> [String] { results.filter { $0.factsStanding == standing }.map(\.id) }
        func some(_ ids: [String]) -> String { ids.prefix(3).joined(separator: ", ") + (ids.count > 3 ? ", …" : "") }
        var notes: [String] = []
        let written = results.filter(\.factsWritten).count
        if written > 0 { notes.append("wrote the facts of \(written) golden\(written == 1 ? "" : "s") whose images were unchanged") }
        let missing = ids(.missing), stale = ids(.stale), unreadable = ids(.unreadable)
        if !missing.isEmpty {
            notes.append("\(missing.count) golden\(missing.count == 1 ? " has" : "s have") no facts (recorded before facts "
                + "existed: \(some(missing))); `\(command)` adds them without touching any golden")
        }
        if !stale.isEmpty {
            notes.append("\(stale.count) golden\(stale.count == 1 ? "'s" : "s'") facts are stale (the golden changed since they "
                + "were recorded: \(some(stale))); they are not used; `\(command)` rewrites them")
        }
        if !unreadable.isEmpty {
            // One table holds a folder's facts: its problem is said once, not per golden.
            var problems: [String] = []
            for problem in unreadable.compactMap(store.factsProblem) where !problems.contains(problem) { problems.append(problem) }
            notes.append("the facts of \(unreadable.count) golden\(unreadable.count == 1 ? "" : "s") cannot be read (\(some(problems)));"
                + " they are not used; `\(command)` rewrites them")
        }
        return notes
    }

    /// `record` (mode all) keeps the facts tables to the goldens there are: rows of
    /// goldens deleted by hand go, said in a note.
    private func dropFactsOfGoneGoldens(_ run: inout RunRecord, store: GoldenStore) {
        do {
            let gone = try store.locked { try store.removeRowsWithoutGoldensHoldingLock() }
            guard !gone.isEmpty else { return }
            run.notes.append("dropped the facts of \(gone.count) golden\(gone.count == 1 ? "" : "s") no longer there ("
                + gone.prefix(3).joined(separator: ", ") + (gone.count > 3 ? ", …" : "") + ")")
        } catch {
            run.errors.append("\(error)")
        }
    }

    /// Orphans and pruning, after every case is judged.
    ///
    /// A golden is an orphan when no case owns it and its skin was loaded (or is gone
    /// from a skins folder that was read): the goldens of a skin whose folder has a
    /// mistake, or of every skin when the skins folder itself could not be read, are
    /// never orphans and never pruned. Pruning more than `CheckOptions.pruneShare` of the
    /// goldens at once is refused without `--force`: that many orphans usually means the
    /// wrong skins folder, not that many dead goldens.
    private func finishGoldens(_ run: inout RunRecord, store: GoldenStore) {
        let owned = Set(catalog.cases.map(\.id))
        let scope = options.filter.map(CaseFilter.init)
        let loaded = Set(catalog.skins.map(\.id))
        let unavailable = catalog.unavailableSkins.map { $0.id + "/" }
        let folderMissing = catalog.unavailableSkins.contains { $0.id.isEmpty }
        let all = store.allIDs()
        run.orphans = all.filter { id in
            guard !owned.contains(id), scope?.matches(id) ?? true, !unavailable.contains(where: { id.hasPrefix($0) }) else {
                return false
            }
            return !folderMissing || loaded.contains(String(id.prefix { $0 != "/" }))
        }
        guard options.prune && (options.recordMode != .never || options.factsOnly) && !run.orphans.isEmpty else { return }
        if folderMissing {
            run.errors.append("not pruning: the skins folder could not be read, so no one knows which goldens are orphans")
            return
        }
        let share = Double(run.orphans.count) / Double(max(1, all.count))
        if share > CheckOptions.pruneShare && !options.forcePrune {
            run.errors.append("not pruning \(run.orphans.count) of \(all.count) goldens (\(Int((share * 100).rounded())) %, more than "
                + "\(Int(CheckOptions.pruneShare * 100)) %): check that the skins folder is the right one; --force prunes anyway")
            return
        }
        let orphans = run.orphans
        do {
            let (pruned, errors) = try store.locked { () -> ([String], [String]) in
                var pruned: [String] = [], errors: [String] = []
                for id in orphans {
                    do {
                        try store.removeHoldingLock(id)
                        pruned.append(id)
                    } catch {
                        errors.append("\(error)")
                    }
                }
                return (pruned, errors)
            }
            run.pruned += pruned
            run.errors += errors
        } catch {
            run.errors.append("\(error)")
        }
        run.orphans.removeAll { run.pruned.contains($0) }
    }

    /// What shards of one run share: digests of every golden file the catalog names (so
    /// shards of different commits refuse to merge), the tolerances and the catalog.
    func identity(store: GoldenStore, tolerances: TolerancePolicy) -> RunIdentity {
        var goldens = SHA256()
        for c in catalog.cases {
            let digest: String
            switch store.read(c.id) {
            case .found(let bytes): digest = SHA256.hex(bytes)
            case .missing: digest = "absent"
            case .unreadable: digest = "unreadable"
            }
            goldens.update(Array("\(c.id) \(digest)\n".utf8))
        }
        var shareCosts = "pixels"
        if let timings = options.shardTimings {
            var digest = SHA256()
            for (id, seconds) in timings.sorted(by: { $0.key < $1.key }) { digest.update(Array("\(id) \(seconds)\n".utf8)) }
            shareCosts = "timings " + digest.finalizeHex()
        }
        return RunIdentity(goldens: goldens.finalizeHex(), tolerances: tolerances.digest,
                           recordMode: options.recordMode, catalog: catalog.digest, shareCosts: shareCosts)
    }
}

/// Maps `items` on `jobs` threads, each pulling the next index; results keep order.
public func parallelMap<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, progress: (@Sendable (Int, Int) -> Void)? = nil,
                                           _ body: @Sendable (T) -> R) -> [R] {
    let results = ResultSlots<R>(count: items.count)
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, items.count))) { _ in
        while true {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < items.count else { return }
            results.set(i, body(items[i]))
            let finished = done.wrappingAdd(1, ordering: .relaxed).newValue
            progress?(finished, items.count)
        }
    }
    return results.values()
}

/// Slots written by distinct threads at distinct indices, read after they all finish.
final class ResultSlots<R>: @unchecked Sendable {
    private var storage: [R?]
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: R) { storage.withUnsafeMutableBufferPointer { $0[i] = value } }
    func values() -> [R] { storage.map { $0! } }
}
