/// The numbers every skin shares, and all that placement needs to know about a
/// skin: how big the arrow is, how round the corners are, how far the content sits
/// from the background's edge.
public struct PopoverMetrics: Sendable, Hashable, Codable {
    /// Width of the arrow's triangle, along the edge that carries it.
    public var arrowBase: Double
    /// Base to tip.
    public var arrowHeight: Double
    public var cornerRadius: Double
    /// Background edge to content edge. The arrow's height comes on top of these on
    /// the arrow's side.
    public var contentInsets: EdgeInsets

    public init(arrowBase: Double, arrowHeight: Double, cornerRadius: Double, contentInsets: EdgeInsets) {
        self.arrowBase = arrowBase
        self.arrowHeight = arrowHeight
        self.cornerRadius = cornerRadius
        self.contentInsets = contentInsets
    }

    /// The seven-image skin (docs/specification.md §2).
    public static let sevenImage = SevenImageMetrics.standard.popoverMetrics

    /// The two-asset skin (docs/specification.md §10): a 15-point corner mask.
    public static let twoAsset = PopoverMetrics(
        arrowBase: 31, arrowHeight: 70, cornerRadius: 15, contentInsets: EdgeInsets(all: 10))

    /// The path skin (docs/specification.md §11).
    public static let path = PopoverMetrics(
        arrowBase: 30, arrowHeight: 15, cornerRadius: 10, contentInsets: EdgeInsets(all: 10))

    /// The smallest background that still holds two corners and the arrow.
    ///
    /// Along the arrow's edge: the arrow's base plus a corner at each end
    /// (37 + 2 x 7 = 51 for the seven-image skin). Across it: the arrow's height plus
    /// two corners (19 + 2 x 7 = 33). Anything smaller cannot be drawn without the
    /// arrow running into a corner, so the layout rejects it and placement never
    /// produces it.
    public func minimumBounds(for direction: ArrowDirection) -> Size {
        let alongEdge = arrowBase + 2 * cornerRadius
        let acrossEdge = arrowHeight + 2 * cornerRadius
        return direction.isVertical
            ? Size(width: alongEdge, height: acrossEdge)
            : Size(width: acrossEdge, height: alongEdge)
    }

    /// Throws unless every number is finite and not negative.
    public func validate() throws(GeometryError) {
        try requireMetric("arrow base", arrowBase)
        try requireMetric("arrow height", arrowHeight)
        try requireMetric("corner radius", cornerRadius)
        try requireMetric("content insets", contentInsets)
    }
}

func requireMetric(_ name: String, _ value: Double) throws(GeometryError) {
    guard value.isFinite, value >= 0 else {
        throw .invalidMetric(name: name, value: value)
    }
}

func requireMetric(_ name: String, _ insets: EdgeInsets) throws(GeometryError) {
    try requireMetric("\(name) top", insets.top)
    try requireMetric("\(name) left", insets.left)
    try requireMetric("\(name) bottom", insets.bottom)
    try requireMetric("\(name) right", insets.right)
}
