/// What a PNG's IHDR chunk says about the image, before any decoding.
public struct PNGHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Bits per sample (per palette index for `.palette`): 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    public var colourType: PNGColourType
    /// Adam7 interlacing.
    public var interlaced: Bool

    public init(width: Int, height: Int, bitDepth: Int, colourType: PNGColourType, interlaced: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colourType = colourType
        self.interlaced = interlaced
    }
}

/// PNG colour types, with their numbers in the file.
public enum PNGColourType: Int, Sendable, CaseIterable {
    case grey = 0
    case rgb = 2
    case palette = 3
    case greyAlpha = 4
    case rgba = 6
}
