import ArgumentParser
import Foundation
import MutationKit

/// `tools/mutation/run`: the mutation analysis of the drawing code (docs/sensitivity.md).
struct PopoverMutants: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popover-mutants",
        abstract: "Measure how sensitive the golden suite is: mutate the drawing code, judge every mutant against the goldens.",
        discussion: """
            Writes sensitivity.json and sensitivity.html to --out and prints the survivors and the score. \
            Exit status: 0 when the run finished (whatever the score), 2 on bad input or a failed build.
            """)

    @Option(help: "The repository's root folder.")
    var root: String = FileManager.default.currentDirectoryPath

    @Option(help: "Only the mutants of this file (as named from the root, e.g. Sources/PopoverGeometry/StageLength.swift).")
    var file: String?

    @Option(help: "Only the mutants of this line of --file.")
    var line: Int?

    @Option(help: "Only a random sample of this many mutants.")
    var sample: Int?

    @Option(help: "The sample's seed.")
    var seed: UInt64 = 1

    @Option(help: "A previous run's sensitivity.json: judge again only the mutants it lists as survived (after adding cases to close them) and any it does not hold, and take every other result from it.")
    var survivorsOf: String?

    @Option(help: "Driver processes (each judges one mutant at a time).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Where sensitivity.json and sensitivity.html go (default: .build-mutants/sensitivity under the root; not Reports/, which belongs to the check's report).")
    var out: String?

    @Flag(help: "Judge every selected case of a killed mutant (by default counting stops after --kills-named kills).")
    var countAllKills = false

    @Option(help: "Killing cases to name per mutant.")
    var killsNamed: Int = 3

    @Option(help: "A tolerances.json to judge killed mutants under (default: the committed Goldens/tolerances.json, if any).")
    var tolerances: String?

    @Option(help: "Inputs of the shipped skins drawn with each survivor.")
    var searchBudget: Int = AnalysisOptions().searchBudget

    @Option(help: "Inputs of other artwork drawn with each survivor the shipped skins cannot tell apart.")
    var artworkBudget: Int = AnalysisOptions().artworkBudget

    @Flag(help: "Skip the survivor search.")
    var noSearch = false

    @Flag(help: "Build the schemata and stop.")
    var buildOnly = false

    @Flag(help: "List the mutants (ID, place, operator, the line before and after) and stop.")
    var list = false

    @Option(help: "The driver folder (its main.swift and subject.json).")
    var driver: String?

    @Option(help: "The build configuration of the schemata copy.")
    var configuration: String = "release"

    @Option(help: "Each driver's address-space limit in MiB.")
    var memoryMb: Int = 4096

    @Option(help: "Seconds added to 1.25 x a case's original time to make its time limit.")
    var timeMargin: Double = AnalysisOptions().timeConstant

    func validate() throws {
        if line != nil && file == nil { throw ValidationError("--line needs --file") }
        if let sample, sample < 1 { throw ValidationError("--sample must be at least 1, got \(sample)") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if !(timeMargin > 0 && timeMargin <= 3600) { throw ValidationError("--time-margin must be more than 0 and at most 3600 seconds, got \(timeMargin)") }
        if !["release", "debug"].contains(configuration) {
            throw ValidationError("--configuration must be release or debug, got \(configuration)")
        }
        if let tolerances, !FileManager.default.isReadableFile(atPath: tolerances) {
            throw ValidationError("--tolerances \(tolerances): no such readable file")
        }
    }

    func run() throws {
        // Ctrl-C ends the drivers (each in a process group of its own) with the tool.
        LiveDrivers.handleInterrupts()
        let root = URL(fileURLWithPath: self.root).standardizedFileURL.path
        // This package's folder: the driver kit and the popover driver live beside the command.
        let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        do {
            let driverFolder = driver ?? tool + "/Driver/Popover"
            let subject = try Subject.load(root: root, driverFolder: driverFolder, kitFolder: tool + "/Driver/Kit")
            if list {
                for f in Finder.find(try subject.sources(), checked: Set(subject.checked), throwOnly: Set(subject.throwOnly)) {
                    for m in f.mutants where file == nil || m.file == file {
                        print(Escape.terminal("#\(m.id)\t\(m.file):\(m.line):\(m.column)\t\(m.mutationOperator.rawValue)\t"
                            + "\(m.originalLine.trimmingCharacters(in: .whitespaces))\t=> \(m.mutatedLine.trimmingCharacters(in: .whitespaces))"))
                    }
                }
                return
            }
            var run = MutationRun(subject: subject, scratch: root + "/.build-mutants", output: out ?? root + "/.build-mutants/sensitivity")
            run.configuration = configuration
            run.file = file
            run.line = line
            run.sample = sample
            run.seed = seed
            run.buildOnly = buildOnly
            run.notBuiltFile = driverFolder + "/not-built.json"
            if let survivorsOf {
                do {
                    run.survivorsOf = (survivorsOf, try JSONDecoder().decode(SensitivityReport.self,
                                                                             from: Data(contentsOf: URL(fileURLWithPath: survivorsOf))))
                } catch {
                    throw MutationError.io("--survivors-of \(survivorsOf): not a readable sensitivity.json (\(error))")
                }
            }
            run.options.jobs = jobs
            run.options.killsToName = countAllKills ? 0 : killsNamed
            run.options.tolerancesFile = tolerances.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            run.options.searchBudget = searchBudget
            run.options.artworkBudget = artworkBudget
            run.options.search = !noSearch
            run.options.memoryMB = memoryMb
            run.options.timeConstant = timeMargin
            run.log = { print(Escape.terminal($0)); fflush(nil) }
            let result = try run.run()
            print("")
            print(result.report.terminal(), terminator: "")
            print("Report: \(Escape.terminal(run.output))/sensitivity.html")
        } catch let error as MutationError {
            FileHandle.standardError.write(Data("popover-mutants: \(Escape.terminal(error.description))\n".utf8))
            throw ExitCode(2)
        }
    }
}

PopoverMutants.main()
