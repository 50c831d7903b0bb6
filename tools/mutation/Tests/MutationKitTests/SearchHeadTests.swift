import Testing
@testable import MutationKit

/// The search records the head of its space first and searches every survivor there; a
/// survivor is settled by the head only when the whole space could not have changed its
/// classification (docs/sensitivity.md, "The survivor search"). Budgets here: 200 shipped
/// inputs, 75 of other artwork.
@Suite("What the search space's head settles")
struct SearchHeadTests {
    func answer(shipped: [String: Any], artwork: [String: Any]? = nil) -> [String: Any] {
        var a: [String: Any] = ["found": true, "shipped": shipped]
        if let artwork { a["artwork"] = artwork }
        return a
    }

    @Test("a shipped input that tells the mutant apart settles it, wherever it lies")
    func foundInTheHead() {
        let a = answer(shipped: ["found": "skin x", "tried": 3, "reaching": 40, "infecting": 40, "whole": false])
        #expect(Analysis.settles(a, budget: 200, artworkBudget: 75))
    }

    @Test("both budgets filled within the head: the whole space would have drawn the same inputs")
    func budgetsFilled() {
        let a = answer(shipped: ["tried": 200, "reaching": 900, "infecting": 900, "whole": false],
                       artwork: ["tried": 75, "reaching": 300, "infecting": 300, "whole": false])
        #expect(Analysis.settles(a, budget: 200, artworkBudget: 75))
    }

    @Test("fewer inputs than the budget in the head: the rest of the space may hold more, or the one that differs")
    func budgetNotFilled() {
        let a = answer(shipped: ["tried": 40, "reaching": 40, "infecting": 40, "whole": false],
                       artwork: ["tried": 75, "reaching": 80, "infecting": 80, "whole": false])
        #expect(!Analysis.settles(a, budget: 200, artworkBudget: 75))
        // The shipped budget filled, other artwork's not: still open (it may be told apart there).
        let b = answer(shipped: ["tried": 200, "reaching": 900, "infecting": 900, "whole": false],
                       artwork: ["tried": 10, "reaching": 10, "infecting": 10, "whole": false])
        #expect(!Analysis.settles(b, budget: 200, artworkBudget: 75))
    }

    @Test("no input of the head runs the code: only the whole space can say it is unreached")
    func unreachedSoFar() {
        let a = answer(shipped: ["tried": 0, "reaching": 0, "infecting": 0, "whole": false],
                       artwork: ["tried": 0, "reaching": 0, "infecting": 0, "whole": false])
        #expect(!Analysis.settles(a, budget: 200, artworkBudget: 75))
    }

    @Test("a table of the whole space settles everything it answers")
    func wholeSpace() {
        let a = answer(shipped: ["tried": 0, "reaching": 0, "infecting": 0, "whole": true],
                       artwork: ["tried": 12, "reaching": 12, "infecting": 12, "whole": true])
        #expect(Analysis.settles(a, budget: 200, artworkBudget: 75))
    }
}
