import PopoverGeometry
import PopoverHarness
import PopoverSkins
import Testing
import TestSupport

/// The boundary family sits exactly where the model's decisions turn. Every expectation is
/// worked by hand from docs/specification.md: the metrics of §2.1 (arrow base 37, so half
/// a base 18.5; corner radius 7; side-arrow centre offset 7), the images' sizes and caps
/// of §3.1, the stage length `roundf(c + 28)` of §5.5 (28 = (57 - 1) / 2 for up and down,
/// 72 / 2 - 1 - 7 at the side), and the sample app's screen and anchors of §12.
@Suite("The boundary cases sit exactly on the model's decision boundaries")
struct BoundaryCaseTests {
    let catalog = CaseCatalog.standard(skinsFolder: PackageFolders.skins)

    /// One boundary case of a seven-image skin, as the hand works it out: the centre
    /// `c = E / 2 + offset` along the edge `E`, the image the layout must choose, and the
    /// first stage's length where it stretches twice.
    struct Row: Sendable, CustomStringConvertible {
        var direction: ArrowDirection
        var label: String
        var bounds: Size
        var offset: Double
        var centre: Double
        var image: ArrowImage
        var mirrored: Bool
        var stageLength: Double?
        var why: String
        var description: String { "\(direction.rawValue)/\(label)" }
    }

    static func row(_ direction: ArrowDirection, _ label: String, _ w: Double, _ h: Double, offset: Double, centre: Double,
                    _ image: ArrowImage, mirrored: Bool = false, stage: Double? = nil, _ why: String) -> Row {
        Row(direction: direction, label: label, bounds: Size(width: w, height: h), offset: offset, centre: centre, image: image,
            mirrored: mirrored, stageLength: stage, why: why)
    }

    /// gik-default's layout boundaries. Up and down sit on a 51-point minimum edge (37 +
    /// 2 x 7) and the sweeps' 120 x 104; left and right on the same turned.
    static let sevenImage: [Row] = [
        row(.up, "boundary-minimum-51x33-offset0", 51, 33, offset: 0, centre: 25.5, .up, stage: 54,
            "c - 18.5 = 7 is not < 7 and c + 18.5 = 44 is not > 51 - 7: both thresholds at once, still two-stage; 53.5 rounds to 54"),
        row(.up, "boundary-corner-start-51x33-offset-0.5", 51, 33, offset: -0.5, centre: 25, .upRight, mirrored: true,
            "c - 18.5 = 6.5 < 7: near the start, up-right mirrored"),
        row(.up, "boundary-corner-end-51x33-offset+0.5", 51, 33, offset: 0.5, centre: 26, .upRight,
            "c + 18.5 = 44.5 > 44: near the end, up-right"),
        row(.up, "boundary-stage-tie-121x104-offset0", 121, 104, offset: 0, centre: 60.5, .up, stage: 89,
            "c + 28 = 88.5 exactly: half away from zero, 89"),
        row(.up, "boundary-stage-float-120x104-offset+0.4999999", 120, 104, offset: 0.4999999, centre: 60.4999999, .up, stage: 89,
            "c + 28 = 88.4999999, the Float 88.5: 89 (the Double would round to 88)"),
        row(.up, "boundary-stage1-fit-120x104-offset-32", 120, 104, offset: -32, centre: 28, .up, stage: 56,
            "c + 28 = 56 = 9 + 47, the up image's left and right caps"),
        row(.up, "boundary-stage2-fit-120x104-offset+33", 120, 104, offset: 33, centre: 93, .up, stage: 121,
            "L = 121: the second stage's caps (121 - 10) + 9 = 120, the edge"),
        row(.up, "boundary-corner-fit-51x50-offset+0.5", 51, 50, offset: 0.5, centre: 26, .upRight,
            "up-right's caps: 9 + 42 = 51 wide, 41 + 9 = 50 tall; c + 18.5 = 44.5 > 44"),
        row(.down, "boundary-minimum-51x33-offset0", 51, 33, offset: 0, centre: 25.5, .down, stage: 54, "as up"),
        row(.down, "boundary-corner-start-51x33-offset-0.5", 51, 33, offset: -0.5, centre: 25, .downRight, mirrored: true, "as up"),
        row(.down, "boundary-corner-end-51x33-offset+0.5", 51, 33, offset: 0.5, centre: 26, .downRight, "as up"),
        row(.down, "boundary-stage-tie-121x104-offset0", 121, 104, offset: 0, centre: 60.5, .down, stage: 89, "as up"),
        row(.down, "boundary-stage-float-120x104-offset+0.4999999", 120, 104, offset: 0.4999999, centre: 60.4999999, .down,
            stage: 89, "as up"),
        row(.down, "boundary-stage1-fit-120x104-offset-32", 120, 104, offset: -32, centre: 28, .down, stage: 56,
            "the down image's caps are 9 + 47 too"),
        row(.down, "boundary-stage2-fit-120x104-offset+33", 120, 104, offset: 33, centre: 93, .down, stage: 121, "as up"),
        row(.down, "boundary-corner-fit-51x50-offset-0.5", 51, 50, offset: -0.5, centre: 25, .downRight, mirrored: true,
            "down-right's caps: 9 + 42 = 51 wide, 23 + 27 = 50 tall; c - 18.5 = 6.5 < 7"),
        row(.left, "boundary-minimum-33x51-offset0", 33, 51, offset: 0, centre: 25.5, .side, mirrored: true, stage: 54,
            "as up, on the height; a left arrow is the side image mirrored"),
        row(.left, "boundary-corner-start-33x51-offset-0.5", 33, 51, offset: -0.5, centre: 25, .sideTop, mirrored: true,
            "near the top: side-top"),
        row(.left, "boundary-corner-end-33x51-offset+0.5", 33, 51, offset: 0.5, centre: 26, .sideBottom, mirrored: true,
            "near the bottom: side-bottom"),
        row(.left, "boundary-stage-tie-104x121-offset0", 104, 121, offset: 0, centre: 60.5, .side, mirrored: true, stage: 89,
            "c + 72 / 2 - 1 - 7 = 88.5"),
        row(.left, "boundary-stage-float-104x120-offset+0.4999999", 104, 120, offset: 0.4999999, centre: 60.4999999, .side,
            mirrored: true, stage: 89, "c + 28 = 88.4999999"),
        row(.left, "boundary-stage1-fit-104x120-offset-17", 104, 120, offset: -17, centre: 43, .side, mirrored: true, stage: 71,
            "c + 28 = 71 = 24 + 47, the side image's top and bottom caps"),
        row(.left, "boundary-stage2-fit-104x120-offset+33", 104, 120, offset: 33, centre: 93, .side, mirrored: true, stage: 121,
            "L = 121: the second stage's caps (121 - 10) + 9 = 120"),
        row(.left, "boundary-corner-fit-36x66-offset+8", 36, 66, offset: 8, centre: 41, .sideBottom, mirrored: true,
            "side-bottom's caps: 9 + 27 = 36 wide, 23 + 43 = 66 tall; c + 18.5 = 59.5 > 66 - 7"),
        row(.right, "boundary-minimum-33x51-offset0", 33, 51, offset: 0, centre: 25.5, .side, stage: 54, "as left, unmirrored"),
        row(.right, "boundary-corner-start-33x51-offset-0.5", 33, 51, offset: -0.5, centre: 25, .sideTop, "as left"),
        row(.right, "boundary-corner-end-33x51-offset+0.5", 33, 51, offset: 0.5, centre: 26, .sideBottom, "as left"),
        row(.right, "boundary-stage-tie-104x121-offset0", 104, 121, offset: 0, centre: 60.5, .side, stage: 89, "as left"),
        row(.right, "boundary-stage-float-104x120-offset+0.4999999", 104, 120, offset: 0.4999999, centre: 60.4999999, .side,
            stage: 89, "as left"),
        row(.right, "boundary-stage1-fit-104x120-offset-17", 104, 120, offset: -17, centre: 43, .side, stage: 71, "as left"),
        row(.right, "boundary-stage2-fit-104x120-offset+33", 104, 120, offset: 33, centre: 93, .side, stage: 121, "as left"),
        row(.right, "boundary-corner-fit-36x66-offset-8", 36, 66, offset: -8, centre: 25, .sideTop,
            "side-top's caps: 9 + 27 = 36 wide, 43 + 23 = 66 tall; c - 18.5 = 6.5 < 7"),
    ]

    /// The placement fits, for a skin with content insets `i` and arrow height `h`: from
    /// popover2 (portrait (362, 0), landscape (490, 0)) the up arrow's tip is the anchor's
    /// bottom, y = 44; the room to the bottom margin is 1004 - 10 - 44 = 950 in portrait and
    /// 748 - 10 - 44 = 694 in landscape. popover11 (y 961 in portrait, 705 in landscape) has
    /// no room pointing up (its tip, 1005 or 749, is below the margin), so pointing down
    /// the room is 961 - 10 = 951 and 705 - 10 = 695. The width is the 320-point content
    /// plus the insets; both anchors are centred on the screen, so the offset is 0.
    static func fits(width: Double) -> [(ArrowDirection, String, Size)] {
        [(.up, "boundary-fit-popover2-portrait", Size(width: width, height: 950)),
         (.up, "boundary-fit-popover2-landscape", Size(width: width, height: 694)),
         (.down, "boundary-fit-popover11-portrait", Size(width: width, height: 951)),
         (.down, "boundary-fit-popover11-landscape", Size(width: width, height: 695))]
    }

    /// No content from the four centre anchors (popover8 up, popover5 down, popover7 left,
    /// popover6 right): the smallest background along the arrow's edge, and across it the
    /// larger of the insets plus the arrow and the smallest depth. Each is centred on its
    /// anchor, far from every margin: offset 0.
    static func smallest(along: Double, across: Double) -> [(ArrowDirection, String, Double, Double)] {
        [(.up, "boundary-smallest-popover8-portrait", along, across),
         (.down, "boundary-smallest-popover5-portrait", along, across),
         (.left, "boundary-smallest-popover7-portrait", across, along),
         (.right, "boundary-smallest-popover6-portrait", across, along)]
    }

    /// popover8 (portrait (362, 523)) points up from its bottom, y = 567; the keyboard
    /// leaves 1004 - keyboard - 10 - 567 = the smallest depth below it. No content across:
    /// the smallest edge; centred on x = 384: offset 0.
    static func shrunk(along: Double, depth: Double) -> (ArrowDirection, String, Double, Double) {
        (.up, "boundary-shrunk-to-smallest-popover8-portrait", along, depth)
    }

    func boundaryCases(_ skin: String, scale: Int) -> [GoldenCase] {
        catalog.cases.filter { $0.skinID == skin && $0.scale == scale && $0.family == .boundary }
    }

    @Test("gik-default's boundary cases are exactly the hand-worked ones, with their bounds and offsets, at 1x and 2x (the fits at 1x)")
    func sevenImageCases() throws {
        for scale in [1, 2] {
            var expected: [String: (Size, Double)] = [:]
            for r in Self.sevenImage { expected["gik-default/\(r.direction.rawValue)/\(r.label)@\(scale)x"] = (r.bounds, r.offset) }
            for (direction, label, bounds) in Self.fits(width: 320 + 8 + 8) where scale == 1 {
                expected["gik-default/\(direction.rawValue)/\(label)-\(Int(bounds.width))x\(Int(bounds.height))-offset0@\(scale)x"]
                    = (bounds, 0)
            }
            for (direction, label, w, h) in Self.smallest(along: 51, across: 35) + [Self.shrunk(along: 51, depth: 33)]
            where scale == 1 {
                expected["gik-default/\(direction.rawValue)/\(label)-\(Int(w))x\(Int(h))-offset0@1x"] = (Size(width: w, height: h), 0)
            }
            // Half a point over the sweeps' 120 x 104 (turned for left and right), at 1x; and on
            // the 120.5 edge, c = 60.25 + 32.75 = 93, c + 28 = 121.
            for direction in ArrowDirection.allCases where scale == 1 {
                let (w, h) = direction.isVertical ? (120.5, 104.5) : (104.5, 120.5)
                expected["gik-default/\(direction.rawValue)/boundary-half-point-\(w)x\(h)-offset0@1x"] = (Size(width: w, height: h), 0)
                let (size, sw, sh) = direction.isVertical ? ("120.5x104", 120.5, 104.0) : ("104x120.5", 104.0, 120.5)
                expected["gik-default/\(direction.rawValue)/boundary-stage2-half-\(size)-offset+32.75@1x"] = (Size(width: sw, height: sh), 32.75)
            }
            let cases = boundaryCases("gik-default", scale: scale)
            #expect(Set(cases.map(\.id)) == Set(expected.keys),
                    "extra \(Set(cases.map(\.id)).subtracting(expected.keys)), lacking \(Set(expected.keys).subtracting(cases.map(\.id)))")
            for c in cases {
                let (bounds, offset) = try #require(expected[c.id])
                #expect(c.request.bounds == bounds && c.request.arrowOffset == offset, "\(c.id)")
                #expect(c.request.scale == Double(scale) && c.request.shadowRect == nil, "\(c.id)")
                #expect(c.boundary.map { c.label.hasPrefix("boundary-\($0)-") } == true, "\(c.id)")
            }
        }
    }

    @Test("each layout boundary decides as worked by hand", arguments: BoundaryCaseTests.sevenImage)
    func decides(_ r: Row) throws {
        let edge = r.direction.isVertical ? r.bounds.width : r.bounds.height
        #expect(edge / 2 + r.offset == r.centre, "\(r.why)")
        let layout = try BackgroundLayout.make(bounds: r.bounds, direction: r.direction, arrowOffset: r.offset)
        #expect(layout.image == r.image && layout.mirrored == r.mirrored, "\(r.why): \(layout.image) mirrored \(layout.mirrored)")
        if let length = r.stageLength {
            #expect(layout.stages.count == 2, "\(r.why)")
            let first = try #require(layout.stages.first)
            #expect((r.direction.isVertical ? first.size.width : first.size.height) == length, "\(r.why)")
        } else {
            #expect(layout.stages.count == 1 && layout.stages[0].size == r.bounds, "\(r.why)")
        }
    }

    @Test("at 1x and 2x the shadow's reach is whole (58 and 59 points), so it meets the canvas's edges in every boundary case that casts one")
    func shadowReachMeetsTheCanvas() throws {
        // §7.4: box widths 39, 39, 41 at 1x reach (19 + 19 + 20) / 1 = 58 points; 79, 79, 81
        // at 2x reach (39 + 39 + 40) / 2 = 59. §7.5: the room left and right is the reach,
        // above it the reach less the 10-point offset, below it the reach plus it.
        for (scale, reach) in [(1, 58.0), (2, 59.0)] {
            #expect(SevenImageSkin.standardShadow.reach(scale: Double(scale)) == reach)
            for c in boundaryCases("gik-sample", scale: scale) {
                let skin = try #require(catalog.skin(c.skinID))
                let canvas = skin.canvasSize(for: c.request)
                #expect(canvas == Size(width: c.request.bounds.width + 2 * reach, height: c.request.bounds.height + 2 * reach),
                        "\(c.id)")
            }
        }
    }

    @Test("half-point: at 1x the canvas's pixels are its points rounded up, so 120.5 x 104.5 draws 237 x 221 pixels with the 58-point reach")
    func halfPointCanvas() throws {
        // gik-sample casts the standard shadow: 58 points of room either side at 1x (§7.5),
        // so the canvas is 120.5 + 116 = 236.5 by 104.5 + 116 = 220.5 points: 237 x 221 pixels.
        // path-slate casts none: 120.5 x 104.5 points, 121 x 105 pixels.
        for (skinID, width, height) in [("gik-sample", 237, 221), ("path-slate", 121, 105)] {
            let c = try #require(catalog.cases.first { $0.id == "\(skinID)/up/boundary-half-point-120.5x104.5-offset0@1x" })
            let skin = try #require(catalog.skin(skinID))
            let drawn = try skin.render(c.request).pixmap
            #expect(drawn.width == width && drawn.height == height, "\(c.id): \(drawn.width) x \(drawn.height)")
        }
        #expect(!catalog.cases.contains { $0.boundary == "half-point" && $0.scale != 1 })
    }

    @Test("stage-float: c + 28 lies below 88.5 as a Double, is 88.5 as a Float, and so rounds up only through the Float")
    func floatEdge() throws {
        let c = try #require(catalog.cases.first { $0.id == "gik-default/up/boundary-stage-float-120x104-offset+0.4999999@1x" })
        // As the layout computes it: the centre first, then the image's 28 points.
        let value = c.request.bounds.width / 2 + c.request.arrowOffset + 28
        #expect(value < 88.5 && value > 88.4999998)
        #expect(Float(value) == 88.5)
        #expect(value.rounded(.toNearestOrAwayFromZero) == 88)
        #expect(Float(value).rounded(.toNearestOrAwayFromZero) == 89)
        // The side image's 72 / 2 - 1 - 7 is the same 28.
        let side = try #require(catalog.cases.first { $0.id == "gik-default/left/boundary-stage-float-104x120-offset+0.4999999@1x" })
        #expect(side.request.bounds.height / 2 + side.request.arrowOffset + 28 == value)
    }

    @Test("gik-files' side-top keeps a 9-point bottom cap: its corner fit is 36 x 52, the arrow a half point past the threshold")
    func filesCornerFit() throws {
        // 43 + 9 = 52 tall; c = 26 - 1 = 25, c - 18.5 = 6.5 < 7.
        let c = try #require(boundaryCases("gik-files", scale: 1).first { $0.direction == .right && $0.boundary == "corner-fit" })
        #expect(c.id == "gik-files/right/boundary-corner-fit-36x52-offset-1@1x")
        let skin = try #require(catalog.skin("gik-files") as? SevenImageSkin)
        let layout = try BackgroundLayout.make(bounds: c.request.bounds, direction: .right, arrowOffset: c.request.arrowOffset,
                                               metrics: skin.layoutMetrics)
        #expect(layout.image == .sideTop && layout.stages == [StretchStage(size: Size(width: 36, height: 52),
                                                                          capInsets: EdgeInsets(top: 43, left: 9, bottom: 9, right: 27))])
    }

    @Test("the placement fits: the popover's depth is exactly the room, and one point more content turns the choice elsewhere")
    func placementFits() throws {
        for (direction, label, bounds) in Self.fits(width: 336) {
            let c = try #require(boundaryCases("gik-default", scale: 1).first { $0.label.hasPrefix(label + "-") })
            #expect(c.direction == direction && c.request.bounds == bounds && c.request.arrowOffset == 0, "\(c.id)")
        }
        // One point more of content: the first direction with room no longer fits whole, and
        // "any" moves on (§13.6, §13.7). popover2 in portrait: left's room is 758 - 406 = 352,
        // short of its 320 + 16 + 19 = 355, and so is right's (362 - 10); shrunk, left keeps
        // 352 x 932 (916 + 16), more than up's 950 x 336: left. In landscape left has
        // 1014 - 534 = 480 for 355 and the span 728 for 676: it fits whole. popover11 is the
        // same pointing down (951 and 695 rooms).
        let expected: [(String, Orientation, Double, ArrowDirection)] = [
            ("popover2", .portrait, 915, .left), ("popover2", .landscape, 659, .left),
            ("popover11", .portrait, 916, .left), ("popover11", .landscape, 660, .left),
        ]
        for (name, orientation, fittingHeight, elsewhere) in expected {
            let anchor = try Anchor.named(name)
            let fitting = try Placement.make(anchor: anchor, orientation: orientation,
                                             contentSize: Size(width: 320, height: fittingHeight))
            #expect(fitting.direction == (name == "popover2" ? .up : .down), "\(name) \(orientation)")
            let more = try Placement.make(anchor: anchor, orientation: orientation,
                                          contentSize: Size(width: 320, height: fittingHeight + 1))
            #expect(more.direction == elsewhere, "\(name) \(orientation): \(more)")
        }
    }

    @Test("shrunk-to-smallest: the keyboard leaves popover8 exactly the smallest depth; one point more, or one point less of edge, and no direction is left")
    func shrunkToTheSmallest() throws {
        // Keyboards worked from the smallest depths: 1004 - 10 - 567 - 33 = 394 (arrow 19 +
        // 2 x 7), - 100 = 327 (70 + 2 x 15), - 35 = 392 (15 + 2 x 10).
        for (skinID, keyboard, edge, depth) in [("gik-default", 394.0, 51.0, 33.0), ("two-asset-orange", 327.0, 61.0, 100.0),
                                                ("path-slate", 392.0, 50.0, 35.0)] {
            let c = try #require(boundaryCases(skinID, scale: 1).first { $0.boundary == "shrunk-to-smallest-popover8-portrait" })
            #expect(c.request.bounds == Size(width: edge, height: depth) && c.direction == .up, "\(c.id)")
            #expect(c.origin.flattened().contains { $0.path == "placement.keyboardHeight" && $0.value == .number(keyboard) }, "\(c.id)")
            let metrics = try #require(catalog.skin(skinID)).metrics
            let anchor = try Anchor.named("popover8")
            #expect(throws: GeometryError.self, "\(skinID): a keyboard one point higher leaves no room") {
                try Placement.make(anchor: anchor, orientation: .portrait, keyboardHeight: keyboard + 1, metrics: metrics)
            }
            // A view one point narrower than the smallest edge plus the margins: no room across.
            #expect(throws: GeometryError.self, "\(skinID): a span one point short of the smallest edge") {
                try Placement.make(anchorFrame: Rect(x: 0, y: 523, width: edge - 1 + 20, height: 44),
                                   viewSize: Size(width: edge - 1 + 20, height: 1004), keyboardHeight: keyboard,
                                   permitted: .only(.up), contentSize: Size(width: 0, height: 200), metrics: metrics)
            }
        }
    }

    @Test("stage2-half: on a 120.5 edge the first stage is 121 and the second stage's middle half a point, in every direction")
    func stage2Half() throws {
        // c = 93, L = roundf(93 + 28) = 121; the second stage's caps are 121 - 10 = 111 and
        // 9 (up and down: the up image's right cap; at the side its bottom), leaving
        // 120.5 - 111 - 9 = 0.5 in the middle. The first stage's caps are the image's own.
        let cases = boundaryCases("gik-default", scale: 1).filter { $0.boundary == "stage2-half" }
        #expect(cases.count == 4)
        for c in cases {
            let layout = try BackgroundLayout.make(bounds: c.request.bounds, direction: c.direction, arrowOffset: c.request.arrowOffset)
            try #require(layout.stages.count == 2, "\(c.id)")
            let (first, second) = (layout.stages[0], layout.stages[1])
            let vertical = c.direction.isVertical
            #expect((vertical ? first.size.width : first.size.height) == 121, "\(c.id)")
            #expect(second.size == c.request.bounds, "\(c.id)")
            let (lead, trail) = vertical ? (second.capInsets.left, second.capInsets.right) : (second.capInsets.top, second.capInsets.bottom)
            #expect(lead + trail == 120 && 120.5 - lead - trail == 0.5, "\(c.id): caps \(lead) and \(trail)")
        }
    }

    @Test("arrow-under-half: the two-asset arrow's edges lie a millionth short of a half pixel at 1x")
    func arrowUnderHalf() throws {
        // The arrow is 31 points wide, centred at 120 / 2 - 0.000001: its edges at 44.499999
        // and 75.499999. Rounded up they reach pixels 45 and 76; to nearest, 44 and 75.
        let c = try #require(boundaryCases("two-asset-orange", scale: 1).first { $0.boundary == "arrow-under-half" && $0.direction == .up })
        let centre = c.request.bounds.width / 2 + c.request.arrowOffset
        for (edge, up, nearest) in [(centre - 15.5, 45.0, 44.0), (centre + 15.5, 76.0, 75.0)] {
            #expect(edge.rounded(.up) == up && edge.rounded() == nearest, "\(edge)")
            #expect(abs(edge - (nearest + 0.499999)) < 1e-9, "\(edge)")
        }
        #expect(!catalog.cases.contains { $0.boundary == "arrow-under-half" && ($0.scale != 1 || $0.skinID != "two-asset-orange") })
    }

    @Test("the two-asset and path skins: their minimum bounds and (at 1x) placement fits, from their own metrics, and the half-point sizes")
    func otherSkins() {
        // Two-asset: 31 + 2 x 15 = 61 along, 70 + 2 x 15 = 100 across, insets 10 (§10.1).
        // Path: 30 + 2 x 10 = 50 along, 15 + 2 x 10 = 35 across, insets 10 (§11.1).
        for (skin, along, across) in [("two-asset-orange", 61.0, 100.0), ("path-slate", 50.0, 35.0)] {
            for scale in [1, 2] {
                var expected: [String] = []
                for direction in ArrowDirection.allCases {
                    let (w, h) = direction.isVertical ? (along, across) : (across, along)
                    expected.append("\(skin)/\(direction.rawValue)/boundary-minimum-\(Int(w))x\(Int(h))-offset0@\(scale)x")
                }
                for (direction, label, bounds) in Self.fits(width: 340) where scale == 1 {
                    expected.append("\(skin)/\(direction.rawValue)/\(label)-\(Int(bounds.width))x\(Int(bounds.height))-offset0@\(scale)x")
                }
                // No content: the insets (20) plus the arrow are 90 across for the two-asset
                // skin, under its 100; 35 for the path skin, exactly its 35.
                for (direction, label, w, h) in Self.smallest(along: along, across: across)
                    + [Self.shrunk(along: along, depth: across)] where scale == 1 {
                    expected.append("\(skin)/\(direction.rawValue)/\(label)-\(Int(w))x\(Int(h))-offset0@1x")
                }
                for direction in ArrowDirection.allCases where scale == 1 {
                    let size = direction.isVertical ? "120.5x104.5" : "104.5x120.5"
                    expected.append("\(skin)/\(direction.rawValue)/boundary-half-point-\(size)-offset0@1x")
                    // The two-asset skin's separate arrow image, a millionth under a half pixel.
                    if skin == "two-asset-orange" {
                        let size = direction.isVertical ? "120x104" : "104x120"
                        expected.append("\(skin)/\(direction.rawValue)/boundary-arrow-under-half-\(size)-offset-0.000001@1x")
                    } else {
                        // The path skin's fill ends at 120.75 - 0.5 = 120.25 (104.75 - 0.5 across).
                        let size = direction.isVertical ? "120.75x104.75" : "104.75x120.75"
                        expected.append("\(skin)/\(direction.rawValue)/boundary-three-quarter-point-\(size)-offset0@1x")
                        // The minimum bounds, half a point deeper: 50 x 35.5, 35.5 x 50 at the side.
                        let deeper = direction.isVertical ? "50x35.5" : "35.5x50"
                        expected.append("\(skin)/\(direction.rawValue)/boundary-minimum-half-point-\(deeper)-offset0@1x")
                    }
                }
                #expect(Set(boundaryCases(skin, scale: scale).map(\.id)) == Set(expected), "\(skin) @\(scale)x")
            }
        }
    }

    @Test("every boundary case of every skin draws (none is refused by the layout) and has its own ID across the family")
    func allDraw() throws {
        let boundaries = catalog.cases.filter { $0.family == .boundary && $0.scale == 1 }
        for c in boundaries {
            let skin = try #require(catalog.skin(c.skinID))
            _ = try skin.drawingFacts(for: c.request)
        }
        #expect(Set(boundaries.map(\.id)).count == boundaries.count)
        #expect(catalog.cases(matching: "*/boundary-*").count == catalog.cases.filter { $0.family == .boundary }.count)
    }
}
