import PopoverGeometry
import Testing

/// Bounds 216 x 235: a 200 x 200 content plus 8 + 8 insets, plus the 19-point
/// arrow on the vertical axis. Arrow centre = 216 / 2 + offset = 108 + offset.
///   at left  <=> centre - 18.5 < 7         <=> centre < 25.5  <=> offset < -82.5
///   at right <=> centre + 18.5 > 216 - 7   <=> centre > 190.5 <=> offset >  82.5
/// Two-stage stage length L = roundf(centre + (57 - 1) / 2) = roundf(centre + 28).
/// Stage 2 insets: (image top, L - (9 + 1), image bottom, 9).
@Suite("Layouts of up and down arrows, from a hand-worked table")
struct UpDownLayoutTests {
    static let up = insets(41, 9, 9, 47)
    static let upRight = insets(41, 9, 9, 42)
    static let upLeft = insets(41, 42, 9, 9)  // up-right mirrored
    static let down = insets(23, 9, 27, 47)
    static let downRight = insets(23, 9, 27, 42)
    static let downLeft = insets(23, 42, 27, 9)  // down-right mirrored

    static let upCases: [LayoutCase] = [
        // centre 108; L = 108 + 28 = 136; stage 2 left 136 - 10 = 126.
        LayoutCase(216, 235, .up, offset: 0, .up, stage(136, 51, up), stage(216, 235, insets(41, 126, 9, 9))),
        // centre 25.5: 25.5 - 18.5 = 7 is not < 7, still centred; L = roundf(53.5) = 54, left 44.
        LayoutCase(216, 235, .up, offset: -82.5, .up, stage(54, 51, up), stage(216, 235, insets(41, 44, 9, 9))),
        // centre 25: 6.5 < 7, at left: up-right mirrored, one stretch.
        LayoutCase(216, 235, .up, offset: -83, .upRight, mirrored: true, stage(216, 235, upLeft)),
        // centre 26: 7.5, centred; L = 54.
        LayoutCase(216, 235, .up, offset: -82, .up, stage(54, 51, up), stage(216, 235, insets(41, 44, 9, 9))),
        // centre 190.5: 209 is not > 209; L = roundf(218.5) = 219, left 209.
        LayoutCase(216, 235, .up, offset: 82.5, .up, stage(219, 51, up), stage(216, 235, insets(41, 209, 9, 9))),
        // centre 191: 209.5 > 209, at right: up-right as drawn.
        LayoutCase(216, 235, .up, offset: 83, .upRight, stage(216, 235, upRight)),
        // centre 190: L = 218, left 208.
        LayoutCase(216, 235, .up, offset: 82, .up, stage(218, 51, up), stage(216, 235, insets(41, 208, 9, 9))),
        // Far outside the edge is still just "at left" / "at right".
        LayoutCase(216, 235, .up, offset: -500, .upRight, mirrored: true, stage(216, 235, upLeft)),
        LayoutCase(216, 235, .up, offset: 500, .upRight, stage(216, 235, upRight)),
        // Odd width: centre 107.5, 107.5 + 28 = 135.5 rounds up to 136.
        LayoutCase(215, 235, .up, offset: 0, .up, stage(136, 51, up), stage(215, 235, insets(41, 126, 9, 9))),
        // Smallest bounds, 51 x 33: centre 25.5 passes both tests (7 !< 7, 44 !> 44);
        // L = 54 is wider than the bounds, which is the renderer's documented corner case.
        LayoutCase(51, 33, .up, offset: 0, .up, stage(54, 51, up), stage(51, 33, insets(41, 44, 9, 9))),
        // centre 25: 6.5 < 7, at left; 43.5 !> 44.
        LayoutCase(51, 33, .up, offset: -0.5, .upRight, mirrored: true, stage(51, 33, upLeft)),
        // centre 26: 7.5 !< 7; 44.5 > 44, at right.
        LayoutCase(51, 33, .up, offset: 0.5, .upRight, stage(51, 33, upRight)),
    ]

    static let downCases: [LayoutCase] = [
        // Same thresholds and lengths as up; the down image's caps are (23, 9, 27, 47).
        LayoutCase(216, 235, .down, offset: 0, .down, stage(136, 51, down), stage(216, 235, insets(23, 126, 27, 9))),
        LayoutCase(216, 235, .down, offset: -82.5, .down, stage(54, 51, down), stage(216, 235, insets(23, 44, 27, 9))),
        LayoutCase(216, 235, .down, offset: -83, .downRight, mirrored: true, stage(216, 235, downLeft)),
        LayoutCase(216, 235, .down, offset: -82, .down, stage(54, 51, down), stage(216, 235, insets(23, 44, 27, 9))),
        LayoutCase(216, 235, .down, offset: 82.5, .down, stage(219, 51, down), stage(216, 235, insets(23, 209, 27, 9))),
        LayoutCase(216, 235, .down, offset: 83, .downRight, stage(216, 235, downRight)),
        LayoutCase(216, 235, .down, offset: 82, .down, stage(218, 51, down), stage(216, 235, insets(23, 208, 27, 9))),
        LayoutCase(51, 33, .down, offset: -0.5, .downRight, mirrored: true, stage(51, 33, downLeft)),
        LayoutCase(51, 33, .down, offset: 0.5, .downRight, stage(51, 33, downRight)),
    ]

    /// Stage length = roundf(108 + offset + 28), half away from zero via Float.
    static let roundingCases: [LayoutCase] = [
        // 136.5 -> 137 (banker's rounding would give 136); left 137 - 10 = 127.
        LayoutCase(216, 235, .up, offset: 0.5, .up, stage(137, 51, up), stage(216, 235, insets(41, 127, 9, 9))),
        // 136.49 -> 136.
        LayoutCase(216, 235, .up, offset: 0.49, .up, stage(136, 51, up), stage(216, 235, insets(41, 126, 9, 9))),
        // 135.5 -> 136.
        LayoutCase(216, 235, .up, offset: -0.5, .up, stage(136, 51, up), stage(216, 235, insets(41, 126, 9, 9))),
        // 135.49 -> 135.
        LayoutCase(216, 235, .up, offset: -0.51, .up, stage(135, 51, up), stage(216, 235, insets(41, 125, 9, 9))),
        // 136.4999999 is the float 136.5 (float spacing near 136 is 2^-16), so 137.
        LayoutCase(216, 235, .up, offset: 0.4999999, .up, stage(137, 51, up), stage(216, 235, insets(41, 127, 9, 9))),
        LayoutCase(216, 235, .down, offset: 0.5, .down, stage(137, 51, down), stage(216, 235, insets(23, 127, 27, 9))),
    ]

    @Test("up", arguments: upCases) func up(_ row: LayoutCase) throws { try row.check() }
    @Test("down", arguments: downCases) func down(_ row: LayoutCase) throws { try row.check() }
    @Test("stage length rounding", arguments: roundingCases) func stageLengthRounding(_ row: LayoutCase) throws { try row.check() }

    @Test("second stage right inset is the metric")
    func secondStageRightInsetIsTheMetric() throws {
        var metrics = SevenImageMetrics.standard
        metrics.secondStageRightInset = 5
        // L = 136; stage 2 (41, 136 - (5 + 1), 9, 5) = (41, 130, 9, 5).
        try LayoutCase(
            216, 235, .up, offset: 0, .up, stage(136, 51, Self.up), stage(216, 235, insets(41, 130, 9, 5)),
            metrics: metrics
        ).check()
    }

    @Test("image width moves the stage length")
    func imageWidthMovesTheStageLength() throws {
        var metrics = SevenImageMetrics.standard
        metrics.up = ImageSpec(width: 61, height: 51, capInsets: insets(41, 9, 9, 51))
        // L = roundf(108 + (61 - 1) / 2) = 138; stage 2 left 128.
        try LayoutCase(
            216, 235, .up, offset: 0, .up, stage(138, 51, insets(41, 9, 9, 51)),
            stage(216, 235, insets(41, 128, 9, 9)), metrics: metrics
        ).check()
    }
}
