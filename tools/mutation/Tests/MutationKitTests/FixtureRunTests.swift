import Foundation
import Testing
@testable import MutationKit

/// One whole run of the analysis on the fixture package (tools/mutation/Fixture): its
/// schemata built (in debug, in a temporary folder), coverage recorded, every mutant
/// judged, survivors searched. Each expectation below is worked out by hand from
/// Fixture/Sources/Shapes (Shapes.swift, Checked.swift, Removed.swift and Twice.swift), its goldens (Goldens/*.txt) and its driver's
/// cases and search inputs (Driver/main.swift).
enum FixtureRun {
    static let toolFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let fixture = toolFolder + "/Fixture"

    static let result: Result<MutationRun.Result, any Error> = Result {
        // The schemata build and the outputs stay while the tests read them, then go.
        atexit { try? FileManager.default.removeItem(atPath: FixtureRun.scratchFolder(getpid())) }
        let outcome = try run(output: "out").run()
        // Its coverage, which a later run in the same folder (of one file) replaces.
        let folder = scratchFolder(getpid())
        try FileManager.default.copyItem(atPath: folder + "/coverage.json", toPath: folder + "/coverage-full.json")
        return outcome
    }

    /// The fixture's run, writing its report to `output` in the scratch folder.
    static func run(output: String) -> MutationRun {
        let scratch = scratchFolder(getpid())
        let subject = Subject(root: fixture, mutate: ["Shapes"], driverDependencies: ["Shapes"],
                              driverFolder: fixture + "/Driver", kitFolder: toolFolder + "/Driver/Kit", checked: ["Mask"],
                              throwOnly: ["requireNonNegative"])
        var run = MutationRun(subject: subject, scratch: scratch, output: scratch + "/" + output)
        run.configuration = "debug"
        run.options.jobs = 2
        // The fixture's cases take microseconds: a second past 1.25 x their time is a hang.
        run.options.timeConstant = 2
        // The same 2 s for each input of a search (steps' mutants hang on other artwork's);
        // the whole search's limit is left far above it.
        run.options.searchSeconds = 60
        run.log = { _ in }
        run.notBuiltFile = scratch + "/not-built.json"
        return run
    }

    static func scratchFolder(_ pid: pid_t) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mutation-fixture-\(pid)").path
    }

    /// The result of the mutant at `line` of `file` (Shapes.swift unless named) changing `original` to `replacement`.
    static func mutant(file: String = "Shapes.swift", line: Int, column: Int? = nil, _ original: String,
                       _ replacement: String) throws -> MutantResult {
        let report = try result.get().report
        let matches = report.mutants.filter {
            $0.mutant.file == "Sources/Shapes/" + file && $0.mutant.line == line && (column == nil || $0.mutant.column == column)
                && $0.mutant.original == original
                && $0.mutant.replacement == replacement
        }
        return try #require(matches.count == 1 ? matches.first : nil,
                            "line \(line) \(original) -> \(replacement): \(matches.count) mutants")
    }
}

@Suite("A run on the fixture", .serialized)
struct FixtureRunTests {
    @Test("a mutant the goldens must catch is killed, judged only on the cases that run its code")
    func killed() throws {
        // area(2, 3) = 6 and area(4, 5) = 20; with `/` they give 0: both area cases fail.
        let r = try FixtureRun.mutant(line: 6, "*", "/")
        #expect(r.status == .killed)
        #expect(Set(r.killedBy) == ["area-2x3", "area-4x5"])
        // Selection by mutation point: of the 7 cases only the two area cases run `area`.
        #expect(r.selected == 2)
        // `if w < 10 { return 10 }`: the returned 10 -> 11 makes width-5 give 11 (golden 10).
        // Only width-5 runs that return (width-20 skips the if's body): one case judged.
        let nudged = try FixtureRun.mutant(line: 11, column: 24, "10", "11")
        #expect(nudged.status == .killed)
        #expect(nudged.killedBy == ["width-5"])
        #expect(nudged.selected == 1)
    }

    @Test("an equivalent mutant: the search finds no input that tells it apart")
    func equivalent() throws {
        // `w < 10` -> `w <= 10`: only w == 10 differs in the test, and there both return 10.
        let r = try FixtureRun.mutant(line: 11, "<", "<=")
        #expect(r.status == .equivalent)
        let c = try #require(r.classification)
        #expect(c.kind == .likelyEquivalent)
        // The search's clampedWidth inputs are w = 0...30, all of which run the code; the
        // probe sees `w <= 10` differ from `w < 10` at w == 10 alone, the one input drawn.
        #expect(c.shippedReaching == 31)
        #expect(c.shippedInfecting == 1)
        #expect(c.shippedTried == 1)
        // Selection by infection: width-5 and width-20 run the comparison (w = 5, 20), but
        // there `<=` gives what `<` gives, so neither is drawn with the mutant.
        #expect(r.reaching == 2)
        #expect(r.selected == 0)
    }

    @Test("a survivor the search can tell apart is printed as a missing case")
    func missingCase() throws {
        // `var i = 0` -> `var i = 1`: spin(3) is still 3, but spin(0) becomes 1.
        let r = try FixtureRun.mutant(line: 17, "0", "1")
        #expect(r.status == .survived)
        #expect(r.classification?.kind == .missingCase)
        #expect(r.classification?.input == "spin(0)")
        // The search's spin inputs come 3, 0, 1, 2, 4: spin(3) is the spin-3 case's own
        // drawing (its golden holds 3), which a survivor passes, so it counts as tried without
        // being drawn; spin(0), drawn, is the second tried.
        #expect(r.classification?.shippedTried == 2)
        #expect(r.classification?.shippedFromCases == 1)
        // `if w < 10 { return 10 }` -> `w < 9`: clampedWidth(9) gives 9 instead of 10. The
        // literal joins the comparison's probe: `w < 9` differs from `w < 10` at w = 9 alone,
        // so neither case (w = 5, 20) is drawn with it and the search draws only w = 9, of
        // the 31 inputs that run the comparison.
        let nine = try FixtureRun.mutant(line: 11, column: 12, "10", "9")
        #expect(nine.status == .survived)
        #expect(nine.selected == 0)
        #expect(nine.classification?.input == "clampedWidth(9)")
        #expect(nine.classification?.shippedReaching == 31)
        #expect(nine.classification?.shippedInfecting == 1)
        #expect(nine.classification?.shippedTried == 1)
        // clampedWidth(5) and (20) are cases' own drawings, but not inputs it infects.
        #expect(nine.classification?.shippedFromCases == 0)
    }

    @Test("a survivor that hangs only on other artwork's input is code the shipped skins never exercise, not a missing case")
    func hangsOnOtherArtwork() throws {
        // steps(n, from:) runs in no case; the shipped search input steps(0, from: 0) never
        // enters its loop, so `k += 1` turned `k -= 1`, removed or `k += 0` draws the same there,
        // and other artwork's steps(2, from: 0) never ends with any of them.
        for (original, replacement) in [("+=", "-="), ("k += 1", ""), ("1", "0")] {
            let r = try FixtureRun.mutant(line: 41, original, replacement)
            #expect(r.status == .equivalent, "\(original) -> \(replacement)")
            #expect(r.classification?.kind == .otherArtworkOnly, "\(original) -> \(replacement)")
            #expect(r.classification?.input == "steps(2, from: 0)")
            #expect(r.classification?.shippedReaching == 0)
            // Each input has the time margin (2 s here): the loop that never ends is stopped there,
            // not when the whole search's 60 s run out.
            #expect(r.classification?.reason.contains("took more than 2 s on one input") == true)
        }
        // `k != n` -> `k == n` hangs nowhere: steps(0, from: 0) gives 1 instead of 0.
        let found = try FixtureRun.mutant(line: 40, "!=", "==")
        #expect(found.classification?.kind == .missingCase)
        #expect(found.classification?.input == "steps(0, from: 0)")
    }

    @Test("a mutant of the setup that sets it up alike is judged on no case; one that sets it up otherwise on every case")
    func setup() throws {
        // `return available >= 7 ? 7 : available` runs while the subject is set up (listed(7):
        // all seven cases). The returned 7 -> 8 (column 29) lists seven still: the subject set up
        // again under it holds the same cases, and no drawing runs the line, so no case is drawn
        // with it (without that comparison it was judged on all of them).
        let alike = try FixtureRun.mutant(line: 51, column: 29, "7", "8")
        #expect(alike.selected == 0)
        #expect(alike.status == .equivalent)
        #expect(alike.setUpAlike == true)
        // Set up alike, it is searched on the subject as set up, not on one set up again.
        let log = try String(contentsOfFile: FixtureRun.scratchFolder(getpid()) + "/search.log", encoding: .utf8)
        for r in [alike, try FixtureRun.mutant(line: 51, ">=", ">")] {
            let line = log.split(separator: "\n").first { $0.hasPrefix("\(r.mutant.id) ") }
            #expect(line?.contains(", as set up, ") == true, "\(r.mutant.original) -> \(r.mutant.replacement)")
        }
        // `>=` -> `>` changes the comparison's value at 7 (the probe sees it), and returns 7 all
        // the same: set up again, and alike.
        #expect(try FixtureRun.mutant(line: 51, ">=", ">").setUpAlike == true)
        // The compared 7 -> 6 changes no value at 7 (7 >= 6 as 7 >= 7): never set up again.
        #expect(try FixtureRun.mutant(line: 51, column: 25, "7", "6").setUpAlike == nil)
        // The returned 7 -> 6 lists six: set up otherwise, it is judged on every case (the seven
        // listed, and floored, copied, waited, settled-4 and settled-0, which the driver adds), the
        // dropped one first.
        let otherwise = try FixtureRun.mutant(line: 51, column: 29, "7", "6")
        #expect(otherwise.status == .killed)
        #expect(otherwise.killedBy == ["brightest"])
        #expect(otherwise.setUpAlike == false)
        #expect(otherwise.selected == 12)
    }

    @Test("removed statements the coverage run reads: a call that only throws, judged where it throws; a store of what is there, nowhere")
    func removedStatements() throws {
        // settled(4) and settled(0) (Removed.swift): requireNonNegative returns on both, so the
        // run without it is the same run. Both cases reach the call; neither is drawn with it.
        let check = try FixtureRun.mutant(file: "Removed.swift", line: 9, "try requireNonNegative(n)", "")
        #expect(check.reaching == 2)
        #expect(check.selected == 0)
        // The search: settled(2) runs the call and returns, so no shipped input is drawn with it;
        // other artwork's settled(-1) throws there, and without the call gives -2 instead of -1.
        #expect(check.status == .equivalent)
        #expect(check.classification?.kind == .otherArtworkOnly)
        #expect(check.classification?.input == "settled(-1)")
        #expect(check.classification?.shippedReaching == 1)
        #expect(check.classification?.shippedInfecting == 0)
        // `total = n` stores the n `total` already holds: nowhere a changed value.
        let store = try FixtureRun.mutant(file: "Removed.swift", line: 11, "total = n", "")
        #expect(store.reaching == 2)
        #expect(store.selected == 0)
        #expect(store.status == .equivalent)
        #expect(store.classification?.kind == .likelyEquivalent)
        #expect(store.classification?.shippedInfecting == 0)
        // The probe watches the throw, not the call: `n < 0` -> `n <= 0` throws on settled(0)
        // and is killed there (-1 instead of 0), judged on that case alone.
        let boundary = try FixtureRun.mutant(file: "Removed.swift", line: 18, "<", "<=")
        #expect(boundary.status == .killed)
        #expect(boundary.killedBy == ["settled-0"])
        #expect(boundary.selected == 1)
        // max(total + total, 0) with its bound nudged to 1: 8 either way on settled(4), 1 for 0 on
        // settled(0). The probe computes the nudged bound: drawn on settled-0 alone, killed there.
        let bound = try FixtureRun.mutant(file: "Removed.swift", line: 12, "0", "1")
        #expect(bound.selected == 1)
        #expect(bound.killedBy == ["settled-0"])
    }

    @Test("a mutant that crashes is caught and shown apart from the kills")
    func crashed() throws {
        // values[i - 1] -> values[i - 2] with i = 1 reads index -1: a runtime trap.
        let r = try FixtureRun.mutant(line: 26, "1", "2")
        #expect(r.status == .crashed)
        #expect(r.lastCase == "pick-1")
    }

    @Test("a mutant that hangs is stopped by its time limit")
    func timedOut() throws {
        for (original, replacement) in [("+=", "-="), ("i += 1", "")] {
            let r = try FixtureRun.mutant(line: 19, original, replacement)
            #expect(r.status == .timedOut, "\(original) -> \(replacement)")
            #expect(r.lastCase == "spin-3")
        }
        // i += 0 never ends either.
        #expect(try FixtureRun.mutant(line: 19, "1", "0").status == .timedOut)
        // Only the child judging each of the three was ended: the two drivers judged every
        // mutant (a driver ended with its child would have been started again for the next).
        #expect((1...2).contains(try FixtureRun.result.get().judgingDrivers))
    }

    @Test("checks: a mutant whose checked call gives the original's result is not drawn there; one that crashes or hangs in a check is judged as usual")
    func checks() throws {
        // floored([-1, 0, 2], from: 0) is [0, 0, 2] (Checked.swift; `Mask` is checked). In
        // `if x < 0 { x = 0 }`, `<` -> `<=` and the compared 0 -> 1 change the condition at
        // x == 0 alone, where x is 0 either way: the probe sees them change a value, the check
        // sees the same mask, so the case that reaches them is not drawn with them, and the
        // search (floored([0, 5], from: 0): the same mask again) finds them equivalent.
        for (column, original, replacement) in [(14, "<", "<="), (16, "0", "1")] {
            let r = try FixtureRun.mutant(file: "Checked.swift", line: 20, column: column, original, replacement)
            #expect(r.status == .equivalent, "\(original) -> \(replacement)")
            #expect(r.reaching == 1)
            #expect(r.selected == 0)
        }
        // `<` -> `>=` keeps -1 and floors 2: a different mask, so the case is drawn and kills it.
        let differs = try FixtureRun.mutant(file: "Checked.swift", line: 20, column: 14, "<", ">=")
        #expect(differs.status == .killed)
        #expect(differs.selected == 1)
        #expect(differs.killedBy == ["floored"])
        // `i < values.count` -> `<=` reads values[3]: the check's evaluation traps, the case is
        // recorded again with that mutant left unchecked (and the two above still cleared in
        // it), and judging it on the case crashes.
        let crashes = try FixtureRun.mutant(file: "Checked.swift", line: 18, "<", "<=")
        #expect(crashes.status == .crashed)
        #expect(crashes.selected == 1)
        // `i += 1` removed never ends: the check's evaluation is stopped (two seconds of CPU),
        // and the case's drawing with it times out.
        let hangs = try FixtureRun.mutant(file: "Checked.swift", line: 22, "i += 1", "")
        #expect(hangs.status == .timedOut)
        #expect(hangs.selected == 1)
        // waited([1, 2, 3]) (Checked.swift:46): `values.count > 5` negated to `<=` sleeps an hour in
        // its check, using no CPU; the clock stops it (five seconds), the case is recorded, and
        // judging times the mutant out. `>=` and the 5 nudged either way wait as little as the
        // original: cleared, not drawn.
        let waits = try FixtureRun.mutant(file: "Checked.swift", line: 46, ">", "<=")
        #expect(waits.status == .timedOut)
        #expect(waits.selected == 1)
        for (original, replacement) in [(">", ">="), ("5", "4"), ("5", "6")] {
            let r = try FixtureRun.mutant(file: "Checked.swift", line: 46, original, replacement)
            #expect(r.selected == 0, "\(original) -> \(replacement)")
        }
        // The case itself passes unmutated: recorded, not lost to the mutants that crashed.
        _ = try FixtureRun.result.get()
        let coverage = try JSONDecoder().decode(CoverageTable.self, from: Data(contentsOf: URL(fileURLWithPath:
            FixtureRun.scratchFolder(getpid()) + "/coverage-full.json")))
        let floored = try #require(coverage.cases.first { $0.id == "floored" })
        #expect(floored.verdict == "same")
        #expect((floored.checks ?? 0) > 0)
        // No other case runs a checked function: none clears anything.
        #expect(try #require(coverage.cases.first { $0.id == "waited" }).verdict == "same")
        #expect(coverage.cases.filter { !["floored", "copied", "waited"].contains($0.id) }.allSatisfy {
            $0.clearedSet.isEmpty && ($0.checks ?? 0) == 0
        })
    }

    @Test("checks: a mutant that writes past a buffer and returns the same result crashes in its check, under the checking allocator")
    func checkingAllocator() throws {
        // copied([7, 8, 9]) (Checked.swift): `capacity: 3` -> 2 writes the third value into the
        // slack malloc leaves after a 16-byte block and returns the same mask. The coverage
        // drivers' allocator finds its guard byte overwritten when the block is freed, so the
        // check crashes and the case is drawn with the mutant; drawn with the usual allocator,
        // the write passes unseen, the case passes, and the search finds it equivalent.
        let short = try FixtureRun.mutant(file: "Checked.swift", line: 31, "3", "2")
        #expect(short.reaching == 1)
        #expect(short.selected == 1)
        #expect(short.status == .equivalent)
        // 3 -> 4 leaves room to spare: cleared, not drawn.
        let roomy = try FixtureRun.mutant(file: "Checked.swift", line: 31, "3", "4")
        #expect(roomy.reaching == 1)
        #expect(roomy.selected == 0)
        #expect(roomy.status == .equivalent)
    }

    @Test("the schemata build: a mutant that does not compile is listed as not built, outside the score")
    func notBuilt() throws {
        let r = try FixtureRun.mutant(line: 31, "255", "256")
        #expect(r.status == .notBuilt)
        #expect(r.detail?.contains("256") == true)
        #expect(r.detail?.contains("UInt8") == true)
        // Its neighbour built and is killed: brightest() gives 254, golden 255.
        #expect(try FixtureRun.mutant(line: 31, "255", "254").status == .killed)
        let outcome = try FixtureRun.result.get()
        #expect(Set(outcome.build.notBuilt.keys) == [r.mutant.id])
        #expect(FileManager.default.isExecutableFile(atPath: outcome.build.driver))
    }

    @Test("what the build learned is kept for a fresh clone: the not-built mutant, by its place in its file, while the file is unchanged")
    func sharedNotBuilt() throws {
        let full = try FixtureRun.result.get()
        let scratch = FixtureRun.scratchFolder(getpid())
        // From an empty scratch folder: one build failed on the literal, the next one built.
        #expect(full.build.rounds == 2)
        let shared = SchemataState.load(scratch + "/not-built.json")
        #expect(Set(shared.keys) == ["Sources/Shapes/Checked.swift", "Sources/Shapes/Removed.swift", "Sources/Shapes/Shapes.swift",
                                     "Sources/Shapes/Twice.swift"])
        let shapes = try #require(shared["Sources/Shapes/Shapes.swift"])
        // brightest's 255 -> 256, named by its place among the file's mutants (IDs count on across files).
        let notBuilt = try FixtureRun.mutant(line: 31, "255", "256")
        let first = try #require(full.report.mutants.filter { $0.mutant.file == "Sources/Shapes/Shapes.swift" }.map(\.mutant.id).min())
        #expect(shapes.notBuilt.count == 1)
        #expect(shapes.notBuilt[notBuilt.mutant.id - first]?.contains("'256' overflows") == true)
        #expect(shared["Sources/Shapes/Twice.swift"]?.notBuilt.isEmpty == true)
        // A scratch folder that holds nothing (a fresh clone's) takes it from the shared file alone...
        let fresh = SchemataState(file: scratch + "/no-such-state.json", shared: scratch + "/not-built.json")
        #expect(Set(fresh.known(for: full.findings).notBuilt.keys) == [notBuilt.mutant.id])
        // ...but not for another text of the file: its mutants are found to build or not afresh.
        var edited = full.findings
        let index = try #require(edited.firstIndex { $0.source.path == "Sources/Shapes/Shapes.swift" })
        edited[index].source.text += "\n// edited\n"
        #expect(fresh.known(for: edited).notBuilt.isEmpty)
    }

    @Test("the score: detected over the mutants not shown equivalent and built")
    func score() throws {
        let t = try FixtureRun.result.get().report.total
        // Tallied by hand from Shapes.swift (33 mutants):
        //   area `*` -> `/`: killed.
        //   clampedWidth, `if w < 10 { return 10 }`: condition negated, `<` -> `>=`, the returned
        //     10 -> 11 and -> 9: killed (4); `<` -> `<=` and the compared 10 -> 11: equivalent (2);
        //     the compared 10 -> 9: survives (clampedWidth(9)).
        //   spin: `var i = 0` -> 1 survives (spin(0)); `i < n` negated, `<=`, `>=`: killed (3);
        //     `+=` -> `-=`, `i += 1` removed, 1 -> 0: time out (3); 1 -> 2: killed.
        //   pick: `-` -> `+` and 1 -> 0 killed, 1 -> 2 crashes.
        //   brightest: 255 -> 254 killed, 255 -> 256 not built.
        //   steps (no case runs it): `k != n` -> `k == n` and negated survive (steps(0, from: 0));
        //     `+=` -> `-=`, `k += 1` removed, 1 -> 0: other artwork only, by hanging there (3);
        //     1 -> 2: equivalent (steps(2, from: 0) still ends at 2).
        //   listed (setup only): `>=` -> `>` and -> `<`, the compared 7 -> 8 and -> 6 and the
        //     returned 7 -> 8 list seven cases still: unreached by any drawing, equivalent (5);
        //     the returned 7 -> 6: killed (brightest is gone).
        // And from Twice.swift (1 mutant): twice's `+` -> `-`, unreached: equivalent.
        // And from Removed.swift (11 mutants; settled(4) is 8, settled(0) is 0):
        //   `try requireNonNegative(n)` removed: other artwork only (settled(-1) gives -2);
        //   `total = n` removed: equivalent (2). `total + total` -> `-`: killed by settled-4.
        //   `max` -> `min` and the clamp removed to 0: killed by settled-4 (0); the bound 0 -> 1:
        //   killed by settled-0 (1); the clamp removed to `total + total`: equivalent (n >= 0).
        //   `n < 0` -> `<=` and 0 -> 1 throw on settled(0): killed; `>=` and the condition
        //   negated throw on both: killed (4).
        // And from Checked.swift (27 mutants; floored([-1, 0, 2], from: 0) is [0, 0, 2]):
        //   `i < values.count` negated and `>=`: killed (no values); `<=` crashes (values[3]).
        //   `if x < 0`: negated and `>=` floor 2 too, killed; `<=` and 0 -> 1 equivalent (2).
        //   `x = 0` -> `x = 1` and removed: killed; `out.append(x)` removed: killed.
        //   `i += 1`: `-=` crashes (values[-1]); removed and 1 -> 0 time out; 1 -> 2 killed.
        //   copied([7, 8, 9]): `capacity: 3` -> 4 and -> 2 equivalent (2); `buffer[i] = v`
        //   removed (nothing written), `0..<` -> `0...` (a fourth value) and 0 -> 1 killed (3).
        //   waited([1, 2, 3]): `values.count > 5` negated and `<=` wait an hour: time out (2);
        //   `>=`, 5 -> 4 and -> 6 wait as little as the original, and `sleep(3600)` removed and
        //   3600 -> 3599 and -> 3601 never run: equivalent (6).
        #expect(t.mutants == 72)
        #expect(t.killed == 32)
        #expect(t.survived == 4)
        #expect(t.equivalent == 25)
        #expect(t.crashed == 3)
        #expect(t.timedOut == 7)
        #expect(t.notBuilt == 1)
        #expect(t.scored == 46)
        #expect(t.score == 42.0 / 46.0)
    }

    @Test("a search space recorded for the survivors alone marks them as one recorded for every mutant, and leaves bodies without them unrecorded")
    func spaceForSurvivors() throws {
        let result = try FixtureRun.result.get()
        let scratch = FixtureRun.scratchFolder(getpid())
        let analysis = Analysis(driver: result.build.driver, driverArguments: ["--root", FixtureRun.fixture, "--scratch", scratch],
                                scratch: scratch, constructCount: result.findings.reduce(0) { $0 + $1.constructs.count },
                                options: AnalysisOptions())
        analysis.mutantCount = result.findings.flatMap(\.mutants).map(\.id).max() ?? 0
        analysis.log = { _ in }
        // Recorded under other keys than the run's, so neither takes the run's tables.
        let survivors = Set(result.report.mutants.filter { $0.classification != nil }.map(\.mutant.id))
        let every = try analysis.searchTable(key: "every-mutant", watch: nil)
        let some = try analysis.searchTable(key: "survivors", watch: survivors)
        #expect(Analysis.recorded(some, for: survivors))
        #expect(!Analysis.recorded(some, for: survivors.union([-1])))
        #expect(Analysis.recorded(every, for: survivors.union([-1])))
        let a = try JSONDecoder().decode(Analysis.SearchTableFile.self, from: Data(contentsOf: URL(fileURLWithPath: every)))
        let b = try JSONDecoder().decode(Analysis.SearchTableFile.self, from: Data(contentsOf: URL(fileURLWithPath: some)))
        func marks(_ hex: String, _ k: Int) -> Bool { HexBits.members(hex).contains(k) }
        let mutants = result.findings.flatMap(\.mutants)
        var unrecorded = 0
        for (x, y) in zip(a.shipped + a.artwork, b.shipped + b.artwork) {
            #expect(x.outcome == y.outcome)
            for m in mutants where survivors.contains(m.id) {
                #expect(marks(x.reached, m.construct) == marks(y.reached, m.construct), "construct \(m.construct)")
                #expect(marks(x.infected, m.id) == marks(y.infected, m.id), "mutant \(m.id)")
            }
            if HexBits.members(x.reached).count > HexBits.members(y.reached).count { unrecorded += 1 }
        }
        #expect(a.shipped.count == b.shipped.count && a.artwork.count == b.artwork.count && !a.shipped.isEmpty)
        #expect(survivors.count >= 10)
        // Bodies with no survivor in them ran as the original: fewer constructs marked.
        #expect(unrecorded > 0)
    }

    @Test("a run of one file writes only that file's schemata, compiles the other as it is, and reaches the full run's verdicts")
    func oneFile() throws {
        let full = try FixtureRun.result.get()
        var run = FixtureRun.run(output: "out-one-file")
        run.file = "Sources/Shapes/Shapes.swift"
        // Another count of kills to name: the full run's results, kept for these sources and
        // goldens, are not taken, so every mutant of the file is judged on this build.
        run.options.killsToName = 2
        let one = try run.run()
        #expect(one.build.files == ["Sources/Shapes/Shapes.swift"])
        #expect(Set(full.build.files) == ["Sources/Shapes/Checked.swift", "Sources/Shapes/Removed.swift", "Sources/Shapes/Shapes.swift",
                                          "Sources/Shapes/Twice.swift"])
        #expect(one.build.digest != full.build.digest)
        let copy = FixtureRun.scratchFolder(getpid()) + "/package/Sources/Shapes/"
        #expect(try String(contentsOfFile: copy + "Twice.swift", encoding: .utf8)
            == String(contentsOfFile: FixtureRun.fixture + "/Sources/Shapes/Twice.swift", encoding: .utf8))
        #expect(try String(contentsOfFile: copy + "Shapes.swift", encoding: .utf8).contains("mutation_active()"))
        let before = Dictionary(uniqueKeysWithValues: full.report.mutants.map { ($0.mutant.id, $0) })
        let judged = one.report.mutants.filter { $0.mutant.file == "Sources/Shapes/Shapes.swift" }
        #expect(judged.count == 33)
        for r in judged {
            let b = try #require(before[r.mutant.id])
            #expect(r.status == b.status, "line \(r.mutant.line) \(r.mutant.original) -> \(r.mutant.replacement)")
            #expect(r.classification?.kind == b.classification?.kind)
        }
        #expect(one.report.mutants.first { $0.mutant.file == "Sources/Shapes/Twice.swift" }?.status == .notRun)
        // The page's tables hold the file the run judged, not the three it left alone (Twice.swift's
        // mutant, Checked.swift's 27 and Removed.swift's 11).
        let html = one.report.html()
        #expect(html.contains("<td>Sources/Shapes/Shapes.swift</td>"))
        #expect(!html.contains("<td>Sources/Shapes/Twice.swift</td>"))
        #expect(html.contains("3 other files of the mutated modules were not in this run (39 mutants not run)."))
        #expect(full.report.html().contains("<td>Sources/Shapes/Twice.swift</td>"))
    }

    @Test("the page and the JSON are written, survivors first")
    func outputs() throws {
        let report = try FixtureRun.result.get().report
        #expect(report.mutants.first?.status == .survived)
        let html = report.html()
        #expect(html.contains("Survivors (4)"))
        // Source text reaches the page escaped: `w < 10` shows as `w &lt; 10`.
        #expect(html.contains("if w &lt; 9 { return 10 }"))
        #expect(!html.contains("if w < 9"))
        let json = try report.json()
        let decoded = try JSONDecoder().decode(SensitivityReport.self, from: json)
        #expect(decoded.total == report.total)
        // The score a scheduled job gates on is in the JSON: 42 of 46 (see "the score").
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let total = try #require(object["total"] as? [String: Any])
        let score = try #require(total["score"] as? Double)
        #expect(abs(score - 42.0 / 46.0) < 1e-12)
        #expect(total["scored"] as? Int == 46)
    }
}
