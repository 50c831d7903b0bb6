/// One cap-inset stretch: draw a source image with these cap insets into a target
/// of this size.
///
/// In a single stretch the source is the chosen (possibly mirrored) image and the
/// target is the background's bounds. In a two-stage stretch the first stage's
/// source is the image and its target a new bitmap; the second stage's source is
/// that bitmap and its target the bounds.
///
/// Encodes as `{"width":..,"height":..,"insets":{..}}`: the goldens' files list
/// stages flat.
public struct StretchStage: Sendable, Hashable {
    public var size: Size
    public var capInsets: EdgeInsets

    /// Public so fixtures can describe stages the layout would never produce
    /// (fractional sizes, overlapping caps) to exercise a renderer.
    public init(size: Size, capInsets: EdgeInsets) {
        self.size = size
        self.capInsets = capInsets
    }
}

extension StretchStage: Codable {
    private enum CodingKeys: String, CodingKey {
        case width, height, insets
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            size: Size(
                width: try container.decode(Double.self, forKey: .width),
                height: try container.decode(Double.self, forKey: .height)),
            capInsets: try container.decode(EdgeInsets.self, forKey: .insets))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(size.width, forKey: .width)
        try container.encode(size.height, forKey: .height)
        try container.encode(capInsets, forKey: .insets)
    }
}
