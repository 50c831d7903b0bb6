import ArgumentParser
import Foundation
import PopoverHarness

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print every case ID.")

    @Option(help: "Only IDs containing this text, or matching this pattern (* any run, ? one character).")
    var filter: String?

    @Option(help: "Only this share of the cases, I/N (as check --shard would judge).")
    var shard: String?

    @Option(help: "With --shard: share the cases out by how long each took in this earlier run's summary.json.")
    var shardTimings: String?

    @Option(help: "The folder of skin folders.")
    var skins = "Skins"

    func run() throws {
        let catalog = loadCatalog(skins: skins)
        for problem in catalog.unavailableSkins {
            printError("popover-goldens: \(problem.message)")
        }
        var cases = catalog.cases(matching: filter)
        if cases.isEmpty, let filter {
            throw UserError("\(HarnessError.noCaseMatches(filter, closest: catalog.closestIDs(to: filter)))")
        }
        if shardTimings != nil && shard == nil { throw UserError("--shard-timings: only with --shard") }
        if let shard {
            let share = try userFacing { () throws(HarnessError) in try Shard(parsing: shard) }
            let timings = try shardTimings.map(loadTimings)
            cases = share.select(cases, cost: catalog.shardCost(for: cases, timings: timings))
        }
        for c in cases { print(c.id) }
        if !catalog.unavailableSkins.isEmpty { throw ExitCode(2) }
    }
}
