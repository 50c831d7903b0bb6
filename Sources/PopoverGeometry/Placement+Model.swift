extension Placement {
    /// Distance the popover keeps from every edge of the visible view.
    public static let margin: Double = 10

    /// Places a popover presented from `anchorFrame` in a view of `viewSize`, by
    /// the model in `Placement`'s documentation. `keyboardHeight` hides that much
    /// of the view's bottom.
    ///
    /// - Throws: `GeometryError` for non-finite or negative inputs, invalid
    ///   metrics, and `.noRoom(anchor:direction:orientation:)` (with the frame as
    ///   the anchor and no orientation) when nothing permitted can be placed.
    public static func make(
        anchorFrame: Rect, viewSize: Size, keyboardHeight: Double = 0,
        permitted: PermittedDirections, contentSize: Size, metrics: PopoverMetrics = .sevenImage
    ) throws(GeometryError) -> Placement {
        try place(
            anchorFrame: anchorFrame, viewSize: viewSize, keyboardHeight: keyboardHeight,
            permitted: permitted, contentSize: contentSize, metrics: metrics,
            anchorName: anchorFrame.description, orientation: nil)
    }

    /// Places the popover of one of the sample app's anchors, in its frame and
    /// view for `orientation`. The permitted directions and content size default to
    /// the anchor's own; pass others to force a direction or try another content.
    public static func make(
        anchor: Anchor, orientation: Orientation, permitted: PermittedDirections? = nil,
        contentSize: Size? = nil, keyboardHeight: Double = 0, metrics: PopoverMetrics = .sevenImage
    ) throws(GeometryError) -> Placement {
        try place(
            anchorFrame: anchor.frame(in: orientation), viewSize: orientation.viewSize,
            keyboardHeight: keyboardHeight, permitted: permitted ?? anchor.permitted,
            contentSize: contentSize ?? anchor.contentSize, metrics: metrics,
            anchorName: anchor.name, orientation: orientation)
    }

    /// The arrow offset that puts the tip on the anchor's midpoint, clamped so the
    /// arrow's base stays on the popover's edge.
    public static func arrowOffset(
        anchorFrame: Rect, popoverFrame: Rect, direction: ArrowDirection, arrowBase: Double
    ) -> Double {
        let wanted = direction.isVertical
            ? anchorFrame.midX - popoverFrame.midX
            : anchorFrame.midY - popoverFrame.midY
        let edge = direction.isVertical ? popoverFrame.width : popoverFrame.height
        let limit = max(edge / 2 - arrowBase / 2, 0)
        return min(max(wanted, -limit), limit)
    }

    private static func place(
        anchorFrame: Rect, viewSize: Size, keyboardHeight: Double,
        permitted: PermittedDirections, contentSize: Size, metrics: PopoverMetrics,
        anchorName: String, orientation: Orientation?
    ) throws(GeometryError) -> Placement {
        try metrics.validate()
        guard anchorFrame.isFiniteWithNonNegativeSize else { throw .invalidAnchorFrame(anchorFrame) }
        guard viewSize.isFiniteAndNonNegative else { throw .invalidViewSize(viewSize) }
        guard keyboardHeight.isFinite, keyboardHeight >= 0 else { throw .invalidKeyboardHeight(keyboardHeight) }
        guard contentSize.isFiniteAndNonNegative else { throw .invalidContentSize(contentSize) }

        let visible = Rect(x: 0, y: 0, width: viewSize.width, height: viewSize.height - keyboardHeight)
        let allowed = visible.inset(by: EdgeInsets(all: margin))
        let options = permitted.directions.map { direction in
            PlacementOption(
                direction: direction, anchorFrame: anchorFrame, allowed: allowed,
                contentSize: contentSize, metrics: metrics)
        }

        let chosen: PlacementOption?
        if let whole = options.first(where: \.fitsWhole) {
            chosen = whole
        } else {
            // Strictly larger only, so equal areas keep the earlier direction.
            chosen = options.filter(\.holdsSmallestBackground).reduce(nil) { best, option in
                guard let best, best.area >= option.area else { return option }
                return best
            }
        }
        guard let chosen else {
            throw .noRoom(anchor: anchorName, direction: permitted, orientation: orientation)
        }
        let frame = chosen.frame(anchorFrame: anchorFrame, allowed: allowed)
        return Placement(
            direction: chosen.direction, frame: frame,
            arrowOffset: arrowOffset(
                anchorFrame: anchorFrame, popoverFrame: frame, direction: chosen.direction,
                arrowBase: metrics.arrowBase))
    }
}
