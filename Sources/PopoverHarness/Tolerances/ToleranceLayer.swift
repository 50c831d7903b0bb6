import PopoverDiff
import PopoverSkins

/// One layer of a tolerance policy (`tolerances.json`): options it leaves nil are inherited from the layer
/// below (a skin's layer from the suite default, a case's from its skin's).
///
/// Also the natural type for command-line flags laid over a configuration file: build one
/// with ``init(parsingMaxChannelDelta:differentPixels:perceptual:)`` and apply it last.
public struct ToleranceLayer: Sendable, Hashable {
    /// A layer's perceptual setting: explicitly off, or a threshold in 0...1.
    public enum Perceptual: Sendable, Hashable {
        case off
        case threshold(Double)
    }

    public var maxChannelDelta: ClosedRange<Int>?
    public var differentPixels: ClosedRange<Int>?
    /// nil inherits; `.off` turns the perceptual threshold off; `.threshold(t)` sets it.
    public var perceptual: Perceptual?
    /// nil inherits; otherwise whether anti-aliased pixels are counted rather than excused.
    public var countAntiAliasing: Bool?
    /// nil inherits; otherwise the parts of the popover whose differences are excused
    /// (JSON `"ignore": ["shadow"]`): a person reworking the shadow holds the rest exact.
    public var ignore: [PopoverPart]?

    /// An unvalidated layer; see ``validated()``.
    public init(
        maxChannelDelta: ClosedRange<Int>? = nil,
        differentPixels: ClosedRange<Int>? = nil,
        perceptual: Perceptual? = nil,
        countAntiAliasing: Bool? = nil
    ) {
        self.maxChannelDelta = maxChannelDelta
        self.differentPixels = differentPixels
        self.perceptual = perceptual
        self.countAntiAliasing = countAntiAliasing
    }

    /// Parses command-line strings (nil = option not given) and validates them.
    /// Ranges: `"N"` = `0...N`, `"N-M"` = `N...M`. Perceptual: `"0.1"` or `"off"`.
    public init(
        parsingMaxChannelDelta maxChannelDelta: String?,
        differentPixels: String?,
        perceptual: String?,
        countAntiAliasing: Bool? = nil
    ) throws(ToleranceError) {
        self.init(countAntiAliasing: countAntiAliasing)
        if let maxChannelDelta {
            let range = try Tolerance.parseRange(maxChannelDelta, option: Tolerance.Option.maxChannelDelta)
            try Tolerance.checkChannelRange(range, option: Tolerance.Option.maxChannelDelta)
            self.maxChannelDelta = range
        }
        if let differentPixels {
            let range = try Tolerance.parseRange(differentPixels, option: Tolerance.Option.differentPixels)
            try Tolerance.checkPixelRange(range, option: Tolerance.Option.differentPixels)
            self.differentPixels = range
        }
        if let perceptual {
            if let threshold = try Tolerance.parseThreshold(perceptual, option: Tolerance.Option.perceptual) {
                self.perceptual = .threshold(threshold)
            } else {
                self.perceptual = .off
            }
        }
    }

    /// True when the layer changes nothing.
    public var isEmpty: Bool {
        maxChannelDelta == nil && differentPixels == nil && perceptual == nil && countAntiAliasing == nil && ignore == nil
    }

    /// Returns `self` if every option it sets is usable, otherwise throws naming it.
    @discardableResult
    public func validated() throws(ToleranceError) -> ToleranceLayer {
        try validate()
        return self
    }

    func validate(
        channelOption: String = Tolerance.Option.maxChannelDelta,
        pixelsOption: String = Tolerance.Option.differentPixels,
        perceptualOption: String = Tolerance.Option.perceptual
    ) throws(ToleranceError) {
        if let maxChannelDelta { try Tolerance.checkChannelRange(maxChannelDelta, option: channelOption) }
        if let differentPixels { try Tolerance.checkPixelRange(differentPixels, option: pixelsOption) }
        if case .threshold(let value)? = perceptual { try Tolerance.checkThreshold(value, option: perceptualOption) }
    }
}

extension Tolerance {
    /// This tolerance with every option `layer` sets replaced by the layer's value.
    public func applying(_ layer: ToleranceLayer) -> Tolerance {
        var result = self
        if let range = layer.maxChannelDelta { result.maxChannelDelta = range }
        if let range = layer.differentPixels { result.differentPixels = range }
        switch layer.perceptual {
        case nil: break
        case .off?: result.perceptualThreshold = nil
        case .threshold(let value)?: result.perceptualThreshold = value
        }
        if let counts = layer.countAntiAliasing { result.countAntiAliasing = counts }
        return result
    }
}
