/// One source image as the layout sees it: how big it is and which part of it may
/// stretch. The pixels are someone else's business.
public struct ImageSpec: Sendable, Hashable, Codable {
    public var size: Size
    public var capInsets: EdgeInsets

    public init(size: Size, capInsets: EdgeInsets) {
        self.size = size
        self.capInsets = capInsets
    }

    public init(width: Double, height: Double, capInsets: EdgeInsets) {
        self.init(size: Size(width: width, height: height), capInsets: capInsets)
    }

    /// The region left between the caps; negative when the caps overlap.
    public var stretchableSize: Size {
        Size(
            width: size.width - capInsets.left - capInsets.right,
            height: size.height - capInsets.top - capInsets.bottom
        )
    }
}
