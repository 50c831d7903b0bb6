/// Which image a background uses for an arrow at a given place on its edge, and
/// whether it is stretched once or twice (docs/specification.md §5.2).
public struct ImageChoice: Sendable, Hashable {
    public var image: ArrowImage
    public var mirrored: Bool
    /// Centred arrows need two stretches, one each side of the arrow; arrows near
    /// a corner use a corner image stretched once.
    public var isTwoStage: Bool

    public init(image: ArrowImage, mirrored: Bool, isTwoStage: Bool) {
        self.image = image
        self.mirrored = mirrored
        self.isTwoStage = isTwoStage
    }

    /// Applies the at-edge tests with the original's strict comparisons:
    /// near the start (left or top) when `centre - base/2 < cornerRadius`, near the
    /// end (right or bottom) when `centre + base/2 > edgeLength - cornerRadius`.
    ///
    /// Does no validation. `BackgroundLayout.make` rejects bounds shorter than
    /// `arrowBase + 2 x cornerRadius` along the arrow's edge, and on such bounds
    /// both tests can never hold at once; the both-ends rule (up/down: mirrored
    /// corner image; left/right: side-top wins) is kept for parity with the
    /// original and is reachable only through this function.
    ///
    /// - Parameters:
    ///   - edgeLength: the bounds' width for up/down arrows, height for left/right.
    ///   - arrowCentre: the arrow's centre along that edge, from its start.
    public static func choose(
        direction: ArrowDirection, edgeLength: Double, arrowCentre: Double,
        arrowBase: Double, cornerRadius: Double
    ) -> ImageChoice {
        let halfBase = arrowBase / 2
        let nearStart = arrowCentre - halfBase < cornerRadius
        let nearEnd = arrowCentre + halfBase > edgeLength - cornerRadius
        let nearCorner = nearStart || nearEnd
        switch direction {
        case .up:
            return ImageChoice(image: nearCorner ? .upRight : .up, mirrored: nearStart, isTwoStage: !nearCorner)
        case .down:
            return ImageChoice(image: nearCorner ? .downRight : .down, mirrored: nearStart, isTwoStage: !nearCorner)
        case .left, .right:
            // The side artwork points right; a left arrow is the same picture flipped.
            let image: ArrowImage = nearStart ? .sideTop : nearEnd ? .sideBottom : .side
            return ImageChoice(image: image, mirrored: direction == .left, isTwoStage: !nearCorner)
        }
    }
}
