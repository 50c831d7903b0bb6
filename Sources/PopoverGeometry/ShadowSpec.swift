/// The drop shadow of the iOS 5 path (docs/specification.md §7): black at 90 %
/// opacity, radius 20, cast 10 points down.
///
/// The radius is Core Animation's `shadowRadius`; turning it into a blur is the
/// renderer's decision, not this module's.
public struct ShadowSpec: Sendable, Hashable, Codable {
    /// Straight (not premultiplied) components in 0...1.
    public struct RGBA: Sendable, Hashable, Codable {
        public var red: Double
        public var green: Double
        public var blue: Double
        public var alpha: Double

        public init(red: Double, green: Double, blue: Double, alpha: Double) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        public static let black = RGBA(red: 0, green: 0, blue: 0, alpha: 1)
    }

    public var color: RGBA
    public var opacity: Double
    public var radius: Double
    /// Like `CGSize shadowOffset`: positive height moves the shadow down.
    public var offset: Size

    public init(color: RGBA, opacity: Double, radius: Double, offset: Size) {
        self.color = color
        self.opacity = opacity
        self.radius = radius
        self.offset = offset
    }

    public static let standard = ShadowSpec(
        color: .black, opacity: 0.9, radius: 20, offset: Size(width: 0, height: 10))
}
