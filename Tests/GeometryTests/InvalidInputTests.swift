import PopoverGeometry
import Testing

/// Every rejection throws a `GeometryError` whose message names the bad value.
@Suite("Invalid geometry input")
struct InvalidInputTests {
    static func layoutError(
        _ width: Double, _ height: Double, _ direction: ArrowDirection, offset: Double = 0,
        metrics: SevenImageMetrics = .standard
    ) -> GeometryError? {
        #expect(throws: GeometryError.self) {
            try BackgroundLayout.make(
                bounds: Size(width: width, height: height), direction: direction, arrowOffset: offset, metrics: metrics)
        }
    }

    @Test("non finite offset", arguments: [
        (Double.nan, "arrow offset must be a finite number, got nan"),
        (Double.infinity, "arrow offset must be a finite number, got inf"),
        (-Double.infinity, "arrow offset must be a finite number, got -inf"),
    ])
    func nonFiniteOffset(offset: Double, message: String) {
        let error = Self.layoutError(216, 235, .up, offset: offset)
        #expect(error?.description == message)
    }

    @Test("bad bounds", arguments: [
        (Double.nan, 300.0, "bounds must be finite and non-negative, got nan x 300"),
        (300, .infinity, "bounds must be finite and non-negative, got 300 x inf"),
        (-1, 300, "bounds must be finite and non-negative, got -1 x 300"),
        (300, -0.5, "bounds must be finite and non-negative, got 300 x -0.5"),
    ])
    func badBounds(width: Double, height: Double, message: String) {
        #expect(Self.layoutError(width, height, .down)?.description == message)
    }

    /// Up/down need 37 + 2 x 7 = 51 wide and 19 + 2 x 7 = 33 tall; left/right the transpose.
    @Test(arguments: [
        (40.0, 300.0, ArrowDirection.down,
         "bounds 40 x 300 are too small for a down arrow: need at least 51 wide and 33 tall to hold the corners and the arrow"),
        (50.5, 235, .up,
         "bounds 50.5 x 235 are too small for an up arrow: need at least 51 wide and 33 tall to hold the corners and the arrow"),
        (216, 32.5, .up,
         "bounds 216 x 32.5 are too small for an up arrow: need at least 51 wide and 33 tall to hold the corners and the arrow"),
        (300, 40, .left,
         "bounds 300 x 40 are too small for a left arrow: need at least 33 wide and 51 tall to hold the corners and the arrow"),
        (32.5, 216, .right,
         "bounds 32.5 x 216 are too small for a right arrow: need at least 33 wide and 51 tall to hold the corners and the arrow"),
        // Big enough for up, not for left: 51 x 33 is only 33 tall.
        (51, 33, .left,
         "bounds 51 x 33 are too small for a left arrow: need at least 33 wide and 51 tall to hold the corners and the arrow"),
    ])
    func boundsTooSmall(width: Double, height: Double, direction: ArrowDirection, message: String) {
        let error = Self.layoutError(width, height, direction)
        #expect(error?.description == message)
        let minimum = direction.isVertical ? Size(width: 51, height: 33) : Size(width: 33, height: 51)
        #expect(error == .boundsTooSmall(bounds: Size(width: width, height: height), direction: direction, minimum: minimum))
    }

    @Test("smaller metrics allow smaller bounds")
    func smallerMetricsAllowSmallerBounds() throws {
        var metrics = SevenImageMetrics.standard
        metrics.cornerRadius = 0
        // 37 x 19 is now the minimum for an up arrow.
        #expect(throws: Never.self) {
            try BackgroundLayout.make(bounds: Size(width: 37, height: 19), direction: .up, arrowOffset: 0, metrics: metrics)
        }
    }

    struct MetricsRow: Sendable, CustomTestStringConvertible {
        let change: @Sendable (inout SevenImageMetrics) -> Void
        let message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        MetricsRow(change: { $0.arrowBase = -1 }, message: "arrow base must be a finite, non-negative number, got -1"),
        MetricsRow(change: { $0.arrowHeight = .nan }, message: "arrow height must be a finite, non-negative number, got nan"),
        MetricsRow(change: { $0.cornerRadius = .infinity }, message: "corner radius must be a finite, non-negative number, got inf"),
        MetricsRow(change: { $0.contentInsets.left = -8 }, message: "content insets left must be a finite, non-negative number, got -8"),
        MetricsRow(change: { $0.sideArrowCenterOffset = -7 },
                   message: "side arrow centre offset must be a finite, non-negative number, got -7"),
        MetricsRow(change: { $0.secondStageBottomInset = .nan },
                   message: "second-stage bottom inset must be a finite, non-negative number, got nan"),
        MetricsRow(change: { $0.secondStageRightInset = -9 },
                   message: "second-stage right inset must be a finite, non-negative number, got -9"),
        MetricsRow(change: { $0.side.size.width = -37 },
                   message: "image 'side' width must be a finite, non-negative number, got -37"),
        MetricsRow(change: { $0.sideTop.capInsets.bottom = .nan },
                   message: "image 'side-top' cap inset bottom must be a finite, non-negative number, got nan"),
        // 9 + 49 = 58 > 57.
        MetricsRow(change: { $0.up.capInsets.right = 49 },
                   message: "cap insets 41, 9, 9, 49 of image 'up' overlap in its 57 x 51 size: "
                       + "left + right must not exceed the width, top + bottom the height"),
        // 43 + 25 = 68 > 67.
        MetricsRow(change: { $0.sideBottom.capInsets.top = 25 },
                   message: "cap insets 25, 9, 43, 27 of image 'side-bottom' overlap in its 37 x 67 size: "
                       + "left + right must not exceed the width, top + bottom the height"),
    ])
    func badMetrics(_ row: MetricsRow) {
        var metrics = SevenImageMetrics.standard
        row.change(&metrics)
        let error = #expect(throws: GeometryError.self) { try metrics.validate() }
        #expect(error?.description == row.message)
        // The layout validates its metrics first.
        #expect(Self.layoutError(216, 235, .up, metrics: metrics)?.description == row.message)
    }

    @Test("unknown anchor", arguments: ["popover17", "popover0", "Popover1", ""])
    func unknownAnchor(name: String) {
        let error = #expect(throws: GeometryError.self) { try Anchor.named(name) }
        #expect(error == .unknownAnchor(name))
        #expect(error?.description == "unknown anchor '\(name)' (known: popover1 ... popover16)")
    }

    struct PlacementRow: Sendable, CustomTestStringConvertible {
        var anchorFrame = Rect(x: 362, y: 523, width: 44, height: 44)
        var viewSize = Size(width: 768, height: 1004)
        var keyboardHeight = 0.0
        var contentSize = Size(width: 200, height: 200)
        var metrics = PopoverMetrics.sevenImage
        let message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        PlacementRow(anchorFrame: Rect(x: .nan, y: 0, width: 44, height: 44),
                     message: "anchor frame must be finite with a non-negative size, got (nan, 0, 44 x 44)"),
        PlacementRow(anchorFrame: Rect(x: 0, y: 0, width: -44, height: 44),
                     message: "anchor frame must be finite with a non-negative size, got (0, 0, -44 x 44)"),
        PlacementRow(viewSize: Size(width: 768, height: .infinity),
                     message: "view size must be finite and non-negative, got 768 x inf"),
        PlacementRow(viewSize: Size(width: -768, height: 1004),
                     message: "view size must be finite and non-negative, got -768 x 1004"),
        PlacementRow(keyboardHeight: -264, message: "keyboard height must be a finite, non-negative number, got -264"),
        PlacementRow(keyboardHeight: .nan, message: "keyboard height must be a finite, non-negative number, got nan"),
        PlacementRow(contentSize: Size(width: -1, height: 200),
                     message: "content size must be finite and non-negative, got -1 x 200"),
        PlacementRow(contentSize: Size(width: 200, height: .nan),
                     message: "content size must be finite and non-negative, got 200 x nan"),
        PlacementRow(metrics: PopoverMetrics(arrowBase: 37, arrowHeight: -19, cornerRadius: 7, contentInsets: EdgeInsets(all: 8)),
                     message: "arrow height must be a finite, non-negative number, got -19"),
        PlacementRow(metrics: PopoverMetrics(arrowBase: 37, arrowHeight: 19, cornerRadius: 7, contentInsets: EdgeInsets(all: .nan)),
                     message: "content insets top must be a finite, non-negative number, got nan"),
    ])
    func badPlacementInput(_ row: PlacementRow) {
        let error = #expect(throws: GeometryError.self) {
            try Placement.make(
                anchorFrame: row.anchorFrame, viewSize: row.viewSize, keyboardHeight: row.keyboardHeight,
                permitted: .any, contentSize: row.contentSize, metrics: row.metrics)
        }
        #expect(error?.description == row.message)
    }

    @Test("bad shadow input")
    func badShadowInput() {
        let deep = #expect(throws: GeometryError.self) {
            try ShadowGeometry.shadowRect(bounds: Size(width: 216, height: 18), direction: .down, arrowHeight: 19)
        }
        #expect(deep?.description == "arrow height 19 does not fit in bounds 216 x 18 with a down arrow")
        let negative = #expect(throws: GeometryError.self) {
            try ShadowGeometry.shadowRect(bounds: Size(width: 216, height: 235), direction: .up, arrowHeight: -1)
        }
        #expect(negative?.description == "arrow height must be a finite, non-negative number, got -1")
        let bounds = #expect(throws: GeometryError.self) {
            try ShadowGeometry.shadowRect(bounds: Size(width: .nan, height: 235), direction: .up, arrowHeight: 19)
        }
        #expect(bounds?.description == "bounds must be finite and non-negative, got nan x 235")
    }
}
