import Foundation
import Testing
@testable import MutationKit

/// A run stopped part-way resumes from the results it had written (`Analysis.judgedBefore`).
@Suite("Resuming a stopped run")
struct ResumeTests {
    static func mutant(_ id: Int, _ replacement: String) -> Mutant {
        Mutant(id: id, file: "Sources/Shapes/Shapes.swift", module: "Shapes", line: 6, column: 14,
               mutationOperator: .math, original: "*", replacement: replacement, originalLine: "w * h",
               mutatedLine: "w \(replacement) h", construct: 2, start: 100, end: 101)
    }

    static func job(_ m: Mutant) -> Analysis.Job {
        Analysis.Job(mutant: m, cases: ["area-2x3"], cost: 1, rebuild: false)
    }

    @Test("results of these very mutants are taken; a line cut short and a mutant numbered differently are judged again")
    func resumes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var killed = MutantResult(mutant: Self.mutant(1, "/"), status: .killed)
        killed.killedBy = ["area-2x3"]
        // Mutant 2 was `+` in the build that wrote the file; this run's mutant 2 is `-`.
        let renumbered = MutantResult(mutant: Self.mutant(2, "+"), status: .survived)
        let survived = MutantResult(mutant: Self.mutant(3, "%"), status: .survived)
        var text = Data()
        for r in [killed, renumbered, survived] { text += try JSONEncoder().encode(r) + Data("\n".utf8) }
        // The stop cut the last line short.
        let cut = try JSONEncoder().encode(MutantResult(mutant: Self.mutant(4, "&"), status: .killed))
        text += cut.prefix(cut.count / 2)
        try text.write(to: URL(fileURLWithPath: file))

        let jobs = [Self.mutant(1, "/"), Self.mutant(2, "-"), Self.mutant(3, "%"), Self.mutant(4, "&")].map(Self.job)
        let found = Analysis.judgedBefore(in: file, jobs: jobs)
        #expect(Set(found.keys) == [1, 3])
        #expect(found[1]?.status == .killed)
        #expect(found[1]?.killedBy == ["area-2x3"])
        #expect(found[3]?.status == .survived)
        #expect(Analysis.judgedBefore(in: file + ".absent", jobs: jobs).isEmpty)
    }

    @Test("judging with every mutant already in the file starts no driver and appends only what it judges")
    func judgesNothingTwice() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("resume-judge-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let file = scratch + "/judged.jsonl"
        var killed = MutantResult(mutant: Self.mutant(1, "/"), status: .killed)
        killed.killedBy = ["area-2x3"]
        try (JSONEncoder().encode(killed) + Data("\n".utf8)).write(to: URL(fileURLWithPath: file))
        // No such driver: a mutant it had to judge would come out crashed ("cannot start").
        var options = AnalysisOptions()
        options.jobs = 1
        let analysis = Analysis(driver: scratch + "/no-driver", driverArguments: [], scratch: scratch, constructCount: 4,
                                options: options)
        let results = analysis.judge([Self.job(Self.mutant(1, "/"))], resume: file)
        #expect(results.map(\.status) == [.killed])
        #expect(results.first?.killedBy == ["area-2x3"])
        // Mutant 2 is new: judged (it cannot start, so crashed) and appended.
        let both = analysis.judge([Self.job(Self.mutant(1, "/")), Self.job(Self.mutant(2, "-"))], resume: file)
        #expect(both.first { $0.mutant.id == 2 }?.status == .crashed)
        #expect(Set(Analysis.judgedBefore(in: file, jobs: [1, 2].map { Self.job(Self.mutant($0, $0 == 1 ? "/" : "-")) }).keys) == [1, 2])
    }

    @Test("a run of part of the code takes a full run's results and writes its own file, never the full run's")
    func takesFromWithoutWriting() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("resume-take-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let whole = scratch + "/judged-whole.jsonl", part = scratch + "/judged-part.jsonl"
        var killed = MutantResult(mutant: Self.mutant(1, "/"), status: .killed)
        killed.killedBy = ["area-2x3"]
        let wholeText = try JSONEncoder().encode(killed) + Data("\n".utf8)
        try wholeText.write(to: URL(fileURLWithPath: whole))
        var options = AnalysisOptions()
        options.jobs = 1
        let analysis = Analysis(driver: scratch + "/no-driver", driverArguments: [], scratch: scratch, constructCount: 4,
                                options: options)
        let results = analysis.judge([Self.job(Self.mutant(1, "/")), Self.job(Self.mutant(2, "-"))], resume: part, takeFrom: [whole])
        #expect(results.first { $0.mutant.id == 1 }?.killedBy == ["area-2x3"])
        #expect(results.first { $0.mutant.id == 2 }?.status == .crashed)
        // The full run's file is as it was; the part's holds only what the part judged.
        #expect(FileManager.default.contents(atPath: whole) == wholeText)
        let jobs = [1, 2].map { Self.job(Self.mutant($0, $0 == 1 ? "/" : "-")) }
        #expect(Set(Analysis.judgedBefore(in: part, jobs: jobs).keys) == [2])
    }
}

/// `--survivors-of`: after cases were added, only the previous run's survivors are judged again.
@Suite("Judging a previous run's survivors again")
struct SurvivorsOfTests {
    static func report(_ results: [MutantResult]) -> SensitivityReport {
        SensitivityReport(results: results, notMutated: [], date: "", commit: "", machine: "", scope: "", options: [:],
                          timings: [:], tolerancePolicy: nil)
    }

    @Test("survivors are chosen by place and change, whatever their ID; every other result is carried under the new ID")
    func choosesSurvivors() throws {
        var killed = MutantResult(mutant: ResumeTests.mutant(1, "/"), status: .killed)
        killed.killedBy = ["area-2x3"]
        var equivalent = MutantResult(mutant: ResumeTests.mutant(2, "+"), status: .equivalent)
        equivalent.detail = "no input tells them apart"
        let survived = MutantResult(mutant: ResumeTests.mutant(3, "-"), status: .survived)
        let previous = Self.report([killed, equivalent, survived])
        // The same mutants numbered from 11 now (another file's mutants came first).
        let now = [ResumeTests.mutant(11, "/"), ResumeTests.mutant(12, "+"), ResumeTests.mutant(13, "-")]
        let (chosen, carried) = MutationRun.survivors(of: previous, among: now)
        #expect(chosen.map(\.id) == [13])
        #expect(Set(carried.keys) == [11, 12])
        #expect(carried[11]?.status == .killed)
        #expect(carried[11]?.killedBy == ["area-2x3"])
        #expect(carried[11]?.mutant.id == 11)
        #expect(carried[12]?.status == .equivalent)
    }

    @Test("a mutant the report does not hold (new code, or a place that moved) is judged, not taken from it")
    func judgesNewMutants() {
        let previous = Self.report([MutantResult(mutant: ResumeTests.mutant(1, "/"), status: .killed)])
        var moved = ResumeTests.mutant(3, "/")
        moved.line = 7
        let now = [ResumeTests.mutant(1, "/"), ResumeTests.mutant(2, "%"), moved]
        let (chosen, carried) = MutationRun.survivors(of: previous, among: now)
        #expect(chosen.map(\.id) == [2, 3])
        #expect(Set(carried.keys) == [1])
    }

    @Test("the results file is named for the sources, not for the schemata text: the same sources, the same file")
    func keyedBySources() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("resume-key-\(getpid())").path
        defer { try? fm.removeItem(atPath: root) }
        for folder in ["Sources/Shapes", "Skins", "Driver", "Kit", ".build-mutants/package/Sources/Shapes"] {
            try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path)) }
        try write("public func area(_ w: Int, _ h: Int) -> Int { w * h }\n", "Sources/Shapes/Shapes.swift")
        try write("// driver\n", "Driver/main.swift")
        try write("// kit\n", "Kit/DriverLoop.swift")
        try write("// package\n", "Package.swift")
        let subject = Subject(root: root, mutate: ["Shapes"], driverDependencies: ["Shapes"], driverFolder: root + "/Driver",
                              kitFolder: root + "/Kit")
        let tool = root + "/Package.swift"
        let first = MutationRun.sourcesKey(subject, tool: tool)
        // A schemata build that wrote other text (another mutant left out) names the same file.
        try write("// mutants 1 to 7, 3 left out\n", ".build-mutants/package/Sources/Shapes/Shapes.swift")
        #expect(MutationRun.sourcesKey(subject, tool: tool) == first)
        try write("// mutants 1 to 7, 3 and 5 left out\n", ".build-mutants/package/Sources/Shapes/Shapes.swift")
        #expect(MutationRun.sourcesKey(subject, tool: tool) == first)
        // A source, a skin or the driver changed: another file, judged afresh.
        try write("public func area(_ w: Int, _ h: Int) -> Int { h * w }\n", "Sources/Shapes/Shapes.swift")
        let edited = MutationRun.sourcesKey(subject, tool: tool)
        #expect(edited != first)
        try write("{}\n", "Skins/skin.json")
        #expect(MutationRun.sourcesKey(subject, tool: tool) != edited)
    }
}
