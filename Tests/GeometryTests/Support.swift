import PopoverGeometry

/// Landscape anchors sit at fractional positions such as 319 + 256 x 319 / 724;
/// the code may add the same terms in another order, so compare to a hair.
let tolerance = 1e-9

func isClose(_ actual: Double, _ expected: Double) -> Bool {
    abs(actual - expected) <= tolerance
}

func isClose(_ actual: Rect, _ expected: Rect) -> Bool {
    isClose(actual.minX, expected.minX) && isClose(actual.minY, expected.minY)
        && isClose(actual.width, expected.width) && isClose(actual.height, expected.height)
}

func isClose(_ actual: Placement, _ expected: Placement) -> Bool {
    actual.direction == expected.direction && isClose(actual.frame, expected.frame)
        && isClose(actual.arrowOffset, expected.arrowOffset)
}

func insets(_ top: Double, _ left: Double, _ bottom: Double, _ right: Double) -> EdgeInsets {
    EdgeInsets(top: top, left: left, bottom: bottom, right: right)
}

func stage(_ width: Double, _ height: Double, _ capInsets: EdgeInsets) -> StretchStage {
    StretchStage(size: Size(width: width, height: height), capInsets: capInsets)
}
