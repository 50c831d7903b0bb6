import Foundation
import MutationDriverKit
import PopoverFiles
import PopoverGeometry
import PopoverHarness
import PopoverImage
import PopoverRaster
import PopoverSkins
import Synchronization

// The popover-goldens driver of the mutation analysis: the harness's own catalog, skins,
// goldens and tolerance policy, so "killed" means exactly "the suite's check fails".
// Arguments: --root (the repository), --scratch (the analysis's scratch folder), and the
// kit's --constructs and --memory-mb.

let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let root = argument("--root") ?? FileManager.default.currentDirectoryPath
let scratch = argument("--scratch") ?? root + "/.build-mutants"

/// Each case's golden file, by its SHA-256, the digest cache holding what decoding it gave.
/// Set once by the first subject (see `readGoldens`); the driver runs its work on one thread.
nonisolated(unsafe) var goldenFiles: [String: String]?

/// Drawings known to pass unconverted: "<golden file's SHA-256> <XXH64 of the premultiplied
/// pixels, seeded with the conversion's digest>", one per line of `drawings.txt` in the
/// scratch folder, appended by whichever child first confirmed such a drawing by converting
/// it, read when the driver starts. The seed is worked out in each child (the conversion is
/// mutated code too), so under a mutant of the conversion no line matches and every drawing
/// is converted, as the check converts it.
nonisolated(unsafe) var drawings: Set<String> = []
let drawingsFile = scratch + "/drawings.txt"

final class PopoverSubject: MutationSubject {
    let catalog: CaseCatalog
    let byID: [String: GoldenCase]
    let store: GoldenStore
    let cache: GoldenDigestCache
    /// The search space, made on the first search: judging never needs it.
    private lazy var scenarios: (shipped: [Scenario], artwork: [Scenario]) =
        (SearchSpace.shipped(catalog.skins), SearchSpace.artwork(root: root, skins: catalog.skins))
    lazy var searchInputs: [SearchInput] = scenarios.shipped.enumerated().map { SearchInput(description: $1.description, index: $0) }
    lazy var artworkInputs: [SearchInput] = scenarios.artwork.enumerated().map {
        SearchInput(description: $1.description, index: scenarios.shipped.count + $0)
    }

    init() {
        catalog = CaseCatalog.standard(skinsFolder: root + "/Skins")
        var byID: [String: GoldenCase] = [:]
        for c in catalog.cases { byID[c.id] = c }
        self.byID = byID
        store = GoldenStore(folder: root + "/Goldens")
        cache = GoldenDigestCache(folder: scratch + "/golden-cache")
        readGoldens()
    }

    var caseIDs: [String] { catalog.cases.map(\.id) }

    /// Verdicts already reached in this child (one mutant), by what the case draws: a skin's
    /// drawing depends on its request alone (`CaseCatalog.drawing`, and the suite's rule that
    /// a case draws the same bytes every time), so a case whose skin, request and golden file
    /// are another's has that one's verdict without being drawn again. Many cases repeat
    /// another's request: a scene's placement that a keyboard frame or another anchor reaches.
    private var verdicts: [String: (file: String, verdict: Verdict, detail: String)] = [:]

    func judge(_ id: String) -> (Verdict, String) {
        // The check reports a skin folder's mistake as an error of the run, which fails it
        // whatever the cases draw (`CheckRunner`): a mutant of the setup that makes one fails
        // the check on any case it is judged on.
        if let problem = catalog.unavailableSkins.first { return (.error, "the check fails: \(problem.message)") }
        guard let c = byID[id] else { return (.error, "no such case in this build's catalog") }
        let key = drawing(c.skinID, c.request)
        if let known = verdicts[key], known.file == goldenFiles?[id] { return (known.verdict, known.detail) }
        let (verdict, detail) = drawAndJudge(c)
        if let file = goldenFiles?[id] { verdicts[key] = (file, verdict, detail) }
        return (verdict, detail)
    }

    /// What a skin is asked to draw, exactly: equal for two drawings that must be the same.
    func drawing(_ skinID: String, _ request: PopoverRequest) -> String { skinID + " " + exactly(request) }

    /// Every stored value of `value`, numbers by their bits: values that compare equal but are
    /// not the same (0 and -0) are told apart, and a field added to the request is not missed.
    func exactly(_ value: Any) -> String {
        if let d = value as? Double { return String(d.bitPattern, radix: 16) }
        let children = Mirror(reflecting: value).children
        if children.isEmpty { return "\(value)" }
        return "(" + children.map { ($0.label ?? "") + ":" + exactly($0.value) }.joined(separator: ",") + ")"
    }

    private func drawAndJudge(_ c: GoldenCase) -> (Verdict, String) {
        let id = c.id
        let drawn: Pixmap
        do {
            drawn = try catalog.drawing(c)
        } catch {
            return (.error, "cannot draw: \(error)")
        }
        guard let file = goldenFiles?[id], let fact = cache.fact(forFile: file) else { return (.error, "no usable golden") }
        if fact.width != drawn.width || fact.height != drawn.height {
            return (.different, "size \(drawn.width)x\(drawn.height), golden \(fact.width)x\(fact.height)")
        }
        // The check's own rule: the same size and XXH64 as decoding the golden gave, known
        // without converting to straight colour when a drawing with these premultiplied
        // pixels, converted as this process converts, gave them.
        let premultiplied = RGBAImage(width: drawn.width, height: drawn.height, pixels: drawn.data)
        let line = file + " " + XXH64.hex(premultiplied.pixelDigest(seed: conversion))
        if drawings.contains(line) { return (.same, "") }
        guard cache.confirms(drawn.straightImage, asFile: file) else { return (.different, "pixels differ") }
        drawings.insert(line)
        // One short append per line: children appending at once do not interleave.
        let fd = open(drawingsFile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if fd >= 0 {
            _ = Array((line + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        return (.same, "")
    }

    /// What converting to straight colour does in this process (under its mutant), worked
    /// out at its first judgement: the driver itself never judges, only its children.
    lazy var conversion = GoldenDigestCache.conversionDigest()

    /// Every golden's decoded size and pixel digest, read once, when the driver starts and
    /// before any child is forked (children inherit it; the goldens do not change during a
    /// run), through the harness's digest cache kept in the scratch folder.
    private func readGoldens() {
        guard goldenFiles == nil else { return }
        var files: [String: String] = [:]
        var learned = false
        for c in catalog.cases {
            guard case .found(let bytes) = store.read(c.id) else { continue }
            let file = SHA256.hex(bytes)
            if cache.fact(forFile: file) == nil {
                guard let decoded = try? PNGFile.decode(bytes, name: store.path(for: c.id)) else { continue }
                // The committed goldens are what the unmutated code draws (the check
                // passes on them), so what they decode to stands for that drawing.
                cache.learn(file: file, drawn: decoded)
                learned = true
            }
            files[c.id] = file
        }
        if learned { try? cache.save() }
        goldenFiles = files
        if let text = try? String(contentsOfFile: drawingsFile, encoding: .utf8) {
            drawings = Set(text.split(separator: "\n").map(String.init))
        }
    }

    /// The suite's own check (`CheckRunner`) on one case, against the goldens with the
    /// committed tolerances.json, or a copy of the goldens folder's links with `file` as
    /// its tolerances.json.
    func passesUnderTolerances(_ id: String, file: String?) -> Bool {
        guard let c = byID[id] else { return false }
        var options = CheckOptions()
        options.goldensFolder = file.map(Self.goldensWith(tolerances:)) ?? root + "/Goldens"
        options.recordMode = .never
        options.jobs = 1
        options.cacheFolder = nil
        guard let run = try? CheckRunner(catalog: catalog, options: options).run(cases: [c]) else { return false }
        return run.results.first?.status == .passed
    }

    private static let tolerancesFolders = Mutex<[String: String]>([:])

    /// A goldens folder of links to the real one's skin folders, with `tolerances` as its tolerances.json.
    static func goldensWith(tolerances: String) -> String {
        tolerancesFolders.withLock { folders in
            if let folder = folders[tolerances] { return folder }
            let folder = scratch + "/tolerance-goldens-\(folders.count)"
            let fm = FileManager.default
            try? fm.removeItem(atPath: folder)
            try? fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for entry in (try? fm.contentsOfDirectory(atPath: root + "/Goldens")) ?? [] where entry != GoldenStore.toleranceFile {
                try? fm.createSymbolicLink(atPath: folder + "/" + entry, withDestinationPath: root + "/Goldens/" + entry)
            }
            try? fm.copyItem(atPath: tolerances, toPath: folder + "/" + GoldenStore.toleranceFile)
            folders[tolerances] = folder
            return folder
        }
    }

    func draw(_ input: SearchInput) -> String {
        scenario(input).draw()
    }

    private func scenario(_ input: SearchInput) -> Scenario {
        input.index < scenarios.shipped.count ? scenarios.shipped[input.index]
            : scenarios.artwork[input.index - scenarios.shipped.count]
    }

    /// The skin and the request the input places under the active mutant (none when it
    /// cannot be placed: drawn, to the same "error").
    func drawingKey(_ input: SearchInput) -> String? {
        let s = scenario(input)
        return (try? s.request()).map { drawing(s.skin.id, $0) }
    }

    /// Each case's drawing key, with what its golden holds as `draw` puts it ("WxH digest").
    private lazy var caseGoldens: [String: Set<String>] = {
        var goldens: [String: Set<String>] = [:]
        for c in catalog.cases {
            guard let file = goldenFiles?[c.id], let fact = cache.fact(forFile: file) else { continue }
            goldens[drawing(c.skinID, c.request), default: []].insert("\(fact.width)x\(fact.height) \(XXH64.hex(fact.pixels))")
        }
        return goldens
    }()

    func isCaseDrawing(_ key: String, outcome: String) -> Bool { caseGoldens[key]?.contains(outcome) == true }

    /// The same cases and skin problems, and skins that draw alike, in the same order. A case
    /// is the same when it asks the same skin for the same request: what else it holds (its
    /// label, where its request came from) goes into its facts, which the check reports and
    /// never fails a case on.
    func isSetUpAlike(_ original: PopoverSubject) -> Bool {
        catalog.cases.count == original.catalog.cases.count
            && zip(catalog.cases, original.catalog.cases).allSatisfy { drawsAlike($0, $1) }
            && catalog.unavailableSkins == original.catalog.unavailableSkins
            && catalog.skins.count == original.catalog.skins.count
            && zip(catalog.skins, original.catalog.skins).allSatisfy { $0.drawsAlike($1) }
    }

    func changedCases(from original: PopoverSubject) -> [String] {
        let gone = original.catalog.cases.filter { byID[$0.id] == nil }.map(\.id)
        return catalog.cases.filter { c in original.byID[c.id].map { !drawsAlike(c, $0) } ?? true }.map(\.id) + gone
    }

    /// Whether two cases have one ID and ask one skin for exactly one request (`drawing`).
    private func drawsAlike(_ a: GoldenCase, _ b: GoldenCase) -> Bool {
        a.id == b.id && drawing(a.skinID, a.request) == drawing(b.skinID, b.request)
    }

    /// Per skin, direction, family and scale, the case with the fewest pixels.
    lazy var representativeCases: [String] = {
        var best: [String: GoldenCase] = [:]
        for c in catalog.cases {
            let key = "\(c.skinID) \(c.direction) \(c.family) \(c.scale)"
            let area = c.request.bounds.width * c.request.bounds.height
            if let b = best[key], b.request.bounds.width * b.request.bounds.height <= area { continue }
            best[key] = c
        }
        return best.values.map(\.id).sorted()
    }()

    func finishCoverage() {}

    /// The golden's pixels: what a drawing's time mostly follows, and the same on every run,
    /// so each mutant's cases go in one order however busy the coverage run's machine was.
    func cost(_ id: String) -> Double? {
        guard let file = goldenFiles?[id], let fact = cache.fact(forFile: file) else { return nil }
        return Double(fact.width * fact.height)
    }
}

DriverLoop.run { PopoverSubject() }
