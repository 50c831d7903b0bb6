import PopoverGeometry
import PopoverSkins

/// The boundary family: popovers drawn exactly where one of the model's decisions turns
/// (docs/specification.md §16.8), worked out from each skin's own metrics, so a comparison
/// made strict or loose, a rounding rule or a cap rule that moves by the smallest step
/// changes a golden.
///
/// Every skin:
/// - `minimum`: the smallest valid bounds (§2.2), arrow centred. For the seven-image skin
///   the arrow then sits exactly on both image-choice thresholds at once
///   (`c - b/2 == r` and `c + b/2 == E - r`, §5.2).
/// - `fit-<anchor>-<orientation>`: each "any" anchor's popover, its content grown so that
///   the first direction with room fits it exactly: depth equal to the room (§13.6). At
///   1x only: placement does not depend on the scale, and the four screen-high fits at
///   2x would cost as many pixels as all of their skin's other boundaries together.
///
/// - `half-point`: the sweeps' narrow size, half a point wider and taller, arrow centred, at
///   1x only: the canvas's pixel size is its point size rounded up, and at 1x half a point
///   sits exactly between two pixel sizes (at 2x and 3x it is whole pixels). The sensitivity
///   analysis found every catalog size whole at 1x: a rounding rule made to nearest there
///   changed no case.
///
/// - `smallest-<anchor>-portrait`: from the four centre anchors (one per direction), no
///   content at all: the wanted size is the smallest background's wherever the insets
///   and the arrow fall short of it (§13.2). At 1x only, as the fits.
/// - `shrunk-to-smallest-popover8-portrait`: content narrower than the smallest
///   background and the keyboard raised until the room below popover8's up arrow is
///   exactly the smallest depth: nothing fits whole, and the one permitted direction is
///   shrunk to exactly the smallest background, which does not drop out (§13.7) on either
///   axis. At 1x only.
/// - `three-quarter-point`: the path skin, 120.75 x 104.75 at 1x: its outline is inset by
///   half a pixel, so its fill ends a quarter of a pixel into the last column and row,
///   where rounding the shape's box up and rounding it to nearest part.
/// - `minimum-half-point`: the path skin's minimum bounds, half a point deeper across the
///   arrow's edge, at 1x. A left arrow's tip then lies half a point from the bitmap's left
///   edge with its stroke's miter past it, on a bitmap whose last column is half covered:
///   the sensitivity analysis found a segment cut at the border and carried on past its end
///   (`t1 <= 2` in `SweepEdges`) drawing differently there, and on no case without it.
/// - `arrow-under-half`: the two-asset skin's arrow image, on the sweeps' narrow size, its
///   edges along `E` a millionth short of half a pixel at 1x, where rounding a device edge
///   up and rounding it to nearest part (an arrow 31 points wide: offset -0.000001).
///
/// Seven-image skins, in every direction, along the edge `E`, where `k` is the image's
/// own distance from arrow centre to stage end (`(iw - 1) / 2` up and down,
/// `ih / 2 - 1 - sideArrowCenterOffset` at the side, §5.5):
/// - `corner-start`, `corner-end`: the minimum bounds with the arrow one device pixel at
///   2x (half a point) past each threshold: the corner images.
/// - `stage-tie`: an edge on which the centred arrow's `c + k` is exactly a half.
/// - `stage-float`: `c + k` a ten-millionth short of a half, which rounds up through a
///   `Float` and down as a `Double` (§5.7).
/// - `stage1-fit`: the first stage exactly as long as its image's two caps (§5.9).
/// - `stage2-fit`: the second stage's two caps (`L - 1`) exactly as long as the edge.
/// - `stage2-half`: on an edge of 120.5 at 1x, the second stage's middle exactly half a
///   point (`L = E + 1/2`), the narrowest a stretch draws (on a whole edge it is whole).
/// - `corner-fit`: bounds exactly the caps of a corner image across both axes, with the
///   arrow half a point past the threshold that chooses it (up: up-right; down:
///   down-right mirrored; right: side-top; left: side-bottom mirrored).
enum BoundaryCases {
    /// One boundary: what it is called, and the request that sits on it.
    struct Boundary {
        var name: String
        var direction: ArrowDirection
        var bounds: Size
        var offset: Double
        /// Placement fits: where the popover is presented from.
        var anchor: String?
        var orientation: Orientation?
        var origin = Facts()
    }

    /// The edges the stage-length boundaries are drawn on, and the popover's depth across
    /// them: the sweeps' narrow size.
    static let edge: Double = 120
    static let depth: Double = 104
    /// Half a point: one device pixel at 2x.
    static let step = 0.5
    /// `stage-float`'s offset on an edge where `c + k` is whole at offset 0: a ten-millionth
    /// short of a half, well within a `Float`'s rounding (its spacing near 100 is 2^-17,
    /// about 7.6e-6) and far beyond a `Double`'s.
    static let floatOffset = 0.4999999
    /// `arrow-under-half`'s distance short of a half pixel: the smallest step an ID's
    /// number shows (six decimals).
    static let underHalf = 0.000001

    static func cases(_ skin: any Skin, scale: Int) throws -> [GoldenCase] {
        try boundaries(skin, scale: scale).map { point in
            let size = "\(IDNumber.plain(point.bounds.width))x\(IDNumber.plain(point.bounds.height))"
            return GoldenCase(
                skinID: skin.id, direction: point.direction, scale: scale, family: .boundary,
                label: "boundary-\(point.name)-\(size)-offset\(IDNumber.signed(point.offset))",
                request: PopoverRequest(bounds: point.bounds, direction: point.direction, arrowOffset: point.offset,
                                        scale: Double(scale)),
                anchor: point.anchor, orientation: point.orientation, boundary: point.name, origin: point.origin)
        }
    }

    /// The boundaries of `skin` drawn at `scale`, in a fixed order.
    static func boundaries(_ skin: any Skin, scale: Int) throws -> [Boundary] {
        var out: [Boundary] = []
        let metrics = skin.metrics
        let seven = (skin as? SevenImageSkin)?.layoutMetrics
        for direction in ArrowDirection.allCases {
            out.append(Boundary(name: "minimum", direction: direction, bounds: metrics.minimumBounds(for: direction), offset: 0))
            if let seven { out += layoutBoundaries(direction, metrics: seven, scale: scale) }
            if scale == 1 {
                out.append(Boundary(name: "half-point", direction: direction,
                                    bounds: turned(direction, along: edge + step, across: depth + step), offset: 0))
                if skin is PathSkin {
                    // The outline is inset by half a pixel: its fill ends at E - 1/2, which
                    // on 120.75 lies a quarter into pixel 120.
                    out.append(Boundary(name: "three-quarter-point", direction: direction,
                                        bounds: turned(direction, along: edge + 3 * step / 2, across: depth + 3 * step / 2),
                                        offset: 0))
                }
                if skin is PathSkin {
                    // The minimum edge (the arrow pinned between the corners), half a point
                    // deeper: the stroke's miter at a left arrow's tip reaches past the
                    // bitmap's left edge, where the rasterizer cuts segments at the border.
                    let least = metrics.minimumBounds(for: direction)
                    let along = direction.isVertical ? least.width : least.height
                    let across = direction.isVertical ? least.height : least.width
                    out.append(Boundary(name: "minimum-half-point", direction: direction,
                                        bounds: turned(direction, along: along, across: across + step), offset: 0))
                }
                if let arrow = (skin as? TwoAssetSkin)?.arrowSize {
                    // The arrow image's edges lie at E / 2 + offset ± w / 2.
                    let half = (edge / 2 + arrow.width / 2).truncatingRemainder(dividingBy: 1) == 0.5
                    out.append(Boundary(name: "arrow-under-half", direction: direction,
                                        bounds: turned(direction, along: edge, across: depth), offset: (half ? 0 : 0.5) - underHalf))
                }
            }
        }
        if scale == 1 { out += try placementFits(metrics) + placementAtTheSmallest(metrics) }
        return out
    }

    /// A size given along the arrow's edge and across it.
    static func turned(_ direction: ArrowDirection, along: Double, across: Double) -> Size {
        direction.isVertical ? Size(width: along, height: across) : Size(width: across, height: along)
    }

    // MARK: The seven-image layout

    static func layoutBoundaries(_ direction: ArrowDirection, metrics m: SevenImageMetrics, scale: Int) -> [Boundary] {
        let minimum = m.minimumBounds(for: direction)
        var out = [
            Boundary(name: "corner-start", direction: direction, bounds: minimum, offset: -step),
            Boundary(name: "corner-end", direction: direction, bounds: minimum, offset: step),
        ]
        let image = m[direction.isVertical ? (direction == .up ? .up : .down) : .side]
        let k = direction.isVertical ? (image.size.width - 1) / 2 : image.size.height / 2 - 1 - m.sideArrowCenterOffset
        // On one of two neighbouring edges c + k is whole at offset 0, on the other a half.
        let whole = (edge / 2 + k) == (edge / 2 + k).rounded() ? edge : edge + 1
        let half = whole == edge ? edge + 1 : edge
        let caps = image.capInsets
        let firstCaps = direction.isVertical ? caps.left + caps.right : caps.top + caps.bottom
        // Each on the two-stage image, as the layout has it: neither corner test holds.
        let candidates = [
            ("stage-tie", half, 0.0),
            ("stage-float", whole, floatOffset),
            // c + k = firstCaps: c = firstCaps - k.
            ("stage1-fit", edge, firstCaps - k - edge / 2),
            // L = c + k = E + 1, so the second stage's caps, L - (inset + 1) and inset, are E.
            ("stage2-fit", edge, edge + 1 - k - edge / 2),
        ]
        func onEdge(_ name: String, _ e: Double, _ offset: Double) {
            let c = e / 2 + offset
            guard c - m.arrowBase / 2 >= m.cornerRadius, c + m.arrowBase / 2 <= e - m.cornerRadius else { return }
            out.append(Boundary(name: name, direction: direction, bounds: turned(direction, along: e, across: depth), offset: offset))
        }
        for (name, e, offset) in candidates { onEdge(name, e, offset) }
        out.append(cornerFit(direction, metrics: m))
        if scale == 1 {
            // On the half-point edge, L = c + k = 121 (whole, so no rounding moves it): the
            // second stage's caps, L - (inset + 1) and inset, leave a middle of half a point,
            // the narrowest a stretch ever draws here. At 1x only, as `half-point`.
            let e = edge + step
            onEdge("stage2-half", e, e + step - k - e / 2)
        }
        return out
    }

    /// Each direction's corner image, bounds exactly its caps (never below the minimum),
    /// the arrow half a point past the threshold that chooses it.
    static func cornerFit(_ direction: ArrowDirection, metrics m: SevenImageMetrics) -> Boundary {
        let (image, atEnd): (ArrowImage, Bool) = switch direction {
        case .up: (.upRight, true)
        case .down: (.downRight, false)
        case .right: (.sideTop, false)
        case .left: (.sideBottom, true)
        }
        let caps = m[image].capInsets, minimum = m.minimumBounds(for: direction)
        let bounds = Size(width: max(caps.left + caps.right, minimum.width), height: max(caps.top + caps.bottom, minimum.height))
        let e = direction.isVertical ? bounds.width : bounds.height
        let past = e / 2 - m.arrowBase / 2 - m.cornerRadius + step
        return Boundary(name: "corner-fit", direction: direction, bounds: bounds, offset: atEnd ? past : -past)
    }

    // MARK: Placement

    /// The centre anchors, one for each direction, each permitting only that one.
    static let centreAnchors = ["popover8", "popover5", "popover7", "popover6"]

    /// The placements where the smallest background decides: no content from each centre
    /// anchor, and popover8's room cut by the keyboard to exactly the smallest depth with
    /// content narrower than the smallest edge.
    static func placementAtTheSmallest(_ metrics: PopoverMetrics) throws -> [Boundary] {
        let orientation = Orientation.portrait
        var out: [Boundary] = []
        for name in centreAnchors {
            let anchor = try Anchor.named(name)
            let placement = try Placement.make(anchor: anchor, orientation: orientation, contentSize: Size(width: 0, height: 0),
                                               metrics: metrics)
            out.append(placed("smallest", anchor, orientation, placement))
        }
        // popover8 points up: its room runs from the tip (the anchor's bottom) to the
        // visible view's bottom margin, which the keyboard raises.
        let anchor = try Anchor.named("popover8")
        let tip = anchor.frame(in: orientation).maxY
        let keyboard = orientation.viewSize.height - Placement.margin - tip - metrics.minimumBounds(for: .up).height
        let placement = try Placement.make(anchor: anchor, orientation: orientation,
                                           contentSize: Size(width: 0, height: anchor.contentSize.height),
                                           keyboardHeight: keyboard, metrics: metrics)
        out.append(placed("shrunk-to-smallest", anchor, orientation, placement, keyboard: keyboard))
        return out
    }

    /// The boundary drawn from a placement, with the facts a scene records: the placement
    /// it is drawn from (and the keyboard's height, when one is up).
    static func placed(_ name: String, _ anchor: Anchor, _ orientation: Orientation, _ placement: Placement,
                       keyboard: Double = 0) -> Boundary {
        var group = Facts(["anchor": .text(anchor.name), "orientation": .text(orientation.rawValue),
                           "direction": .text(placement.direction.rawValue), "frame": .rect(placement.frame),
                           "arrowOffset": .number(placement.arrowOffset)])
        if keyboard > 0 { group["keyboardHeight"] = .number(keyboard) }
        return Boundary(name: "\(name)-\(anchor.name)-\(orientation.rawValue)", direction: placement.direction,
                        bounds: placement.frame.size, offset: placement.arrowOffset, anchor: anchor.name,
                        orientation: orientation, origin: Facts(["placement": .group(group)]))
    }

    /// From each anchor that permits any direction, in each orientation: the first
    /// direction whose tip has room, its content grown along the arrow's axis until the
    /// popover's depth is exactly that room.
    static func placementFits(_ metrics: PopoverMetrics) throws -> [Boundary] {
        var out: [Boundary] = []
        for anchor in Anchor.all where anchor.permitted == .any {
            for orientation in Orientation.allCases {
                let frame = anchor.frame(in: orientation), view = orientation.viewSize, margin = Placement.margin
                let rooms: [(ArrowDirection, tip: Double, low: Double, high: Double)] = [
                    (.up, frame.maxY, margin, view.height - margin), (.down, frame.minY, margin, view.height - margin),
                    (.left, frame.maxX, margin, view.width - margin), (.right, frame.minX, margin, view.width - margin),
                ]
                guard let (direction, tip, low, high) = rooms.first(where: { $0.tip >= $0.low && $0.tip <= $0.high }) else {
                    continue
                }
                let room = direction == .up || direction == .left ? high - tip : tip - low
                let i = metrics.contentInsets
                let along = room - metrics.arrowHeight - (direction.isVertical ? i.top + i.bottom : i.left + i.right)
                guard along >= 0 else { continue }
                var content = anchor.contentSize
                if direction.isVertical { content.height = along } else { content.width = along }
                let placement = try Placement.make(anchor: anchor, orientation: orientation, contentSize: content,
                                                   metrics: metrics)
                let depth = direction.isVertical ? placement.frame.height : placement.frame.width
                // Too little room for the smallest background, or another direction's better.
                guard placement.direction == direction, depth == room else { continue }
                out.append(placed("fit", anchor, orientation, placement))
            }
        }
        return out
    }
}
