import Foundation
import PopoverGeometry
import PopoverImage
import PopoverRaster
import PopoverSkins

/// Every golden case: each skin x every combination of arrow direction, anchor and
/// arrow offset, as the sample app presents them, at scales 1 and 2 (3 for a subset).
///
/// - Scenes: the 16 anchors, each with every direction it allows ("any" anchors:
///   all four, each forced), in portrait and landscape, placed by the placement model
///   for the skin's metrics. Combinations with no room at all (popover2 pointing down
///   from the top edge, popover11 pointing up from the bottom) are left out; the
///   placement tests cover them.
/// - Sweeps: per direction and two popover sizes, the arrow offset walked across the
///   whole edge: both extremes (the arrow's base touching an end), the middle, the
///   offsets where the arrow meets a corner (for the seven-image skin, exactly where
///   the image choice changes) and 0.5 and 1 point either side, and two fractional
///   offsets whose two-stage stretch length rounds each way.
/// - Keyboard: popover2's navigation controller shrinking above the keyboard, in both
///   orientations, at five keyframes of the 0.25 s animation.
/// - Boundaries: popovers exactly on the model's decision boundaries, worked out from the
///   skin's metrics (`BoundaryCases`): the minimum bounds, image-choice thresholds, the
///   stage length's rounding, caps that exactly fit, placements that exactly fit.
/// - Scale 3: the portrait scenes of the skins that ask for it (gik-default, path-slate).
public struct CaseCatalog: Sendable {
    public let skins: [any Skin]
    public let cases: [GoldenCase]
    /// Skin folders that could not be used, by skin ID: their cases are not in the
    /// catalog, a check reports each as a run error, and their goldens are not orphans.
    public let unavailableSkins: [SkinLineup.Problem]

    public static let scales = [1, 2]
    /// Popover sizes for sweeps, along x across y for up and down (transposed for
    /// left and right): one narrow, one wide, both tall enough for a 70-point arrow.
    public static let sweepSizes: [Size] = [Size(width: 120, height: 104), Size(width: 200, height: 104)]
    public static let keyboardAnchor = "popover2"
    public static let keyboardTimes: [Double] = [0, 0.0625, 0.125, 0.1875, 0.25]

    /// The cases of `entries`' skins. A skin whose cases cannot be laid out (a metric too
    /// large for the sample app's screen, say) is that skin's problem: it joins
    /// `unavailable`, named with where it was defined, and the other skins' cases stand.
    public init(entries: [SkinEntry], unavailable: [SkinLineup.Problem] = []) {
        var usable: [SkinEntry] = []
        var problems = unavailable
        var all: [GoldenCase] = []
        for entry in entries {
            let skin = entry.skin
            do {
                var cases: [GoldenCase] = []
                for scale in Self.scales {
                    cases += try Self.scenes(skin, scale: scale, orientations: Orientation.allCases)
                    cases += Self.sweeps(skin, scale: scale)
                    cases += try Self.keyboard(skin, scale: scale)
                    cases += try BoundaryCases.cases(skin, scale: scale)
                }
                if entry.portraitScenesAt3x {
                    cases += try Self.scenes(skin, scale: 3, orientations: [.portrait])
                }
                all += cases
                usable.append(entry)
            } catch {
                problems.append(SkinLineup.Problem(id: skin.id, message: "\(entry.origin): skin \(skin.id): its cases cannot be "
                    + "laid out: \(error)"))
            }
        }
        skins = usable.map(\.skin)
        unavailableSkins = problems
        cases = all
        var seen = Set<String>()
        for c in all {
            precondition(CaseID.isValid(c.id), "unsafe case ID \(c.id)")
            precondition(seen.insert(c.id).inserted, "duplicate case ID \(c.id)")
        }
    }

    /// The cases of `skins`, none of them also at 3x.
    public init(skins: [any Skin]) {
        self.init(entries: skins.map { SkinEntry(skin: $0) })
    }

    /// The catalog of the skin folders in `skinsFolder` and the built-in skins.
    public static func standard(skinsFolder: String = SkinCatalog.defaultSkinsFolder) -> CaseCatalog {
        let lineup = SkinCatalog.lineup(skinsFolder: skinsFolder)
        return CaseCatalog(entries: lineup.entries, unavailable: lineup.problems)
    }

    public func skin(_ id: String) -> (any Skin)? { skins.first { $0.id == id } }

    /// What a case draws, in straight colour: what its golden holds.
    public func draw(_ c: GoldenCase) throws -> RGBAImage {
        try drawing(c).straightImage
    }

    /// What a case draws, premultiplied, as drawn.
    public func drawing(_ c: GoldenCase) throws -> Pixmap {
        guard let skin = skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
        return try skin.render(c.request).pixmap
    }

    /// The facts a case is drawn from: its skin's drawing facts and where its request came
    /// from (a scene's placement, a keyframe).
    public func facts(of c: GoldenCase) throws -> DrawingFacts {
        guard let skin = skin(c.skinID) else { throw HarnessError.unknownCase(c.id) }
        var drawn = try skin.drawingFacts(for: c.request)
        drawn.facts = drawn.facts.merging(c.origin)
        return drawn
    }

    /// A digest of every case: its ID and what it draws. Two runs with the same digest
    /// judged the same cases the same way.
    public var digest: String {
        var hasher = SHA256()
        for c in cases {
            let r = c.request
            let shadow = r.shadowRect.map { "\($0.minX),\($0.minY),\($0.width),\($0.height)" } ?? "-"
            hasher.update(Array("\(c.id) \(r.bounds.width)x\(r.bounds.height) \(r.direction) \(r.arrowOffset) \(r.scale) \(shadow)\n".utf8))
        }
        return hasher.finalizeHex()
    }

    /// What judging a case costs, for sharing cases out fairly (see `Shard`).
    public func estimatedCost(_ c: GoldenCase) -> Double {
        Shard.estimatedCost(c, castsShadow: skin(c.skinID)?.castsShadow ?? false)
    }

    /// The cost `Shard` shares `cases` out by: their pixels, or a previous run's durations.
    public func shardCost(for cases: [GoldenCase], timings: [String: Double]?) -> (GoldenCase) -> Double {
        guard let timings else { return estimatedCost }
        let costs = Shard.costs(timed: timings, estimated: estimatedCost, for: cases)
        return { costs[$0.id] ?? self.estimatedCost($0) }
    }

    /// The IDs most like `filter`, for a filter that matches nothing: those holding the
    /// fewest edits away from its longest plain part, best first.
    public func closestIDs(to filter: String, count: Int = 3) -> [String] {
        let pieces = filter.split(whereSeparator: { $0 == "*" || $0 == "?" }).map(String.init)
        guard let needle = pieces.max(by: { $0.count < $1.count }), !needle.isEmpty else { return [] }
        let scored = cases.map { (id: $0.id, edits: Self.editsToNearestPart(of: $0.id, matching: needle)) }
        return scored.sorted { ($0.edits, $0.id.count, $0.id) < ($1.edits, $1.id.count, $1.id) }.prefix(count).map(\.id)
    }

    /// The fewest single-character edits that turn `needle` into some part of `text`
    /// (approximate substring matching: the part may start and end anywhere).
    static func editsToNearestPart(of text: String, matching needle: String) -> Int {
        let t = Array(text), n = Array(needle)
        var previous = [Int](repeating: 0, count: t.count + 1)
        var current = previous
        for i in 1...n.count {
            current[0] = i
            for j in 1...max(1, t.count) where j <= t.count {
                let substitute = previous[j - 1] + (n[i - 1] == t[j - 1] ? 0 : 1)
                current[j] = min(substitute, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous.min() ?? n.count
    }

    public func cases(matching filter: String?) -> [GoldenCase] {
        guard let filter, !filter.isEmpty else { return cases }
        let glob = CaseFilter(filter)
        return cases.filter { glob.matches($0.id) }
    }

    // MARK: Families

    static func scenes(_ skin: any Skin, scale: Int, orientations: [Orientation]) throws -> [GoldenCase] {
        var out: [GoldenCase] = []
        for orientation in orientations {
            for anchor in Anchor.all {
                for direction in anchor.permitted.directions {
                    let placement: Placement
                    do {
                        placement = try Placement.make(anchor: anchor, orientation: orientation,
                                                       permitted: .only(direction), metrics: skin.metrics)
                    } catch GeometryError.noRoom {
                        continue
                    }
                    out.append(GoldenCase(
                        skinID: skin.id, direction: direction, scale: scale, family: .scene,
                        label: "\(anchor.name)-\(orientation.rawValue)",
                        request: PopoverRequest(bounds: placement.frame.size, direction: direction,
                                                arrowOffset: placement.arrowOffset, scale: Double(scale)),
                        anchor: anchor.name, orientation: orientation,
                        origin: Facts(["placement": .group(Facts([
                            "anchor": .text(anchor.name), "orientation": .text(orientation.rawValue),
                            "direction": .text(placement.direction.rawValue), "frame": .rect(placement.frame),
                            "arrowOffset": .number(placement.arrowOffset)]))])))
                }
            }
        }
        return out
    }

    /// The offsets a sweep visits along an edge of `length`.
    public static func sweepOffsets(edge length: Double, metrics: PopoverMetrics) -> [Double] {
        let extreme = length / 2 - metrics.arrowBase / 2
        let threshold = extreme - metrics.cornerRadius
        var offsets: [Double] = [-extreme, extreme, 0, 0.25, 0.5]
        for t in [-threshold, threshold] {
            offsets += [t - 1, t - 0.5, t, t + 0.5, t + 1]
        }
        return Array(Set(offsets.filter { abs($0) <= extreme })).sorted()
    }

    static func sweeps(_ skin: any Skin, scale: Int) -> [GoldenCase] {
        var out: [GoldenCase] = []
        for direction in ArrowDirection.allCases {
            for size in sweepSizes {
                let bounds = direction.isVertical ? size : Size(width: size.height, height: size.width)
                let sizeName = "\(IDNumber.plain(bounds.width))x\(IDNumber.plain(bounds.height))"
                let edge = direction.isVertical ? bounds.width : bounds.height
                for offset in sweepOffsets(edge: edge, metrics: skin.metrics) {
                    out.append(GoldenCase(
                        skinID: skin.id, direction: direction, scale: scale, family: .sweep,
                        label: "sweep-\(sizeName)-offset\(IDNumber.signed(offset))",
                        request: PopoverRequest(bounds: bounds, direction: direction, arrowOffset: offset,
                                                scale: Double(scale)),
                        sweepSize: sizeName))
                }
            }
        }
        return out
    }

    static func keyboard(_ skin: any Skin, scale: Int) throws -> [GoldenCase] {
        let anchor = try Anchor.named(keyboardAnchor)
        var out: [GoldenCase] = []
        for orientation in Orientation.allCases {
            let animation = try KeyboardAnimation(anchor: anchor, orientation: orientation, metrics: skin.metrics)
            for time in keyboardTimes {
                let frame = try animation.keyframe(at: time)
                out.append(GoldenCase(
                    skinID: skin.id, direction: frame.direction, scale: scale, family: .keyboard,
                    label: "keyboard-\(anchor.name)-\(orientation.rawValue)-t\(IDNumber.plain(time * 1000))ms",
                    request: PopoverRequest(bounds: frame.frame.size, direction: frame.direction,
                                            arrowOffset: frame.arrowOffset, scale: Double(scale),
                                            shadowRect: try animation.shadowRect(at: time)),
                    anchor: anchor.name, orientation: orientation, keyboardTime: time,
                    origin: Facts(["keyframe": .group(Facts([
                        "anchor": .text(anchor.name), "orientation": .text(orientation.rawValue),
                        "time": .number(time), "direction": .text(frame.direction.rawValue), "frame": .rect(frame.frame),
                        "arrowOffset": .number(frame.arrowOffset)]))])))
            }
        }
        return out
    }
}
