import PopoverRaster

/// The three colours the seven images are rendered from.
public struct ColorSet: Sendable, Hashable {
    public var border: Color
    public var gradientFrom: Color
    public var gradientTo: Color

    public init(border: Color, gradientFrom: Color, gradientTo: Color) {
        self.border = border
        self.gradientFrom = gradientFrom
        self.gradientTo = gradientTo
    }

    /// The original's default colours: a black border over a gradient from translucent
    /// light grey to dark grey.
    public static let standard = ColorSet(
        border: .black,
        gradientFrom: Color(red: 0.8, green: 0.8, blue: 0.8, alpha: 0.8),
        gradientTo: Color(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3, alpha: 1))

    /// The sample app's "rendered" screen: warm greys.
    public static let sampleApp = ColorSet(
        border: Color(red: 0.439216, green: 0.431373, blue: 0.407843),
        gradientFrom: Color(red: 0.980392, green: 0.976471, blue: 0.964706),
        gradientTo: Color(red: 0.858824, green: 0.835294, blue: 0.807843))
}
