import PopoverGeometry
import PopoverHarness
import PopoverReport
import Testing
import TestSupport

/// The overview's matrix for one whole skin, built from the catalog: where each case goes
/// follows from its direction, scale, anchor, orientation, sweep size, offset and time.
@Suite("The overview matrix of one skin")
struct OverviewMatrixTests {
    let cases: [GoldenCase]
    let matrix: OverviewMatrix

    init() throws {
        cases = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "path-slate")
        let results = cases.map { CaseResult.sample($0.info, status: .passed, message: "identical") }
        let matrices = OverviewMatrix.build(results)
        try #require(matrices.count == 1)
        matrix = matrices[0]
    }

    @Test("rows are directions at each scale")
    func rowsAreDirectionsAtEachScale() {
        // path-slate also has scale 3 (portrait scenes), and every direction has some.
        let expected = ArrowDirection.allCases.flatMap { d in [1, 2, 3].map { OverviewMatrix.Row(direction: d, scale: $0) } }
        #expect(matrix.skin == "path-slate")
        #expect(matrix.rows == expected)
    }

    @Test("every case has one cell")
    func everyCaseHasOneCell() {
        #expect(matrix.caseCount == cases.count)
        let indices = matrix.cells.values.flatMap { $0.values }
        #expect(Set(indices) == Set(cases.indices))
    }

    @Test("column groups follow the families")
    func columnGroupsFollowTheFamilies() {
        #expect(matrix.groups.map(\.title) == ["scenes", "sweep 120x104", "sweep 200x104", "keyboard popover2", "boundaries"])
        // Scenes: the 16 anchors, numbered in order, each in portrait and landscape.
        let scenes = matrix.groups[0].columns
        #expect(scenes.count == 32)
        #expect(scenes.map(\.heading) == (1...16).flatMap { ["popover\($0)", "popover\($0)"] })
        #expect(scenes.map(\.subheading) == Array(repeating: ["portrait", "landscape"], count: 16).flatMap { $0 })
        // Sweeps: offsets in order along the edge.
        for group in matrix.groups[1...2] {
            let offsets = group.columns.compactMap { Double($0.heading) }
            #expect(offsets.count == group.columns.count && offsets == offsets.sorted() && Set(offsets).count == offsets.count)
        }
        // Keyboard: five keyframes, each in both orientations.
        #expect(matrix.groups[3].columns.map(\.heading) == ["0ms", "0ms", "62.5ms", "62.5ms", "125ms", "125ms",
                                                            "187.5ms", "187.5ms", "250ms", "250ms"])
        // Boundaries: one column each, in the catalog's order; the path skin has the minimum
        // bounds (every direction), the half-point and three-quarter-point sizes and the
        // minimum bounds half a point deeper (every direction, at 1x only), the four placement fits (up from popover2, down from
        // popover11), the four centre anchors with no content and popover8 shrunk to the
        // smallest, at 1x only.
        #expect(matrix.groups[4].columns.map(\.heading) == ["minimum", "half-point", "three-quarter-point", "minimum-half-point",
                                                            "fit-popover2-portrait",
                                                            "fit-popover2-landscape", "fit-popover11-portrait", "fit-popover11-landscape",
                                                            "smallest-popover8-portrait", "smallest-popover5-portrait",
                                                            "smallest-popover7-portrait", "smallest-popover6-portrait",
                                                            "shrunk-to-smallest-popover8-portrait"])
        let minimum = matrix.cells.filter { $0.value.keys.contains { $0.group == 4 && $0.column == 0 } }
        #expect(Set(minimum.keys.map { $0.direction }) == Set(ArrowDirection.allCases))
        let halves = matrix.cells.filter { $0.value.keys.contains { $0.group == 4 && $0.column == 1 } }
        #expect(Set(halves.keys) == Set(ArrowDirection.allCases.map { OverviewMatrix.Row(direction: $0, scale: 1) }))
        let fit = matrix.cells.filter { $0.value.keys.contains { $0.group == 4 && $0.column == 4 } }
        #expect(Set(fit.keys) == [OverviewMatrix.Row(direction: .up, scale: 1)])
    }

    @Test("a seven-image skin's boundaries: one column per boundary, each layout boundary in every direction")
    func sevenImageBoundaries() throws {
        let cases = CaseCatalog.standard(skinsFolder: PackageFolders.skins).cases(matching: "gik-files")
        let matrix = try #require(OverviewMatrix.build(cases.map { CaseResult.sample($0.info, status: .passed, message: "identical") }).first)
        let group = try #require(matrix.groups.firstIndex { $0.title == "boundaries" })
        let headings = matrix.groups[group].columns.map(\.heading)
        #expect(headings == ["minimum", "corner-start", "corner-end", "stage-tie", "stage-float", "stage1-fit", "stage2-fit",
                             "corner-fit", "stage2-half", "half-point", "fit-popover2-portrait", "fit-popover2-landscape",
                             "fit-popover11-portrait", "fit-popover11-landscape", "smallest-popover8-portrait",
                             "smallest-popover5-portrait", "smallest-popover7-portrait", "smallest-popover6-portrait",
                             "shrunk-to-smallest-popover8-portrait"])
        for column in 0..<8 {
            let rows = matrix.cells.filter { $0.value.keys.contains { $0.group == group && $0.column == column } }
            #expect(rows.count == 8, "\(headings[column]): four directions at two scales")
        }
    }

    @Test("left and right sweeps share the up and down columns")
    func leftAndRightSweepsShareTheUpAndDownColumns() throws {
        // "104x120" pointing left is the "120x104" popover turned: same group, same offsets.
        let left = try #require(cases.firstIndex { $0.direction == .left && $0.sweepSize == "104x120" && $0.scale == 1 })
        let row = OverviewMatrix.Row(direction: .left, scale: 1)
        let place = try #require(matrix.cells[row]?.first(where: { $0.value == left })?.key)
        #expect(matrix.groups[place.group].title == "sweep 120x104")
        #expect(Double(matrix.groups[place.group].columns[place.column].heading) == cases[left].offset)
    }
}
