import Foundation
import PopoverGeometry
import PopoverHarness
import PopoverSkins
import Testing
import TestSupport

@Suite("The case catalog")
struct CatalogTests {
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)

    @Test("IDs are unique, safe, and name skin, direction, label and scale")
    func ids() {
        #expect(Set(catalog.cases.map(\.id)).count == catalog.cases.count)
        for c in catalog.cases {
            #expect(CaseID.isValid(c.id), "\(c.id)")
            #expect(c.id == "\(c.skinID)/\(c.direction.rawValue)/\(c.label)@\(c.scale)x")
        }
        #expect(catalog.cases.contains { $0.id == "gik-default/up/popover8-portrait@2x" })
    }

    /// The scenes of each orientation, worked out from the sample app's table
    /// (docs/specification.md §12.2): every anchor with the one direction it allows, and
    /// the two "any" anchors with all four, less the two with no room at all (popover2
    /// pointing down from the top edge, popover11 pointing up from the bottom edge).
    static let scenes = [
        "up/popover2", "left/popover2", "right/popover2",
        "down/popover11", "left/popover11", "right/popover11",
        "left/popover1", "left/popover13", "right/popover14", "right/popover3", "down/popover4", "down/popover5",
        "right/popover6", "left/popover7", "up/popover8", "down/popover9", "left/popover10", "left/popover15",
        "right/popover12", "right/popover16",
    ]

    @Test("scenes: every anchor, every direction it allows (any: all four), both orientations, unless no room")
    func scenes() throws {
        for orientation in ["portrait", "landscape"] {
            let expected = Set(Self.scenes.map { "gik-default/\($0)-\(orientation)@1x" })
            let actual = Set(catalog.cases.filter { $0.skinID == "gik-default" && $0.scale == 1 && $0.family == .scene
                && $0.orientation?.rawValue == orientation }.map(\.id))
            #expect(actual == expected, "\(orientation): extra \(actual.subtracting(expected)), lacking \(expected.subtracting(actual))")
        }
        #expect(!catalog.cases.contains { $0.id == "gik-default/down/popover2-portrait@1x" })
        #expect(!catalog.cases.contains { $0.id == "gik-default/up/popover11-portrait@1x" })
    }

    @Test("counts: per skin and scale 40 scenes, 120 sweep offsets, 10 keyframes, 49, 21 or 25 boundaries at 1x, 32 or 4 at 2x; 20 portrait scenes at 3x for four skins; 2498 in all")
    func counts() {
        // Sweeps: 4 directions x 2 sizes x 15 offsets (two extremes, the middle, 0.25, 0.5,
        // and each of the two thresholds with 0.5 and 1 either side).
        // Boundaries: every skin 4 minimum bounds (one per direction) and, at 1x only, 4
        // placement fits (popover2 and popover11, the two "any" anchors, in two
        // orientations), 4 half-point sizes, 4 placements with no content and 1 with the
        // keyboard leaving the smallest depth; the two-asset skin 4 arrows a millionth under
        // a half pixel at 1x; the path skin 4 three-quarter-point sizes and 4 minimum bounds half a
        // point deeper at 1x; the seven-image skins 4 second stages with half a point of
        // middle at 1x, and 7 more per direction (both corner thresholds
        // a step past, the stage length's tie and Float edge, both stages' exact fits, a
        // corner image's).
        let boundaries = ["gik-default": (49, 32), "gik-sample": (49, 32), "gik-files": (49, 32), "gik-tinted": (49, 32),
                          "two-asset-orange": (21, 4), "path-slate": (25, 4)]
        for (skin, boundaryCount) in boundaries {
            for scale in [1, 2] {
                let cases = catalog.cases.filter { $0.skinID == skin && $0.scale == scale }
                #expect(cases.filter { $0.family == .scene }.count == 40, "\(skin) @\(scale)x")
                #expect(cases.filter { $0.family == .sweep }.count == 120, "\(skin) @\(scale)x")
                #expect(cases.filter { $0.family == .keyboard }.count == 10, "\(skin) @\(scale)x")
                #expect(cases.filter { $0.family == .boundary }.count == (scale == 1 ? boundaryCount.0 : boundaryCount.1), "\(skin) @\(scale)x")
            }
        }
        // 6 skins x 170 x 2 scales, the boundaries at 2 scales less the 1x-only ones, 20 portrait
        // scenes at 3x for four skins: gik-default, path-slate, and the two the sensitivity
        // analysis found missing there (docs/sensitivity.md): gik-files (its artwork's 3x
        // resampling) and two-asset-orange (its shallow arrow, an edge across three cells a row).
        #expect(catalog.cases.count == 6 * 170 * 2 + 4 * (49 + 32) + (21 + 4) + (25 + 4) + 4 * 20)
        #expect(catalog.cases.count == 2498)
    }

    @Test("sweeps hit each image-choice threshold exactly, 0.5 and 1 point either side, the extremes and the middle")
    func sweepThresholds() {
        // A 120-point edge: the arrow's base touches the ends at +-(60 - 18.5) = 41.5; it
        // meets the corners (image change) at +-(41.5 - 7) = 34.5.
        let offsets = CaseCatalog.sweepOffsets(edge: 120, metrics: .sevenImage)
        for expected in [-41.5, -35.5, -35, -34.5, -34, -33.5, 0, 0.25, 0.5, 33.5, 34, 34.5, 35, 35.5, 41.5] {
            #expect(offsets.contains(expected), "\(expected)")
        }
        // The choice really flips there: at -34.5 the two-stage up image, past it up-right mirrored.
        let at = try? BackgroundLayout.make(bounds: Size(width: 120, height: 104), direction: .up, arrowOffset: -34.5)
        let past = try? BackgroundLayout.make(bounds: Size(width: 120, height: 104), direction: .up, arrowOffset: -35)
        #expect(at?.image == .up && at?.stages.count == 2)
        #expect(past?.image == .upRight && past?.mirrored == true)
    }

    @Test("the fractional sweep offsets round the two-stage length both ways")
    func roundingBothWays() throws {
        // Edge 120: centre 60 + offset; stage length round(centre + 28): 0.25 -> 88.25 -> 88, 0.5 -> 88.5 -> 89.
        let down = try BackgroundLayout.make(bounds: Size(width: 120, height: 104), direction: .up, arrowOffset: 0.25)
        let up = try BackgroundLayout.make(bounds: Size(width: 120, height: 104), direction: .up, arrowOffset: 0.5)
        #expect(down.stages[0].size.width == 88)
        #expect(up.stages[0].size.width == 89)
    }

    @Test("keyboard: five keyframes per orientation, the shadow following the frame")
    func keyboard() {
        let frames = catalog.cases.filter { $0.skinID == "gik-default" && $0.family == .keyboard && $0.scale == 1 }
        #expect(frames.count == 10)
        for c in frames {
            // The shadow casts from the bounds less the arrow's 19-point strip
            // (docs/specification.md §7.2), whatever size the keyframe has reached.
            let b = c.request.bounds
            let expected: Rect
            switch c.direction {
            case .up: expected = Rect(x: 0, y: 19, width: b.width, height: b.height - 19)
            case .down: expected = Rect(x: 0, y: 0, width: b.width, height: b.height - 19)
            case .left: expected = Rect(x: 19, y: 0, width: b.width - 19, height: b.height)
            case .right: expected = Rect(x: 0, y: 0, width: b.width - 19, height: b.height)
            }
            #expect(c.request.shadowRect == expected, "\(c.id)")
        }
        let heights = frames.filter { $0.orientation == .portrait }.sorted { $0.keyboardTime! < $1.keyboardTime! }
            .map(\.request.bounds.height)
        #expect(heights == heights.sorted(by: >) && heights.first! > heights.last!)
    }

    @Test("scale 3 covers the portrait scenes of gik-default, path-slate, gik-files and two-asset-orange; every other case is at scale 1 or 2")
    func scales() {
        let three = catalog.cases.filter { $0.scale == 3 }
        #expect(Set(three.map(\.skinID)) == ["gik-default", "path-slate", "gik-files", "two-asset-orange"])
        #expect(three.allSatisfy { $0.family == .scene && $0.orientation == .portrait })
        // Every case at 1x is also at 2x but the placement boundaries, which no scale
        // changes (4 fits, 4 with no content, 1 by the keyboard a skin), and the half-point
        // arrow-under-half, stage2-half, three-quarter-point and minimum-half-point ones, whole
        // pixels at 2x.
        let placements = catalog.cases.filter { c in
            c.family == .boundary && ["fit-", "smallest-", "shrunk-to-smallest-"].contains { c.boundary!.hasPrefix($0) }
        }
        #expect(placements.count == 6 * 9 && placements.allSatisfy { $0.scale == 1 })
        let halves = catalog.cases.filter { ["half-point", "arrow-under-half", "stage2-half", "three-quarter-point", "minimum-half-point"]
            .contains($0.boundary) }
        #expect(halves.count == 6 * 4 + 4 + 4 * 4 + 4 + 4 && halves.allSatisfy { $0.scale == 1 })
        #expect(catalog.cases.filter { $0.scale == 1 }.count
                == catalog.cases.filter { $0.scale == 2 }.count + placements.count + halves.count)
    }

    @Test("filters: plain text selects the IDs that contain it; wildcards match the whole ID or a leading part ending at a slash",
          arguments: [
              ("popover8-portrait@2x", ["flat/up/popover8-portrait@2x"]),
              ("flat/up/popover8", ["flat/up/popover8-landscape@1x", "flat/up/popover8-landscape@2x",
                                    "flat/up/popover8-portrait@1x", "flat/up/popover8-portrait@2x"]),
              ("flat/*/popover1?-portrait@1x", ["flat/down/popover11-portrait@1x", "flat/left/popover10-portrait@1x",
                                                "flat/left/popover11-portrait@1x", "flat/left/popover13-portrait@1x",
                                                "flat/left/popover15-portrait@1x", "flat/right/popover11-portrait@1x",
                                                "flat/right/popover12-portrait@1x", "flat/right/popover14-portrait@1x",
                                                "flat/right/popover16-portrait@1x"]),
          ])
    func filters(pattern: String, expected: [String]) throws {
        let flat = CaseCatalog(skins: [FlatSkin()])
        #expect(flat.cases(matching: pattern).map(\.id).sorted() == expected.sorted())
    }

    @Test("a wildcard pattern selects everything under a leading part it matches")
    func leadingPart() throws {
        let flat = CaseCatalog(skins: [FlatSkin()])
        let under = flat.cases.map(\.id).filter { $0.hasPrefix("flat/up/") }
        #expect(!under.isEmpty)
        #expect(flat.cases(matching: "f?at/up").map(\.id) == under)
        #expect(flat.cases(matching: "f?at/u").isEmpty)   // "flat/u" is not a leading part ending at a slash
    }
}
