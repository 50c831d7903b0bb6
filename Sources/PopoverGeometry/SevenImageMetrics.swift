/// Every number of the seven-image skin, and its seven images' sizes and cap
/// insets (docs/specification.md §2 and §3).
///
/// The original lets a subclass override each of these, so here each is a plain
/// `var`: start from `.standard` and change what a skin changes.
public struct SevenImageMetrics: Sendable, Hashable, Codable {
    public var arrowBase: Double
    public var arrowHeight: Double
    /// Only used by the at-edge tests: how close the arrow may come to a corner
    /// before a corner image takes over.
    public var cornerRadius: Double
    /// The side images' arrow sits this far below their middle; the side
    /// two-stage stretch subtracts it to land the arrow on the centre.
    public var sideArrowCenterOffset: Double
    public var contentInsets: EdgeInsets
    /// The bottom cap of the second stage of a side (left/right) two-stage stretch.
    public var secondStageBottomInset: Double
    /// The right cap of the second stage of an up/down two-stage stretch.
    public var secondStageRightInset: Double

    public var up: ImageSpec
    public var upRight: ImageSpec
    public var down: ImageSpec
    public var downRight: ImageSpec
    public var side: ImageSpec
    public var sideTop: ImageSpec
    public var sideBottom: ImageSpec

    public init(
        arrowBase: Double = 37,
        arrowHeight: Double = 19,
        cornerRadius: Double = 7,
        sideArrowCenterOffset: Double = 7,
        contentInsets: EdgeInsets = EdgeInsets(all: 8),
        secondStageBottomInset: Double = 9,
        secondStageRightInset: Double = 9,
        up: ImageSpec = ArrowImage.up.standardSpec,
        upRight: ImageSpec = ArrowImage.upRight.standardSpec,
        down: ImageSpec = ArrowImage.down.standardSpec,
        downRight: ImageSpec = ArrowImage.downRight.standardSpec,
        side: ImageSpec = ArrowImage.side.standardSpec,
        sideTop: ImageSpec = ArrowImage.sideTop.standardSpec,
        sideBottom: ImageSpec = ArrowImage.sideBottom.standardSpec
    ) {
        self.arrowBase = arrowBase
        self.arrowHeight = arrowHeight
        self.cornerRadius = cornerRadius
        self.sideArrowCenterOffset = sideArrowCenterOffset
        self.contentInsets = contentInsets
        self.secondStageBottomInset = secondStageBottomInset
        self.secondStageRightInset = secondStageRightInset
        self.up = up
        self.upRight = upRight
        self.down = down
        self.downRight = downRight
        self.side = side
        self.sideTop = sideTop
        self.sideBottom = sideBottom
    }

    /// The rendered-image skin of the original.
    public static let standard = SevenImageMetrics()

    /// The sample app's image-file skin: its side-top artwork has a 9-point bottom
    /// cap instead of 23, everything else is standard.
    public static let sampleAppFiles: SevenImageMetrics = {
        var metrics = SevenImageMetrics.standard
        metrics.sideTop.capInsets = EdgeInsets(top: 43, left: 9, bottom: 9, right: 27)
        return metrics
    }()

    public subscript(image: ArrowImage) -> ImageSpec {
        get {
            switch image {
            case .up: up
            case .upRight: upRight
            case .down: down
            case .downRight: downRight
            case .side: side
            case .sideTop: sideTop
            case .sideBottom: sideBottom
            }
        }
        set {
            switch image {
            case .up: up = newValue
            case .upRight: upRight = newValue
            case .down: down = newValue
            case .downRight: downRight = newValue
            case .side: side = newValue
            case .sideTop: sideTop = newValue
            case .sideBottom: sideBottom = newValue
            }
        }
    }

    /// What placement needs of this skin.
    public var popoverMetrics: PopoverMetrics {
        PopoverMetrics(
            arrowBase: arrowBase, arrowHeight: arrowHeight,
            cornerRadius: cornerRadius, contentInsets: contentInsets)
    }

    /// See `PopoverMetrics.minimumBounds(for:)`.
    public func minimumBounds(for direction: ArrowDirection) -> Size {
        popoverMetrics.minimumBounds(for: direction)
    }
}
