import Foundation
import MutationDriverKit
import Shapes

// The fixture's driver: each case computes one number and compares it with its golden
// (Goldens/<case>.txt); the search draws the same functions over small inputs.

let arguments = CommandLine.arguments
let root = arguments.firstIndex(of: "--root").map { arguments[$0 + 1] } ?? FileManager.default.currentDirectoryPath

/// A mask as one number: its length, then each value as a digit ([0, 0, 2] is 3002).
func digits(_ mask: Mask) -> Int { mask.values.reduce(mask.values.count) { $0 * 10 + $1 } }

final class FixtureSubject: MutationSubject {
    nonisolated(unsafe) static let allCases: [(String, () -> Int)] = [
        ("area-2x3", { area(2, 3) }), ("area-4x5", { area(4, 5) }),
        ("width-5", { clampedWidth(5) }), ("width-20", { clampedWidth(20) }),
        ("spin-3", { spin(3) }), ("pick-1", { pick([7, 8, 9], 1) }), ("brightest", { brightest() }),
    ]
    /// Set up through the package's own code, as the popover catalog is (read-only: safe).
    /// And, not through `listed`, the cases of the checked functions.
    let cases = Array(FixtureSubject.allCases.prefix(listed(FixtureSubject.allCases.count)))
        + [("floored", { digits(floored([-1, 0, 2], from: 0)) }), ("copied", { digits(copied([7, 8, 9])) }),
           ("waited", { digits(waited([1, 2, 3])) }),
           ("settled-4", { (try? settled(4)) ?? -1 }), ("settled-0", { (try? settled(0)) ?? -1 })]
    let inputs: [(String, () -> Int)] = {
        var all: [(String, () -> Int)] = (0...30).map { w in ("clampedWidth(\(w))", { clampedWidth(w) }) }
        // spin(3) first: the spin-3 case's own drawing, which a survivor's search need not draw.
        all += [3, 0, 1, 2, 4].map { n in ("spin(\(n))", { spin(n) }) }
        all += (1...3).map { i in ("pick([7, 8, 9], \(i))", { pick([7, 8, 9], i) }) }
        all += [("area(3, 3)", { area(3, 3) }), ("brightest()", { brightest() }), ("steps(0, from: 0)", { steps(0, from: 0) })]
        all += [("floored([0, 5], from: 0)", { digits(floored([0, 5], from: 0)) }), ("copied([1, 2, 3])", { digits(copied([1, 2, 3])) })]
        all += [("settled(2)", { (try? settled(2)) ?? -1 })]
        return all
    }()
    /// Other artwork's inputs, drawn when the shipped ones find no difference.
    let artwork: [(String, () -> Int)] = [("steps(2, from: 0)", { steps(2, from: 0) }), ("settled(-1)", { (try? settled(-1)) ?? -1 })]

    var caseIDs: [String] { cases.map(\.0) }

    func judge(_ id: String) -> (Verdict, String) {
        guard let c = cases.first(where: { $0.0 == id }) else { return (.error, "no such case") }
        guard let text = try? String(contentsOfFile: root + "/Goldens/\(id).txt", encoding: .utf8),
              let golden = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return (.error, "no golden") }
        let value = c.1()
        return value == golden ? (.same, "") : (.different, "\(value), golden \(golden)")
    }

    func passesUnderTolerances(_ id: String, file: String?) -> Bool { judge(id).0 == .same }

    var searchInputs: [SearchInput] { inputs.enumerated().map { SearchInput(description: $1.0, index: $0) } }
    var artworkInputs: [SearchInput] { artwork.enumerated().map { SearchInput(description: $1.0, index: inputs.count + $0) } }
    func draw(_ input: SearchInput) -> String { "\((inputs + artwork)[input.index].1())" }
    /// An input's text is what it asks to draw; a case asks for its own call.
    func drawingKey(_ input: SearchInput) -> String? { input.description }
    static let caseCalls = ["area-2x3": "area(2, 3)", "area-4x5": "area(4, 5)", "width-5": "clampedWidth(5)",
                            "width-20": "clampedWidth(20)", "spin-3": "spin(3)", "pick-1": "pick([7, 8, 9], 1)",
                            "brightest": "brightest()", "floored": "floored([-1, 0, 2], from: 0)",
                            "copied": "copied([7, 8, 9])", "settled-4": "settled(4)", "settled-0": "settled(0)"]
    func isCaseDrawing(_ key: String, outcome: String) -> Bool {
        caseIDs.contains { id in
            Self.caseCalls[id] == key
                && (try? String(contentsOfFile: root + "/Goldens/\(id).txt", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) == outcome
        }
    }
    func finishCoverage() {}
    func changedCases(from original: FixtureSubject) -> [String] {
        original.caseIDs.filter { !caseIDs.contains($0) }
    }
    func isSetUpAlike(_ original: FixtureSubject) -> Bool { caseIDs == original.caseIDs }
}

DriverLoop.run { FixtureSubject() }
