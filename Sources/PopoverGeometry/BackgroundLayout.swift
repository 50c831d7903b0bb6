/// How a popover background of given bounds is drawn from the seven images: which
/// image, whether mirrored, and the one or two cap-inset stretches that produce it
/// (docs/specification.md §5).
///
/// Encodes as
/// `{"direction":"up","image":"up-right","mirrored":true,"stages":[{"width":..,"height":..,"insets":{"top":..,"left":..,"bottom":..,"right":..}}]}`.
public struct BackgroundLayout: Sendable, Hashable, Codable {
    public var direction: ArrowDirection
    public var image: ArrowImage
    /// Drawn flipped left to right; the stages' insets are already the flipped ones.
    public var mirrored: Bool
    /// One stage for a single stretch, two for a two-stage stretch. The last
    /// stage's size is always the bounds.
    public var stages: [StretchStage]

    public init(direction: ArrowDirection, image: ArrowImage, mirrored: Bool, stages: [StretchStage]) {
        self.direction = direction
        self.image = image
        self.mirrored = mirrored
        self.stages = stages
    }

    /// The background's size: the last stage's target.
    public var bounds: Size { stages.last?.size ?? .zero }

    /// Lays out a background.
    ///
    /// The arrow's centre is the middle of its edge plus `arrowOffset` (positive
    /// moves it right or down); `ImageChoice.choose` picks the image from it. A
    /// single stretch draws the (mirrored) image with its (mirrored) cap insets into
    /// the bounds. A two-stage stretch first draws the image into a bitmap of
    /// (stage length x image height) for up/down, or (image width x stage length)
    /// for left/right, which puts the arrow on the centre, then stretches that
    /// bitmap into the bounds with insets
    /// up/down `(image top, L - (r2 + 1), image bottom, r2)` or
    /// left/right `(L - (b2 + 1), image left, b2, image right)`, where L is the
    /// stage length and r2, b2 the second-stage insets. The stage length is rounded
    /// as `StageLength.rounded` describes.
    ///
    /// - Throws: `GeometryError` for invalid metrics, a non-finite offset,
    ///   non-finite or negative bounds, and bounds smaller than
    ///   `metrics.minimumBounds(for: direction)` (the arrow's base plus two corner
    ///   radii along the arrow's edge, its height plus two corner radii across it).
    public static func make(
        bounds: Size, direction: ArrowDirection, arrowOffset: Double,
        metrics: SevenImageMetrics = .standard
    ) throws(GeometryError) -> BackgroundLayout {
        try metrics.validate()
        guard bounds.isFiniteAndNonNegative else { throw .invalidBounds(bounds) }
        guard arrowOffset.isFinite else { throw .nonFiniteArrowOffset(arrowOffset) }
        let minimum = metrics.minimumBounds(for: direction)
        guard bounds.width >= minimum.width, bounds.height >= minimum.height else {
            throw .boundsTooSmall(bounds: bounds, direction: direction, minimum: minimum)
        }

        let edgeLength = direction.isVertical ? bounds.width : bounds.height
        let centre = edgeLength / 2 + arrowOffset
        let choice = ImageChoice.choose(
            direction: direction, edgeLength: edgeLength, arrowCentre: centre,
            arrowBase: metrics.arrowBase, cornerRadius: metrics.cornerRadius)
        let spec = metrics[choice.image]
        let insets = choice.mirrored ? spec.capInsets.mirrored : spec.capInsets

        guard choice.isTwoStage else {
            return BackgroundLayout(
                direction: direction, image: choice.image, mirrored: choice.mirrored,
                stages: [StretchStage(size: bounds, capInsets: insets)])
        }

        let length = StageLength.forTwoStage(
            direction: direction, arrowCentre: centre, image: spec,
            sideArrowCenterOffset: metrics.sideArrowCenterOffset)
        // The second stage keeps (inset + 1) points of the first stage's far end; custom
        // metrics can leave less than that, which no stretch can honour.
        let secondInset = direction.isVertical ? metrics.secondStageRightInset : metrics.secondStageBottomInset
        guard length >= secondInset + 1 else {
            throw .secondStageDoesNotFit(
                image: choice.image, stageLength: length, inset: secondInset,
                metric: direction.isVertical ? "second-stage right inset" : "second-stage bottom inset")
        }
        let first: StretchStage
        let second: StretchStage
        if direction.isVertical {
            let r2 = metrics.secondStageRightInset
            first = StretchStage(size: Size(width: length, height: spec.size.height), capInsets: insets)
            second = StretchStage(
                size: bounds,
                capInsets: EdgeInsets(top: insets.top, left: length - (r2 + 1), bottom: insets.bottom, right: r2))
        } else {
            let b2 = metrics.secondStageBottomInset
            first = StretchStage(size: Size(width: spec.size.width, height: length), capInsets: insets)
            second = StretchStage(
                size: bounds,
                capInsets: EdgeInsets(top: length - (b2 + 1), left: insets.left, bottom: b2, right: insets.right))
        }
        return BackgroundLayout(
            direction: direction, image: choice.image, mirrored: choice.mirrored, stages: [first, second])
    }
}
