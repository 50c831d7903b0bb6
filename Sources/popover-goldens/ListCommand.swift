import ArgumentParser
import PopoverHarness

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print every case ID.")

    @Option(help: "Only IDs containing this text, or matching this pattern (* any run, ? one character).")
    var filter: String?

    @Option(help: "Only this share of the cases, I/N (as check --shard would judge).")
    var shard: String?

    func run() throws {
        let catalog = try loadCatalog()
        var cases = catalog.cases(matching: filter)
        if cases.isEmpty, let filter {
            throw UserError("\(HarnessError.noCaseMatches(filter, closest: catalog.closestIDs(to: filter)))")
        }
        if let shard {
            let share = try userFacing { () throws(HarnessError) in try Shard(parsing: shard) }
            cases = share.select(cases, cost: catalog.estimatedCost)
        }
        print(cases.map(\.id).joined(separator: "\n"))
    }
}
