import PopoverGeometry
import Testing

/// Ease-in-ease-out: x(s) = 3(1-s)^2 s 0.42 + 3(1-s) s^2 0.58 + s^3,
/// y(s) = 3(1-s) s^2 + s^3.
@Suite("The ease-in-ease-out curve")
struct TimingCurveTests {
    let curve = TimingCurve.easeInEaseOut

    @Test("ends are exact")
    func endsAreExact() {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
    }

    /// s = 1/2: x = 0.375 x 0.42 + 0.375 x 0.58 + 0.125 = 0.5, y = 0.375 + 0.125 = 0.5.
    @Test("middle is a half by symmetry")
    func middleIsAHalfBySymmetry() {
        #expect(isClose(curve.value(at: 0.5), 0.5))
    }

    /// s = 1/4: x = 3 x 0.5625 x 0.25 x 0.42 + 3 x 0.75 x 0.0625 x 0.58 + 0.015625
    ///            = 0.1771875 + 0.0815625 + 0.015625 = 0.274375,
    ///          y = 3 x 0.75 x 0.0625 + 0.015625 = 0.15625.
    /// s = 3/4 mirrors it: x = 1 - 0.274375 = 0.725625, y = 1 - 0.15625 = 0.84375.
    @Test("points worked out by hand", arguments: [(0.274375, 0.15625), (0.725625, 0.84375)])
    func pointsWorkedOutByHand(fraction: Double, expected: Double) {
        #expect(isClose(curve.value(at: fraction), expected))
    }

    @Test("symmetric and rising")
    func symmetricAndRising() {
        let fractions = (0...100).map { Double($0) / 100 }
        let values = fractions.map(curve.value(at:))
        for (fraction, value) in zip(fractions, values) {
            #expect(isClose(value + curve.value(at: 1 - fraction), 1))
        }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("fractions outside the curve are clamped")
    func fractionsOutsideTheCurveAreClamped() {
        #expect(curve.value(at: -1) == 0)
        #expect(curve.value(at: 2) == 1)
        #expect(curve.value(at: .nan) == 0)
    }

    @Test("control points must keep x within zero to one")
    func controlPointsMustKeepXWithinZeroToOne() throws {
        #expect(throws: Never.self) { try TimingCurve(control1: Point(x: 0.42, y: 0), control2: Point(x: 0.58, y: 1)) }
        // y may overshoot (a "back" curve); x may not.
        #expect(throws: Never.self) { try TimingCurve(control1: Point(x: 0.3, y: -0.5), control2: Point(x: 0.7, y: 1.5)) }
        let error = #expect(throws: GeometryError.self) {
            try TimingCurve(control1: Point(x: 1.5, y: 0), control2: Point(x: 0.58, y: 1))
        }
        #expect(error?.description
            == "timing curve control points must be finite with x within 0...1, got (1.5, 0) and (0.58, 1)")
        #expect(throws: GeometryError.self) {
            try TimingCurve(control1: Point(x: 0.42, y: .nan), control2: Point(x: 0.58, y: 1))
        }
    }
}
