import Testing
@testable import MutationKit

/// The order each mutant's cases are judged in (`Analysis.priority`), worked by hand.
@Suite("The order cases are judged in")
struct CaseOrderTests {
    /// Four cases: A runs constructs 0 and 1, B runs 2, C runs all three, D none.
    static func table(seconds: [Double], costs: [Double?]) -> CoverageTable {
        let reached = ["03", "04", "07", "00"]
        let cases = zip(["A", "B", "C", "D"].indices, ["A", "B", "C", "D"]).map { i, id in
            CaseCoverage(id: id, seconds: seconds[i], cost: costs[i], verdict: "same", detail: "", reached: reached[i],
                         infected: "")
        }
        return CoverageTable(key: "k", cases: cases, setupReached: [], setupInfected: [], setupSeconds: 0)
    }

    static func order(_ table: CoverageTable) -> [String] {
        Analysis.priority(table).sorted { $0.value < $1.value }.map(\.key)
    }

    // With costs A 100, B 10, C 1000, D 5: B adds 1 construct per 10 (0.1, the most), then A
    // adds 2 per 100 against C's 2 per 1000; everything is covered, so counting starts over
    // and C adds 3 per 1000 against D's none; D, adding nothing, comes last.
    @Test("the driver's costs order the cases, whatever times the coverage run measured")
    func costsOrder() {
        let costs: [Double?] = [100, 10, 1000, 5]
        #expect(Self.order(Self.table(seconds: [0.001, 1, 0.002, 0.5], costs: costs)) == ["B", "A", "C", "D"])
        #expect(Self.order(Self.table(seconds: [1, 0.001, 0.5, 0.002], costs: costs)) == ["B", "A", "C", "D"])
    }

    // Without a cost for every case the measured times order them: A adds 2 per 0.001 s (the
    // most), then C adds 1 per 0.002 s against B's 1 per second; counting starts over, B
    // adds 1 per second, D nothing.
    @Test("without a cost for every case, the measured times order them")
    func timesOrder() {
        #expect(Self.order(Self.table(seconds: [0.001, 1, 0.002, 0.5], costs: [100, 10, nil, 5])) == ["A", "C", "B", "D"])
    }
}
