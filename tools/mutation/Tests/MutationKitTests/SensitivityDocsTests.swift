import Foundation
import Testing
@testable import MutationKit

/// docs/sensitivity.md states what the code does: its operator and status tables and its
/// numbers are the code's.
@Suite("docs/sensitivity.md")
struct SensitivityDocsTests {
    static func page() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        return try String(contentsOfFile: root + "/docs/sensitivity.md", encoding: .utf8)
    }

    /// The first column of the table rows of the section under `heading`.
    static func firstColumn(under heading: String, in page: String) throws -> [String] {
        let start = try #require(page.range(of: heading))
        let rest = page[start.upperBound...]
        let section = rest.range(of: "\n#").map { rest[..<$0.lowerBound] } ?? rest
        return section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("|---") }.dropFirst()
            .map { $0.split(separator: "|", omittingEmptySubsequences: true)[0].trimmingCharacters(in: .whitespaces) }
    }

    @Test("the operator table lists every operator, in the code's order")
    func operators() throws {
        #expect(try Self.firstColumn(under: "### Operators", in: Self.page()) == MutationOperator.allCases.map(\.rawValue))
    }

    @Test("the status table lists every status")
    func statuses() throws {
        #expect(Set(try Self.firstColumn(under: "### Statuses", in: Self.page())) == Set(MutantStatus.allCases.map(\.rawValue)))
    }

    @Test("the driver's requests, as the page lists them, are those its loop answers")
    func driverRequests() throws {
        let page = try Self.page()
        let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let loop = try String(contentsOf: tool.appendingPathComponent("Driver/Kit/DriverLoop.swift"), encoding: .utf8)
        let start = try #require(page.range(of: "in JSON lines on stdin and stdout ("))
        let list = page[start.upperBound...].prefix { $0 != ")" }
        let named = Set(list.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
        let answered = Set(loop.matches(of: /case "(\w+)"/).map { String($0.output.1) })
        #expect(named == answered)
        #expect(named.contains("searchCoverage") && named.count >= 6)
    }

    @Test("the time limit, the search budgets and the memory limit stated are the defaults")
    func numbers() throws {
        let page = try Self.page()
        let o = AnalysisOptions()
        #expect(page.contains("\(o.timeFactor) x the original's time for that case + \(Int(o.timeConstant)) s"))
        #expect(page.contains("(`tools/mutation/run --search-budget`, \(o.searchBudget) by default)"))
        #expect(page.contains("`tools/mutation/run --artwork-budget`, \(o.artworkBudget)"))
        #expect(page.contains("(`tools/mutation/run --memory-mb`, \(o.memoryMB))"))
        #expect(page.contains("after the\nfirst three") || page.contains("after the first three"))
        // "the first eighth of each space first": the head the search records before the rest.
        #expect(page.contains("the first eighth of each space first"))
        #expect(Analysis.searchHead == 1.0 / 8)
        #expect(page.contains("takes longer than the time margin (\(Int(o.timeConstant)) s;"))
        #expect(page.contains("and so does a search\n  still going after \(Int(o.searchSeconds)) s"))
        #expect(o.killsToName == 3)
    }

    @Test("the checks as the page states them: the popover subject's checked type, the limits, the allocator")
    func checks() throws {
        let page = try Self.page()
        let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let subject = try Subject.load(root: tool + "/../..", driverFolder: tool + "/Driver/Popover", kitFolder: tool + "/Driver/Kit")
        #expect(subject.checked == ["CoverageMask", "ImageSpans", "[ImagePiece]?"])
        #expect(page.contains("`\"checked\": [\"CoverageMask\",\n   \"ImageSpans\", \"[ImagePiece]?\"]`"))
        // The functions a removed call of is watched for throwing, as the page names them.
        #expect(subject.throwOnly == ["requireMetric", "validate", "validateScale"])
        #expect(page.contains("driver: `requireMetric`, `validate`, `validateScale`,"))
        #expect(SchemataPackage.checkCPUSeconds == 2 && page.contains("(two seconds of CPU"))
        #expect(SchemataPackage.switchSource.contains("{{0, 0}, {2, 0}}"))
        #expect(SchemataPackage.checkWallSeconds == 5 && page.contains("five seconds by the clock"))
        #expect(SchemataPackage.switchSource.contains("{{0, 0}, {5, 0}}"))
        #expect(SchemataPackage.checkStrikes == 3 && page.contains("changed a call's result in three cases"))
        #expect(Analysis.checkingAllocator == ["LD_PRELOAD": "libc_malloc_debug.so.0", "MALLOC_CHECK_": "3"])
        #expect(page.contains("(`libc_malloc_debug.so.0`, `MALLOC_CHECK_=3`)"))
    }
}
