import ArgumentParser
import Foundation
import PopoverFiles
import PopoverHarness
import PopoverReview

struct AcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Take the last run's actual images as goldens, case by case.",
        discussion: """
        Each case is drawn again by this build and must give exactly the pixels the report
        shows, which are written as its golden with their facts: what you looked at is what
        gets committed. A case is refused, and nothing written for it, when its saved image
        or its golden has changed since the run, when an approval names other images than
        the run saved, or when this build draws something else.
        Exit status: 0 done, 2 a case was refused or the input is bad.
        """)

    @Argument(help: "Case IDs, text or patterns (as --filter reads them) of the cases to accept.")
    var cases: [String] = []

    @Option(help: "An approvals.json exported from the report.")
    var from: String?

    @Option(help: ArgumentHelp("Every case of this change (an ID `check` prints and the report shows).", valueName: "ID"))
    var change: String?

    @Flag(help: "Put back the goldens that accepting these cases replaced.")
    var undo = false

    @OptionGroup var review: ReviewOptions

    func validate() throws {
        let ways = [!cases.isEmpty, from != nil, change != nil].filter { $0 }.count
        guard ways == 1 else {
            throw ValidationError("name the cases to accept, or give --from approvals.json, or --change ID (one of them)")
        }
        if undo && from != nil { throw ValidationError("--undo takes case IDs or --change, not --from") }
    }

    func run() throws {
        let desk = review.desk
        let outcome: ReviewOutcome
        if let change {
            outcome = try userFacing { () throws(ReviewError) in
                undo ? try desk.undo(.change(change)) : try desk.accept(.change(change))
            }
        } else if undo {
            outcome = try userFacing { () throws(ReviewError) in try desk.undo(.matching(cases)) }
        } else if let from {
            let bytes = try userFacing { try FileIO.readBytes(path: from) }
            let approvals = try userFacing { () throws(HarnessError) in try Approval.decodeFile(bytes, name: from) }
            outcome = try userFacing { () throws(ReviewError) in try desk.accept(.approvals(approvals)) }
        } else {
            outcome = try userFacing { () throws(ReviewError) in try desk.accept(.matching(cases)) }
        }
        let folder = review.goldens ?? (try? desk.load().goldensFolder) ?? "Goldens"
        let finished = Set(outcome.finished)
        let note = " (already written by an earlier run of this command, which stopped before the report recorded it)"
        for id in outcome.accepted { print("accepted  \(id) -> \(folder)/\(id).png" + (finished.contains(id) ? note : "")) }
        for id in outcome.alreadyAccepted { print("already accepted  \(id)") }
        let run = try? desk.load()
        for id in outcome.undone {
            // Undoing a new case's acceptance removes the golden the run recorded: there was none before.
            let removed = run?.results.first { $0.id == id }.map { $0.status == .new && $0.accepted == nil } ?? false
            print((removed ? "removed   " : "restored  ") + "\(folder)/\(id).png" + (finished.contains(id) ? note : ""))
        }
        for refused in outcome.refused { printError("REFUSED \(refused.reason)") }
        if let unrecorded = outcome.unrecorded {
            printError("ERROR the goldens above were written, but \(review.reports)/summary.json could not "
                + "record it (\(unrecorded)); run the same command again to record it")
        }
        let done = undo ? "\(outcome.undone.count) restored" : "\(outcome.accepted.count) accepted"
        print("\(done), \(outcome.refused.count) refused; report: \(review.reports)/index.html")
        if !outcome.refused.isEmpty || outcome.unrecorded != nil { throw ExitCode(2) }
    }
}

/// Where a review reads the run and writes goldens: `accept` and `review` alike.
struct ReviewOptions: ParsableArguments {
    @Option(help: "The report folder of the run.")
    var reports = "Reports"

    @Option(help: "The goldens folder (default: Goldens, when the run was checked against it; any other must be named).")
    var goldens: String?

    @Option(help: "The folder of skin folders: an acceptance draws each case again from them.")
    var skins = "Skins"

    var desk: ReviewDesk { ReviewDesk(reportsFolder: reports, goldensFolder: goldens, skinsFolder: skins) }
}
