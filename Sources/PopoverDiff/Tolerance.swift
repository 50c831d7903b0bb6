/// How far an actual image may stray from its golden and still pass.
///
/// The model follows web-platform-tests' fuzzy reftests: two inclusive ranges that the
/// measured differences must fall in, plus an optional perceptual threshold in the
/// manner of pixelmatch. The default is exact: no pixel may differ.
///
/// - `maxChannelDelta`: the largest difference in any one channel (R, G, B or A, on the
///   0-255 scale) among the counted differing pixels must lie in this range.
/// - `differentPixels`: the number of counted differing pixels must lie in this range.
///   A lower bound above 0 means "expected to differ": identical images then fail.
///   Likewise a `maxChannelDelta` lower bound above 0 fails identical images.
/// - `perceptualThreshold`: when set (0...1), a differing pixel whose YIQ colour
///   distance (alpha blended over white) is at most the threshold, or which looks like
///   anti-aliasing in either image, is *excused*: reported separately, not counted.
///   Pixels are counted exactly as pixelmatch 6.0.0 counts them with this `threshold`.
/// - `countAntiAliasing`: with a perceptual threshold, pixels that look like
///   anti-aliasing are counted as different instead of excused (pixelmatch's
///   `includeAA`). Without a threshold every differing pixel counts anyway.
///
/// Pixels whose alpha is 0 in both images are always equal, whatever their colour
/// channels hold.
///
/// Values built with the throwing initialiser, parsed, or decoded are validated; values
/// changed through the `var` properties can be checked again with ``validated()``.
public struct Tolerance: Sendable, Hashable, CustomStringConvertible {
    /// Inclusive range for the largest per-channel difference among counted pixels, 0-255.
    public var maxChannelDelta: ClosedRange<Int>
    /// Inclusive range for the number of counted differing pixels.
    public var differentPixels: ClosedRange<Int>
    /// pixelmatch-style threshold in 0...1, or nil for off (no pixel is excused).
    public var perceptualThreshold: Double?
    /// Count anti-aliased pixels as different rather than excusing them (pixelmatch's
    /// `includeAA`); matters only with a perceptual threshold.
    public var countAntiAliasing: Bool

    /// Command-line option names, also used in error messages.
    public enum Option {
        public static let maxChannelDelta = "--max-channel-delta"
        public static let differentPixels = "--different-pixels"
        public static let perceptual = "--perceptual"
    }

    /// No pixel may differ; nothing is excused.
    public static let exact = Tolerance(unchecked: 0...0, 0...0, nil)

    /// A validated tolerance. Throws when a channel bound is outside 0-255, a pixel
    /// bound is negative, or the threshold is NaN, infinite or outside 0...1.
    public init(
        maxChannelDelta: ClosedRange<Int> = 0...0,
        differentPixels: ClosedRange<Int> = 0...0,
        perceptualThreshold: Double? = nil,
        countAntiAliasing: Bool = false
    ) throws(ToleranceError) {
        self.init(unchecked: maxChannelDelta, differentPixels, perceptualThreshold, countAntiAliasing: countAntiAliasing)
        try validate()
    }

    /// Builds a tolerance from command-line strings; nil means "not given" (exact).
    ///
    /// - `maxChannelDelta`, `differentPixels`: `"N"` means `0...N`, `"N-M"` means `N...M`.
    /// - `perceptual`: a number in 0...1 such as `"0.1"`, or `"off"`.
    /// - `countAntiAliasing`: the flag `--count-anti-aliasing`.
    public init(
        parsingMaxChannelDelta maxChannelDelta: String?,
        differentPixels: String?,
        perceptual: String?,
        countAntiAliasing: Bool = false
    ) throws(ToleranceError) {
        self = .exact
        self.countAntiAliasing = countAntiAliasing
        if let maxChannelDelta {
            self.maxChannelDelta = try Tolerance.parseRange(maxChannelDelta, option: Option.maxChannelDelta)
            try Tolerance.checkChannelRange(self.maxChannelDelta, option: Option.maxChannelDelta)
        }
        if let differentPixels {
            self.differentPixels = try Tolerance.parseRange(differentPixels, option: Option.differentPixels)
            try Tolerance.checkPixelRange(self.differentPixels, option: Option.differentPixels)
        }
        if let perceptual {
            perceptualThreshold = try Tolerance.parseThreshold(perceptual, option: Option.perceptual)
        }
    }

    public init(unchecked maxChannelDelta: ClosedRange<Int>, _ differentPixels: ClosedRange<Int>, _ threshold: Double?,
                countAntiAliasing: Bool = false) {
        self.maxChannelDelta = maxChannelDelta
        self.differentPixels = differentPixels
        self.perceptualThreshold = threshold
        self.countAntiAliasing = countAntiAliasing
    }

    /// True when nothing may differ and nothing is excused.
    public var isExact: Bool { self == .exact }

    /// Returns `self` if every option is usable, otherwise throws naming the first bad one.
    @discardableResult
    public func validated() throws(ToleranceError) -> Tolerance {
        try validate()
        return self
    }

    /// Throws naming the first option outside its limits; the option names say where the
    /// value came from (a command-line flag, or a key path in a file).
    public func validate(
        channelOption: String = Option.maxChannelDelta,
        pixelsOption: String = Option.differentPixels,
        perceptualOption: String = Option.perceptual
    ) throws(ToleranceError) {
        try Tolerance.checkChannelRange(maxChannelDelta, option: channelOption)
        try Tolerance.checkPixelRange(differentPixels, option: pixelsOption)
        if let perceptualThreshold {
            try Tolerance.checkThreshold(perceptualThreshold, option: perceptualOption)
        }
    }

    /// "exact", or e.g. "max channel delta 0-2, different pixels 0-300, perceptual 0.1",
    /// with ", anti-aliasing counted" when `countAntiAliasing` is set.
    public var description: String {
        if isExact { return "exact" }
        var parts = [
            "max channel delta \(Tolerance.format(maxChannelDelta))",
            "different pixels \(Tolerance.format(differentPixels))",
        ]
        if let perceptualThreshold { parts.append("perceptual \(perceptualThreshold)") }
        if countAntiAliasing { parts.append("anti-aliasing counted") }
        return parts.joined(separator: ", ")
    }
}

// MARK: - Parsing and checks

extension Tolerance {
    /// Parses a range option: `"N"` is `0...N`, `"N-M"` is `N...M` (inclusive, decimal
    /// digits only, surrounding spaces ignored). Only the syntax is checked here; the
    /// limits of a particular option are checked by ``validated()``.
    public static func parseRange(_ text: String, option: String) throws(ToleranceError) -> ClosedRange<Int> {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int? {
            let digits = part.trimmingSpaces
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(digits)
        }
        switch parts.count {
        case 1:
            guard let upper = number(parts[0]) else {
                throw ToleranceError(option: option, value: text, problem: .notARange)
            }
            return 0...upper
        case 2:
            guard let lower = number(parts[0]), let upper = number(parts[1]) else {
                throw ToleranceError(option: option, value: text, problem: .notARange)
            }
            guard lower <= upper else {
                throw ToleranceError(option: option, value: text, problem: .reversedRange)
            }
            return lower...upper
        default:
            throw ToleranceError(option: option, value: text, problem: .notARange)
        }
    }

    /// Parses a perceptual threshold: a decimal number in 0...1, or `"off"` (nil).
    public static func parseThreshold(_ text: String, option: String = Option.perceptual) throws(ToleranceError) -> Double? {
        let trimmed = text.trimmingSpaces
        if trimmed.lowercased() == "off" { return nil }
        guard let value = Double(trimmed) else {
            throw ToleranceError(option: option, value: text, problem: .notANumber)
        }
        try checkThreshold(value, option: option)
        return value
    }

    public static func checkChannelRange(_ range: ClosedRange<Int>, option: String) throws(ToleranceError) {
        if range.lowerBound < 0 {
            throw ToleranceError(option: option, value: String(range.lowerBound), problem: .outside(allowed: "0-255"))
        }
        if range.upperBound > 255 {
            throw ToleranceError(option: option, value: String(range.upperBound), problem: .outside(allowed: "0-255"))
        }
    }

    public static func checkPixelRange(_ range: ClosedRange<Int>, option: String) throws(ToleranceError) {
        if range.lowerBound < 0 {
            throw ToleranceError(option: option, value: String(range.lowerBound), problem: .negative)
        }
    }

    public static func checkThreshold(_ value: Double, option: String) throws(ToleranceError) {
        guard value.isFinite else {
            throw ToleranceError(option: option, value: "\(value)", problem: .notFinite)
        }
        guard (0...1).contains(value) else {
            throw ToleranceError(option: option, value: "\(value)", problem: .outside(allowed: "0-1"))
        }
    }

    /// "N-M", the form `parseRange` reads back.
    public static func format(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)-\(range.upperBound)"
    }
}

extension StringProtocol {
    var trimmingSpaces: Substring {
        let scalars = self[...]
        guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isWhitespace })
        else { return Substring() }
        return Substring(scalars[first...last])
    }
}
