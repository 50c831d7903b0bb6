/// SplitMix64: the tests' one seeded generator, so every run of a property test draws the
/// same samples and a failure can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One byte: the low eight bits of the next draw.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    /// A number in 0..<1 from the top 53 bits of the next draw, spelled out here rather
    /// than left to the standard library's `Double.random(in:using:)`, whose way of
    /// drawing is not promised to stay the same between Swift versions.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
