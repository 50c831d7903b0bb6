/// How the first stage of a two-stage stretch is measured.
public enum StageLength {
    /// Rounds like C `roundf`: the value is first converted to `Float`, then
    /// rounded half away from zero, because that is what the original did with
    /// its stage length. Rounding fixed visible seams that fractional stage sizes
    /// left.
    ///
    /// The `Float` conversion matters at the edges: 136.4999999 becomes the float
    /// 136.5 and rounds to 137, where rounding the `Double` would give 136.
    public static func rounded(_ value: Double) -> Double {
        Double(Float(value).rounded(.toNearestOrAwayFromZero))
    }

    /// The stage-1 length along the arrow's edge that lands the image's arrow on
    /// `arrowCentre` (docs/specification.md §5.5).
    ///
    /// Up/down: `round(centre + (imageWidth - 1) / 2)`, the up image's tip being
    /// at x = (57 - 1) / 2 = 28. Left/right: `round(centre + imageHeight / 2 - 1 -
    /// sideArrowCenterOffset)`, the side image's arrow sitting 7 below its middle.
    public static func forTwoStage(
        direction: ArrowDirection, arrowCentre: Double, image: ImageSpec, sideArrowCenterOffset: Double
    ) -> Double {
        if direction.isVertical {
            return rounded(arrowCentre + (image.size.width - 1) / 2)
        }
        return rounded(arrowCentre + image.size.height / 2 - 1 - sideArrowCenterOffset)
    }
}
