import Foundation
import PopoverGeometry
import PopoverImage
import PopoverRaster
import PopoverSkins

/// One input of the survivor search: what a person would ask a skin to draw. Scenes and
/// keyboard frames are placed when drawn, so a mutant of the placement model moves them.
struct Scenario: CustomStringConvertible {
    enum Kind {
        case request(PopoverRequest)
        case scene(anchor: Anchor, orientation: Orientation, permitted: PermittedDirections, contentSize: Size?, scale: Double)
        case keyboard(anchor: Anchor, orientation: Orientation, keyboardHeight: Double?, time: Double, scale: Double)
    }

    var skin: any Skin
    var kind: Kind

    /// A ready case: the skin and the request (for scenes and keyframes also where it came from).
    var description: String {
        let request = try? self.request()
        let drawn = request.map { r in
            "bounds \(num(r.bounds.width))x\(num(r.bounds.height)), direction \(r.direction.rawValue), "
                + "offset \(num(r.arrowOffset)), scale \(Int(r.scale))"
        } ?? "no placement"
        switch kind {
        case .request:
            return "skin \(skin.id), \(drawn)"
        case .scene(let anchor, let orientation, let permitted, let content, _):
            let size = content.map { ", content \(num($0.width))x\(num($0.height))" } ?? ""
            return "skin \(skin.id), scene \(anchor.name) \(orientation.rawValue) permitted \(permitted)\(size): \(drawn)"
        case .keyboard(let anchor, let orientation, let height, let time, _):
            let h = height.map { ", keyboard \(num($0))" } ?? ""
            return "skin \(skin.id), keyboard \(anchor.name) \(orientation.rawValue)\(h) at \(num(time)) s: \(drawn)"
        }
    }

    func request() throws -> PopoverRequest {
        switch kind {
        case .request(let r):
            return r
        case .scene(let anchor, let orientation, let permitted, let content, let scale):
            let p = try Placement.make(anchor: anchor, orientation: orientation, permitted: permitted, contentSize: content,
                                       metrics: skin.metrics)
            return PopoverRequest(bounds: p.frame.size, direction: p.direction, arrowOffset: p.arrowOffset, scale: scale)
        case .keyboard(let anchor, let orientation, let height, let time, let scale):
            let animation = try KeyboardAnimation(anchor: anchor, orientation: orientation, keyboardHeight: height,
                                                  metrics: skin.metrics)
            let frame = try animation.keyframe(at: time)
            return PopoverRequest(bounds: frame.frame.size, direction: frame.direction, arrowOffset: frame.arrowOffset,
                                  scale: scale, shadowRect: try animation.shadowRect(at: time))
        }
    }

    /// What the input draws now: its pixels' digest and size, or that it draws nothing. An
    /// error's wording is left out: no check compares messages (a case that cannot be drawn
    /// fails, whatever it says), so a mutant that only rewords one is not a missing case.
    func draw() -> String {
        do {
            let image = try skin.render(try request()).pixmap.straightImage
            return "\(image.width)x\(image.height) \(XXH64.hex(image.pixelDigest()))"
        } catch {
            return "error"
        }
    }
}

func num(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}

/// The parameter space of the survivor search, boundaries first.
enum SearchSpace {
    static let scales: [Double] = [1, 2, 3]

    /// The shipped skins' space: offsets along every edge at the boundaries the metrics
    /// imply (the arrow's base at an end, the corner thresholds, device-pixel and half-pixel
    /// steps beside them, the stage length's rounding edges as Double and as Float), sizes
    /// from the smallest allowed up, placements from every anchor in both orientations
    /// (every permitted direction and exact fits found by growing the content), keyboard
    /// heights and times, scales 1 to 3.
    static func shipped(_ skins: [any Skin], scales: [Double] = scales, fits: Bool = true, steps: Bool = true) -> [Scenario] {
        // Each skin's inputs in kinds (corner thresholds, stage-length edges, extremes, scenes,
        // keyboard frames, steps), all taken in turn, so a search's budget spreads over
        // every skin and every kind of boundary.
        var lists: [[Scenario]] = []
        for skin in skins {
            lists += requests(skin, scales: scales)
            lists += [scenes(skin, scales: scales, fits: fits), keyboard(skin, scales: scales.filter { $0 < 3 })]
            if steps { lists.append(stepsAcross(skin, scales: scales)) }
        }
        var out: [Scenario] = []
        for i in 0..<(lists.map(\.count).max() ?? 0) {
            for list in lists where i < list.count { out.append(list[i]) }
        }
        return out
    }

    /// Requests straight to the skin at the boundaries the metrics imply, three lists:
    /// corner thresholds, stage-length rounding edges, and the rest.
    static func requests(_ skin: any Skin, scales: [Double]) -> [[Scenario]] {
        let m = skin.metrics
        var corners: [Scenario] = [], stages: [Scenario] = [], others: [Scenario] = []
        for direction in ArrowDirection.allCases {
            let minimum = m.minimumBounds(for: direction)
            let wide = Size(width: 137.5, height: 90.5)
            // The smallest size the skin allows, the catalog's narrow sweep size, and one no case uses.
            let sizes = [Size(width: 120, height: 104), minimum, wide].map { s -> Size in
                s == minimum || direction.isVertical ? s : Size(width: s.height, height: s.width)
            }
            for size in sizes {
                let edge = direction.isVertical ? size.width : size.height
                let extreme = edge / 2 - m.arrowBase / 2
                let threshold = extreme - m.cornerRadius
                func add(_ offset: Double, _ scale: Double, to list: inout [Scenario]) {
                    guard abs(offset) <= extreme else { return }
                    list.append(Scenario(skin: skin, kind: .request(PopoverRequest(
                        bounds: size, direction: direction, arrowOffset: offset, scale: scale))))
                }
                for scale in scales {
                    let px = 1 / scale
                    for t in [threshold, -threshold] {
                        for d in [0, px / 2, -px / 2, 1e-6, -1e-6] { add(t + d, scale, to: &corners) }
                    }
                    for t in [extreme, -extreme] {
                        for d in [0, -px / 2, -1e-6] { add(t > 0 ? t + d : t - d, scale, to: &others) }
                    }
                    for offset in [0, 0.25, 0.5] { add(offset, scale, to: &others) }
                }
                // The stage length rounds centre + a constant (half-point sizes and integer image
                // sizes make its fraction a quarter): offsets whose sum lands just below k + 0.5
                // (where Float rounds up and Double down), just above, and on it. In points, so
                // at scale 1.
                for k in [3.0, (threshold / 2).rounded(.down), -(threshold / 2).rounded(.down), 0] {
                    for f in [0.5, 0.0, 0.25, 0.75] {
                        for d in [-1e-6, 1e-6, 0] { add(k + f + d, 1, to: &stages) }
                    }
                }
                // Just below the smallest allowed size: an error, not a drawing.
                if size == minimum {
                    others.append(Scenario(skin: skin, kind: .request(PopoverRequest(
                        bounds: Size(width: minimum.width - 0.5, height: minimum.height - 0.5), direction: direction,
                        arrowOffset: 0, scale: 1))))
                }
            }
        }
        return [corners, stages, others]
    }

    /// Device-pixel steps across each edge, thinned to about a dozen per edge.
    static func stepsAcross(_ skin: any Skin, scales: [Double]) -> [Scenario] {
        var out: [Scenario] = []
        for direction in ArrowDirection.allCases {
            let size = direction.isVertical ? Size(width: 137.5, height: 90.5) : Size(width: 90.5, height: 137.5)
            let extreme = (direction.isVertical ? size.width : size.height) / 2 - skin.metrics.arrowBase / 2
            for scale in scales {
                let steps = Int((2 * extreme * scale).rounded(.down))
                for i in Swift.stride(from: 0, through: steps, by: max(1, steps / 12)) {
                    out.append(Scenario(skin: skin, kind: .request(PopoverRequest(
                        bounds: size, direction: direction, arrowOffset: -extreme + Double(i) / scale, scale: scale))))
                }
            }
        }
        return out
    }

    static func scenes(_ skin: any Skin, scales: [Double], fits withFits: Bool) -> [Scenario] {
        var out: [Scenario] = []
        for anchor in Anchor.all {
            for orientation in Orientation.allCases {
                var permittedSets: [PermittedDirections] = [anchor.permitted]
                for d in anchor.permitted.directions where anchor.permitted.directions.count > 1 { permittedSets.append(.only(d)) }
                for permitted in permittedSets {
                    for scale in scales {
                        out.append(Scenario(skin: skin, kind: .scene(anchor: anchor, orientation: orientation, permitted: permitted,
                                                                     contentSize: nil, scale: scale)))
                    }
                    // Exact fits: grow the content until the placement changes its direction or
                    // stops growing with it; both sides of each change.
                    for content in withFits ? fits(anchor, orientation, permitted, skin.metrics) : [] {
                        out.append(Scenario(skin: skin, kind: .scene(anchor: anchor, orientation: orientation, permitted: permitted,
                                                                     contentSize: content, scale: 1)))
                    }
                }
            }
        }
        return out
    }

    /// Content sizes on both sides of each change of the placement as the content grows
    /// (width, then height, then both): found in 8-point steps, then narrowed to half a point.
    static func fits(_ anchor: Anchor, _ orientation: Orientation, _ permitted: PermittedDirections,
                     _ metrics: PopoverMetrics) -> [Size] {
        func shape(_ content: Size) -> String {
            guard let p = try? Placement.make(anchor: anchor, orientation: orientation, permitted: permitted,
                                              contentSize: content, metrics: metrics) else { return "none" }
            let grows = p.frame.width - content.width == metrics.contentInsets.left + metrics.contentInsets.right
                || p.frame.height - content.height == metrics.contentInsets.top + metrics.contentInsets.bottom
            return "\(p.direction) \(grows)"
        }
        var out: [Size] = []
        let base = anchor.contentSize
        for (dw, dh) in [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            func size(_ step: Double) -> Size {
                Size(width: dw > 0 ? 20 + step : base.width, height: dh > 0 ? 20 + step : base.height)
            }
            var previous = shape(size(0))
            var step = 0.0
            while step < 1100 {
                let now = shape(size(step + 8))
                if now != previous {
                    // The change lies in (step, step + 8]: halve down to half a point.
                    var low = step, high = step + 8
                    while high - low > 0.5 {
                        let middle = ((low + high) / 2 * 2).rounded(.down) / 2
                        if shape(size(middle)) == previous { low = middle } else { high = middle }
                    }
                    out += [size(low), size(high)]
                    previous = now
                }
                step += 8
            }
        }
        return out
    }

    static func keyboard(_ skin: any Skin, scales: [Double]) -> [Scenario] {
        var out: [Scenario] = []
        for anchor in Anchor.all where anchor.contentSize == Anchor.navigationControllerContentSize {
            for orientation in Orientation.allCases {
                let heights: [Double?] = [nil, 0, orientation.keyboardHeight - 0.5, 400]
                for height in heights {
                    for time in [0, 1.0 / 120, 0.05, 0.1, 0.2, 0.25] {
                        for scale in scales {
                            out.append(Scenario(skin: skin, kind: .keyboard(anchor: anchor, orientation: orientation,
                                                                            keyboardHeight: height, time: time, scale: scale)))
                        }
                    }
                }
            }
        }
        return out
    }

    /// Other artwork: skins built in memory with other metrics, colours, tints and
    /// shadows, drawn over a smaller version of the same space.
    static func artwork(root: String, skins: [any Skin]) -> [Scenario] {
        var others: [any Skin] = []
        let colours = ColorSet(border: Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.7),
                               gradientFrom: Color(red: 1, green: 0.9, blue: 0.2, alpha: 0.6),
                               gradientTo: Color(red: 0.1, green: 0.6, blue: 0.3, alpha: 1))
        others.append(SevenImageSkin(id: "other-colours-tinted", summary: "", artwork: .rendered(colours),
                                     tint: Tint(color: Color(red: 0.8, green: 0.2, blue: 0.4), reproducesScaleOneBlur: true),
                                     shadow: Shadow(color: Color(red: 0.3, green: 0, blue: 0.5), opacity: 0.5, radius: 3,
                                                    offsetX: 4, offsetY: -2)))
        var metrics = SevenImageMetrics.standard
        metrics.cornerRadius = 11
        metrics.sideArrowCenterOffset = 5
        metrics.contentInsets = EdgeInsets(top: 5, left: 9, bottom: 13, right: 3)
        metrics.secondStageBottomInset = 12
        metrics.secondStageRightInset = 6
        others.append(SevenImageSkin(id: "other-metrics", summary: "", artwork: .rendered(colours), metrics: metrics, shadow: nil))
        if let files = try? ArtworkSet(folder: root + "/Skins/gik-files") {
            others.append(SevenImageSkin(id: "other-files-tinted", summary: "", artwork: .files(files),
                                         tint: Tint(color: Color(red: 0.1, green: 0.5, blue: 0.9), reproducesScaleOneBlur: true)))
        }
        let pathMetrics = PopoverMetrics(arrowBase: 24, arrowHeight: 11, cornerRadius: 3.5,
                                         contentInsets: EdgeInsets(top: 4, left: 6, bottom: 4, right: 6))
        others.append(PathSkin(id: "other-path", summary: "", fill: Color(red: 0.1, green: 0.1, blue: 0.15, alpha: 0.5),
                               outline: Color(red: 1, green: 0.5, blue: 0), metrics: pathMetrics))
        if let twoAsset = skins.first(where: { $0 is TwoAssetSkin }) as? TwoAssetSkin,
           let other = try? TwoAssetSkin(id: "other-two-asset", summary: "", folder: twoAsset.folder,
                                         metrics: PopoverMetrics(arrowBase: 30, arrowHeight: 14, cornerRadius: 9,
                                                                 contentInsets: EdgeInsets(all: 5))) {
            others.append(other)
        }
        // Usable skins only: one whose every request throws tells nothing. Each is tried in a
        // child process: drawing makes source images, which the process-wide cache would keep
        // here, and every search child forked after would find them made by the original, not
        // by its mutant.
        let usable = others.filter { skin in
            inChild { (try? skin.render(PopoverRequest(bounds: Size(width: 150, height: 120), direction: .up, arrowOffset: 0, scale: 1))) != nil }
        }
        // A smaller space: scales 1 and 2, no exact-fit scan, no steps across the edge.
        return shipped(usable, scales: [1, 2], fits: false, steps: false)
    }
}

/// Whether `work` returns true when run in a child process, so nothing it caches stays in
/// this one (run here when no child can be made).
func inChild(_ work: () -> Bool) -> Bool {
    let child = fork()
    if child == 0 { _exit(work() ? 0 : 1) }
    guard child > 0 else { return work() }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return status == 0
}
