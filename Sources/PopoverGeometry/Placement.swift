/// Where a popover goes: the way its arrow points, its frame in view
/// coordinates, and how far the arrow sits from the middle of its edge (positive
/// to the right or downwards), ready for `BackgroundLayout.make(bounds:
/// frame.size, direction:, arrowOffset:)`.
///
/// Placement follows the project's own model, since UIKit's rules are not public;
/// it is deterministic and simple enough to check by hand.
///
/// 1. Size: the content size plus the content insets, plus the arrow's height
///    along the arrow's axis; never less than the smallest valid background
///    (`PopoverMetrics.minimumBounds(for:)`).
/// 2. The arrow's tip touches the midpoint of the anchor's edge that faces the
///    popover: an up arrow hangs the popover below the anchor's bottom edge, down
///    puts it above the top edge, left to the right of the right edge, right to
///    the left of the left edge.
/// 3. The popover stays inside the visible view inset by `margin` (10 points) on
///    every side. The visible view is the whole view, less the keyboard's height
///    at the bottom when the keyboard is up. A tip outside that inset area leaves
///    no room at all.
/// 4. Across the arrow's axis the popover is centred on the anchor's midpoint,
///    then moved just far enough to be inside the margins. The arrow slides the
///    other way: `arrowOffset = anchor midpoint - popover edge midpoint`, clamped
///    so the arrow's base stays on the edge (`|offset| <= edge / 2 - arrowBase / 2`),
///    so near a corner the tip may stop short of the anchor's midpoint.
/// 5. "Any" tries up, down, left, right and takes the first whose whole popover
///    fits. When none fits, each direction's popover is shrunk along the arrow's
///    axis to the room there, and across it to the visible view less margins; the
///    direction keeping the largest area wins (ties go to the earlier one). A
///    single permitted direction is shrunk the same way. A direction whose room
///    cannot hold the smallest valid background is out; with none left the model
///    throws `GeometryError.noRoom`.
///
/// No rounding to whole points or pixels: frames carry whatever the arithmetic
/// gives (landscape anchors sit at fractional positions).
public struct Placement: Sendable, Hashable, Codable, CustomStringConvertible {
    public var direction: ArrowDirection
    public var frame: Rect
    public var arrowOffset: Double

    public init(direction: ArrowDirection, frame: Rect, arrowOffset: Double) {
        self.direction = direction
        self.frame = frame
        self.arrowOffset = arrowOffset
    }

    /// Reads "left (534, 10, 355 x 728), arrow offset -345.5".
    public var description: String {
        "\(direction) \(frame), arrow offset \(plainNumber(arrowOffset))"
    }
}
