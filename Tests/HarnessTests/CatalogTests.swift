import Foundation
import PopoverGeometry
import PopoverHarness
import PopoverSkins
import Testing

@Suite("The case catalog")
struct CatalogTests {
    let catalog = try! CaseCatalog.standard()

    @Test("IDs are unique, safe, and name skin, direction, label and scale")
    func ids() {
        #expect(Set(catalog.cases.map(\.id)).count == catalog.cases.count)
        for c in catalog.cases {
            #expect(GoldenCase.isSafeID(c.id), "\(c.id)")
            #expect(c.id == "\(c.skinID)/\(c.direction.rawValue)/\(c.label)@\(c.scale)x")
        }
        #expect(catalog.cases.contains { $0.id == "gik-default/up/popover8-portrait@2x" })
    }

    @Test("scenes: every anchor, every direction it allows (any: all four), both orientations, unless no room")
    func scenes() throws {
        let skin = try #require(catalog.skin("gik-default"))
        for orientation in Orientation.allCases {
            for anchor in Anchor.all {
                for direction in anchor.permitted.directions {
                    let id = "gik-default/\(direction.rawValue)/\(anchor.name)-\(orientation.rawValue)@1x"
                    let placeable = (try? Placement.make(anchor: anchor, orientation: orientation,
                                                         permitted: .only(direction), metrics: skin.metrics)) != nil
                    #expect(catalog.cases.contains { $0.id == id } == placeable, "\(id)")
                }
            }
        }
        // No room above the top edge for popover2, below the bottom for popover11.
        #expect(!catalog.cases.contains { $0.id == "gik-default/down/popover2-portrait@1x" })
        #expect(!catalog.cases.contains { $0.id == "gik-default/up/popover11-portrait@1x" })
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
            let expected = try? ShadowGeometry.shadowRect(bounds: c.request.bounds, direction: c.direction, arrowHeight: 19)
            #expect(c.request.shadowRect == expected, "\(c.id)")
        }
        let heights = frames.filter { $0.orientation == .portrait }.sorted { $0.keyboardTime! < $1.keyboardTime! }
            .map(\.request.bounds.height)
        #expect(heights == heights.sorted(by: >) && heights.first! > heights.last!)
    }

    @Test("scale 3 covers the subset; every other case is at scale 1 or 2")
    func scales() {
        let three = catalog.cases.filter { $0.scale == 3 }
        #expect(!three.isEmpty)
        #expect(Set(three.map(\.skinID)) == CaseCatalog.scaleThreeSkins)
        #expect(catalog.cases.filter { $0.scale == 1 }.count == catalog.cases.filter { $0.scale == 2 }.count)
    }

    @Test("filters: a glob over the whole ID or a leading part of it ending at a slash",
          arguments: [("gik-default", 360), ("gik-*/left", 0), ("*popover8-portrait@2x", 6), ("gik-default/up/popover8-portrait@2x", 1)])
    func filters(pattern: String, minimum: Int) {
        let matched = catalog.cases(matching: pattern)
        let filter = CaseFilter(pattern)
        #expect(matched.allSatisfy { filter.matches($0.id) })
        if minimum > 0 { #expect(matched.count == minimum, "\(pattern): \(matched.count)") }
        #expect(!matched.isEmpty)
    }
}
