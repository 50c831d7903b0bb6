import PopoverGeometry
import Testing

/// Bounds 235 x 216: 200 x 200 content plus 8 + 8 insets, plus the 19-point
/// arrow on the horizontal axis. Arrow centre = 216 / 2 + offset = 108 + offset.
///   at top    <=> centre - 18.5 < 7        <=> offset < -82.5
///   at bottom <=> centre + 18.5 > 216 - 7  <=> offset >  82.5
/// Stage length L = roundf(centre + 72 / 2 - 1 - 7) = roundf(centre + 28).
/// Stage 1 is (37 x L); stage 2 insets (L - (9 + 1), image left, 9, image right).
/// Left arrows use the same images mirrored: left and right caps swap.
@Suite("Layouts of left and right arrows, from a hand-worked table")
struct SideLayoutTests {
    static let side = insets(24, 9, 47, 27)
    static let sideMirrored = insets(24, 27, 47, 9)
    static let sideTop = insets(43, 9, 23, 27)
    static let sideTopMirrored = insets(43, 27, 23, 9)
    static let sideBottom = insets(23, 9, 43, 27)
    static let sideBottomMirrored = insets(23, 27, 43, 9)

    static let rightCases: [LayoutCase] = [
        // L = 136; stage 2 top 126.
        LayoutCase(235, 216, .right, offset: 0, .side, stage(37, 136, side), stage(235, 216, insets(126, 9, 9, 27))),
        // centre 25.5, not at top; L = roundf(53.5) = 54, top 44.
        LayoutCase(235, 216, .right, offset: -82.5, .side, stage(37, 54, side), stage(235, 216, insets(44, 9, 9, 27))),
        // centre 25: at top.
        LayoutCase(235, 216, .right, offset: -83, .sideTop, stage(235, 216, sideTop)),
        LayoutCase(235, 216, .right, offset: -82, .side, stage(37, 54, side), stage(235, 216, insets(44, 9, 9, 27))),
        // centre 190.5, not at bottom; L = roundf(218.5) = 219, top 209.
        LayoutCase(235, 216, .right, offset: 82.5, .side, stage(37, 219, side), stage(235, 216, insets(209, 9, 9, 27))),
        // centre 191: at bottom.
        LayoutCase(235, 216, .right, offset: 83, .sideBottom, stage(235, 216, sideBottom)),
        LayoutCase(235, 216, .right, offset: 82, .side, stage(37, 218, side), stage(235, 216, insets(208, 9, 9, 27))),
        // 136.5 -> 137; 136.49 -> 136.
        LayoutCase(235, 216, .right, offset: 0.5, .side, stage(37, 137, side), stage(235, 216, insets(127, 9, 9, 27))),
        LayoutCase(235, 216, .right, offset: 0.49, .side, stage(37, 136, side), stage(235, 216, insets(126, 9, 9, 27))),
        // Smallest bounds 33 x 51: centre 25.5 is centred; L = 54, top 44.
        LayoutCase(33, 51, .right, offset: 0, .side, stage(37, 54, side), stage(33, 51, insets(44, 9, 9, 27))),
        LayoutCase(33, 51, .right, offset: -0.5, .sideTop, stage(33, 51, sideTop)),
        LayoutCase(33, 51, .right, offset: 0.5, .sideBottom, stage(33, 51, sideBottom)),
    ]

    static let leftCases: [LayoutCase] = [
        // Mirrored: stage 1 caps (24, 27, 47, 9); stage 2 (126, 27, 9, 9).
        LayoutCase(235, 216, .left, offset: 0, .side, mirrored: true,
                   stage(37, 136, sideMirrored), stage(235, 216, insets(126, 27, 9, 9))),
        LayoutCase(235, 216, .left, offset: -82.5, .side, mirrored: true,
                   stage(37, 54, sideMirrored), stage(235, 216, insets(44, 27, 9, 9))),
        LayoutCase(235, 216, .left, offset: -83, .sideTop, mirrored: true, stage(235, 216, sideTopMirrored)),
        LayoutCase(235, 216, .left, offset: 82.5, .side, mirrored: true,
                   stage(37, 219, sideMirrored), stage(235, 216, insets(209, 27, 9, 9))),
        LayoutCase(235, 216, .left, offset: 83, .sideBottom, mirrored: true, stage(235, 216, sideBottomMirrored)),
        LayoutCase(235, 216, .left, offset: 0.49, .side, mirrored: true,
                   stage(37, 136, sideMirrored), stage(235, 216, insets(126, 27, 9, 9))),
        LayoutCase(33, 51, .left, offset: -0.5, .sideTop, mirrored: true, stage(33, 51, sideTopMirrored)),
        LayoutCase(33, 51, .left, offset: 0.5, .sideBottom, mirrored: true, stage(33, 51, sideBottomMirrored)),
    ]

    @Test("right", arguments: rightCases) func right(_ row: LayoutCase) throws { try row.check() }
    @Test("left", arguments: leftCases) func left(_ row: LayoutCase) throws { try row.check() }

    @Test("the seven in the side length is the centre offset metric")
    func theSevenInTheSideLengthIsTheCentreOffsetMetric() throws {
        var metrics = SevenImageMetrics.standard
        metrics.sideArrowCenterOffset = 0
        // L = roundf(108 + 36 - 1 - 0) = 143; stage 2 top 133.
        try LayoutCase(
            235, 216, .right, offset: 0, .side, stage(37, 143, Self.side), stage(235, 216, insets(133, 9, 9, 27)),
            metrics: metrics
        ).check()
    }

    @Test("second stage bottom inset is the metric")
    func secondStageBottomInsetIsTheMetric() throws {
        var metrics = SevenImageMetrics.standard
        metrics.secondStageBottomInset = 4
        // L = 136; stage 2 (136 - (4 + 1), 9, 4, 27) = (131, 9, 4, 27).
        try LayoutCase(
            235, 216, .right, offset: 0, .side, stage(37, 136, Self.side), stage(235, 216, insets(131, 9, 4, 27)),
            metrics: metrics
        ).check()
    }

    @Test("sample app files override side top only")
    func sampleAppFilesOverrideSideTopOnly() throws {
        // side-top caps become (43, 9, 9, 27); mirrored (43, 27, 9, 9).
        try LayoutCase(235, 216, .right, offset: -83, .sideTop, stage(235, 216, insets(43, 9, 9, 27)),
                       metrics: .sampleAppFiles).check()
        try LayoutCase(235, 216, .left, offset: -83, .sideTop, mirrored: true,
                       stage(235, 216, insets(43, 27, 9, 9)), metrics: .sampleAppFiles).check()
        try LayoutCase(235, 216, .right, offset: 83, .sideBottom, stage(235, 216, Self.sideBottom),
                       metrics: .sampleAppFiles).check()
    }
}
