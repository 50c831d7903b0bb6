import Foundation
import PopoverDiff
import PopoverImage
import PopoverSkins
import Synchronization

/// Renders cases, judges each against its golden, records goldens as the record mode
/// says, and writes the report.
///
/// Cases run on `jobs` threads; each case is drawn and judged on its own, so the
/// verdicts and bytes are the same whatever the thread count.
public struct CheckRunner: Sendable {
    public let catalog: CaseCatalog
    public let options: CheckOptions
    /// Draws a case; tests replace it to inject faults. Defaults to the case's skin.
    public var draw: @Sendable (GoldenCase) throws -> DrawnImage

    public init(catalog: CaseCatalog, options: CheckOptions) {
        self.catalog = catalog
        self.options = options
        draw = { c in
            guard let skin = catalog.skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
            return DrawnImage(try skin.render(c.request).pixmap)
        }
    }

    /// The cases this run covers.
    public func selectedCases() throws(HarnessError) -> [GoldenCase] {
        let selected = catalog.cases(matching: options.filter)
        if selected.isEmpty, let filter = options.filter { throw .noCaseMatches(filter) }
        return selected
    }

    /// Checks the cases the filter selects, or exactly `cases` when given (tests use
    /// this to check a chosen subset).
    public func run(cases chosen: [GoldenCase]? = nil) throws(HarnessError) -> CheckRun {
        let started = Date()
        let cases: [GoldenCase]
        if let chosen { cases = chosen } else { cases = try selectedCases() }
        let store = GoldenStore(folder: options.goldensFolder)
        var errors: [String] = []

        // The goldens folder: must be readable; recording may create it.
        var folderProblem: String?
        do {
            try store.checkReadable()
        } catch HarnessError.goldensFolderMissing(let path) where options.recordMode != .never {
            do { try FileIO.createDirectories(path) } catch { folderProblem = "\(error)" }
        } catch {
            folderProblem = "\(error)"
        }
        if let folderProblem { errors.append(folderProblem) }

        let tolerances: ToleranceConfig
        do {
            tolerances = try loadTolerances()
        } catch {
            errors.append("\(error)")
            tolerances = ToleranceConfig(suite: options.suiteTolerance ?? .exact)
        }
        let manifest = GoldenManifest.load(from: options.goldensFolder)
        let staging = ReportStaging(reportsFolder: options.reportsFolder, enabled: options.writesReport)

        let context = JudgeContext(store: store, manifest: manifest, tolerances: tolerances, options: options,
                                   staging: staging, folderProblem: folderProblem, draw: draw)
        let results = parallelMap(cases, jobs: max(1, options.jobs), progress: options.showsProgress) {
            context.judge($0)
        }

        var run = CheckRun(results: results, orphans: [], errors: errors, recordMode: options.recordMode,
                           filter: options.filter, goldensFolder: options.goldensFolder,
                           reportsFolder: options.reportsFolder, tolerance: tolerances.suite.description,
                           started: started, seconds: 0, jobs: options.jobs)
        if folderProblem == nil {
            finishGoldens(&run, store: store, manifest: manifest, context: context)
        }
        run.seconds = Date().timeIntervalSince(started)
        if options.writesReport {
            do {
                run.reportPath = try ReportWriter.write(run, staging: staging)
            } catch {
                run.errors.append("\(error)")
            }
        }
        return run
    }

    private func loadTolerances() throws -> ToleranceConfig {
        let path = options.goldensFolder + "/" + GoldenStore.toleranceFile
        var config = ToleranceConfig()
        if FileManager.default.fileExists(atPath: path) {
            do {
                config = try ToleranceConfig(contentsOf: URL(fileURLWithPath: path)).validated()
            } catch {
                throw HarnessError.invalidTolerances(file: path, reason: "\(error)")
            }
        }
        if let suite = options.suiteTolerance { config.suite = suite }
        return config
    }

    /// Orphans, pruning and the digest manifest, after every case is judged.
    private func finishGoldens(_ run: inout CheckRun, store: GoldenStore, manifest: GoldenManifest,
                               context: JudgeContext) {
        let owned = Set(catalog.cases.map(\.id))
        let scope = options.filter.map(CaseFilter.init)
        run.orphans = store.allIDs().filter { !owned.contains($0) && (scope?.matches($0) ?? true) }
        var updated = manifest
        for (id, entry) in context.recordedEntries() { updated.goldens[id] = entry }
        if options.prune && options.recordMode != .never {
            for id in run.orphans {
                do {
                    try store.remove(id)
                    run.pruned.append(id)
                } catch {
                    run.errors.append("\(error)")
                }
            }
            run.orphans.removeAll { run.pruned.contains($0) }
        }
        // Entries for goldens no case owns and no file holds (pruned ones included)
        // describe nothing.
        if options.recordMode != .never {
            updated.goldens = updated.goldens.filter { id, _ in
                owned.contains(id) || FileManager.default.fileExists(atPath: store.path(for: id))
            }
        }
        if updated != manifest {
            do {
                try updated.save(to: options.goldensFolder)
            } catch {
                run.errors.append("\(error)")
            }
        }
    }
}

/// Maps `items` on `jobs` threads, each pulling the next index; results keep order.
func parallelMap<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, progress: Bool,
                                           _ body: @Sendable (T) -> R) -> [R] {
    let results = ResultSlots<R>(count: items.count)
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let meter = progress ? ProgressMeter(total: items.count) : nil
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, items.count))) { _ in
        while true {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < items.count else { return }
            results.set(i, body(items[i]))
            let finished = done.wrappingAdd(1, ordering: .relaxed).newValue
            meter?.update(finished)
        }
    }
    meter?.finish()
    return results.values()
}

/// Slots written by distinct threads at distinct indices, read after they all finish.
final class ResultSlots<R>: @unchecked Sendable {
    private var storage: [R?]
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: R) { storage.withUnsafeMutableBufferPointer { $0[i] = value } }
    func values() -> [R] { storage.map { $0! } }
}

/// "checked 812 / 2100" on standard error, redrawn at most every 100 ms, only on a terminal.
final class ProgressMeter: Sendable {
    let total: Int
    private let last = Mutex<Double>(0)
    private let isTerminal = isatty(2) == 1

    init(total: Int) { self.total = total }

    func update(_ finished: Int) {
        guard isTerminal else { return }
        let now = Date().timeIntervalSinceReferenceDate
        let due = last.withLock { previous -> Bool in
            guard now - previous >= 0.1 || finished == total else { return false }
            previous = now
            return true
        }
        if due { FileHandle.standardError.write(Data("\r  checked \(finished) / \(total)".utf8)) }
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
