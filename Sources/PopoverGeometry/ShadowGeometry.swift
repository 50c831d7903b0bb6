/// Where the shadow is cast from.
public enum ShadowGeometry {
    /// The shadow path: the bounds less the strip that holds the arrow, as a plain
    /// rectangle. The original casts no shadow from the arrow itself, so neither do we.
    ///
    /// - Throws: `GeometryError` for non-finite or negative bounds, a non-finite or
    ///   negative arrow height, or an arrow taller than the bounds on its axis.
    public static func shadowRect(
        bounds: Size, direction: ArrowDirection, arrowHeight: Double
    ) throws(GeometryError) -> Rect {
        guard bounds.isFiniteAndNonNegative else { throw .invalidBounds(bounds) }
        try requireMetric("arrow height", arrowHeight)
        let depth = direction.isVertical ? bounds.height : bounds.width
        guard arrowHeight <= depth else {
            throw .arrowHeightExceedsBounds(arrowHeight: arrowHeight, bounds: bounds, direction: direction)
        }
        let (width, height) = (bounds.width, bounds.height)
        switch direction {
        case .up: return Rect(x: 0, y: arrowHeight, width: width, height: height - arrowHeight)
        case .down: return Rect(x: 0, y: 0, width: width, height: height - arrowHeight)
        case .left: return Rect(x: arrowHeight, y: 0, width: width - arrowHeight, height: height)
        case .right: return Rect(x: 0, y: 0, width: width - arrowHeight, height: height)
        }
    }
}
