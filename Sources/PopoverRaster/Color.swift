/// A colour as a designer states it: straight (not premultiplied) red, green, blue and
/// alpha, each 0...1, in device RGB.
public struct Color: Sendable, Hashable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let clear = Color(white: 0, alpha: 0)

    /// Parses "#rrggbb" or "#rrggbbaa" (the hash is optional), as users write colours on
    /// a command line. Returns nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let v = digits.count == 6 ? (value << 8) | 0xFF : value
        self.init(red: Double((v >> 24) & 0xFF) / 255, green: Double((v >> 16) & 0xFF) / 255,
                  blue: Double((v >> 8) & 0xFF) / 255, alpha: Double(v & 0xFF) / 255)
    }

    /// The colour with its alpha multiplied by `opacity`.
    public func withOpacity(_ opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// The premultiplied 8-bit pixel for this colour: each channel is rounded once, after
    /// multiplying by alpha, so a colour always lands on the same bytes.
    public var premultiplied: PremultipliedPixel {
        let a = Self.clamp(alpha)
        return PremultipliedPixel(r: Self.byte(Self.clamp(red) * a), g: Self.byte(Self.clamp(green) * a),
                                  b: Self.byte(Self.clamp(blue) * a), a: Self.byte(a))
    }

    static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
    static func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
}

/// One pixel as the bitmap stores it: 8 bits a channel, colour multiplied by alpha.
public struct PremultipliedPixel: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let transparent = PremultipliedPixel(r: 0, g: 0, b: 0, a: 0)
}
