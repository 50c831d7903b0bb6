/// One direction's candidate popover, measured in two lengths that read the same
/// for every direction: `depth` along the arrow's axis (arrow included) and
/// `edge` along the edge that carries the arrow.
struct PlacementOption {
    let direction: ArrowDirection
    /// Where the tip touches the anchor, on the arrow's axis.
    let tip: Double
    /// The popover's size before shrinking.
    let wantedDepth: Double
    let wantedEdge: Double
    /// Room between the tip and the far margin; nil when the tip itself is
    /// outside the margins, since then no popover can start there.
    let room: Double?
    /// The visible view less margins, across the arrow's axis.
    let span: Double
    let minimumDepth: Double
    let minimumEdge: Double

    init(direction: ArrowDirection, anchorFrame: Rect, allowed: Rect, contentSize: Size, metrics: PopoverMetrics) {
        self.direction = direction
        let insets = metrics.contentInsets
        let minimum = metrics.minimumBounds(for: direction)
        let width = max(
            contentSize.width + insets.left + insets.right + (direction.isVertical ? 0 : metrics.arrowHeight),
            minimum.width)
        let height = max(
            contentSize.height + insets.top + insets.bottom + (direction.isVertical ? metrics.arrowHeight : 0),
            minimum.height)

        let low: Double
        let high: Double
        if direction.isVertical {
            (wantedDepth, wantedEdge, span) = (height, width, allowed.width)
            (minimumDepth, minimumEdge) = (minimum.height, minimum.width)
            (low, high) = (allowed.minY, allowed.maxY)
        } else {
            (wantedDepth, wantedEdge, span) = (width, height, allowed.height)
            (minimumDepth, minimumEdge) = (minimum.width, minimum.height)
            (low, high) = (allowed.minX, allowed.maxX)
        }
        switch direction {
        case .up: tip = anchorFrame.maxY
        case .down: tip = anchorFrame.minY
        case .left: tip = anchorFrame.maxX
        case .right: tip = anchorFrame.minX
        }
        if tip < low || tip > high {
            room = nil
        } else {
            // Up and left arrows put the popover after the tip, down and right before it.
            room = (direction == .up || direction == .left) ? high - tip : tip - low
        }
    }

    var depth: Double { min(wantedDepth, room ?? 0) }
    var edge: Double { min(wantedEdge, span) }
    var area: Double { depth * edge }

    var fitsWhole: Bool {
        guard let room else { return false }
        return wantedDepth <= room && wantedEdge <= span
    }

    var holdsSmallestBackground: Bool {
        room != nil && depth >= minimumDepth && edge >= minimumEdge
    }

    /// Centred across the axis on the anchor's midpoint, then pushed inside the
    /// margins; `edge <= span` makes both bounds of the clamp reachable.
    func frame(anchorFrame: Rect, allowed: Rect) -> Rect {
        let (midpoint, low, high) = direction.isVertical
            ? (anchorFrame.midX, allowed.minX, allowed.maxX)
            : (anchorFrame.midY, allowed.minY, allowed.maxY)
        let start = min(max(midpoint - edge / 2, low), high - edge)
        switch direction {
        case .up: return Rect(x: start, y: tip, width: edge, height: depth)
        case .down: return Rect(x: start, y: tip - depth, width: edge, height: depth)
        case .left: return Rect(x: tip, y: start, width: depth, height: edge)
        case .right: return Rect(x: tip - depth, y: start, width: depth, height: edge)
        }
    }
}
