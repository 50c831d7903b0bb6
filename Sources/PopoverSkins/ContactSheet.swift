import PopoverGeometry
import PopoverRaster

/// Every skin x direction x arrow position on one sheet, for looking at seams, arrow
/// positions, shadows and mirrored sides at a glance.
///
/// One row per skin and direction (skins in the order given, directions up, down,
/// left, right), three columns: the arrow at the start of its edge, in the middle, at
/// the end (its base touching the ends of the edge). Each popover sits in an equal cell
/// over a light checkerboard that shows transparency; cells are separated by a
/// mid-grey rule, and a thicker rule separates skins.
public enum ContactSheet {
    /// Bounds of every popover on the sheet, long side along the arrow's edge.
    public static let popoverSize = Size(width: 180, height: 130)

    public static func make(skins: [any Skin], scale: Double) throws -> Pixmap {
        var cells: [[RenderedPopover]] = []
        for skin in skins {
            for direction in ArrowDirection.allCases {
                let bounds = direction.isVertical ? popoverSize : Size(width: popoverSize.height, height: popoverSize.width)
                let edge = direction.isVertical ? bounds.width : bounds.height
                let extreme = edge / 2 - skin.metrics.arrowBase / 2
                cells.append(try [-extreme, 0, extreme].map { offset in
                    try skin.render(PopoverRequest(bounds: bounds, direction: direction, arrowOffset: offset, scale: scale))
                })
            }
        }
        let cellWidth = cells.joined().map(\.pixmap.width).max() ?? 0
        let cellHeight = cells.joined().map(\.pixmap.height).max() ?? 0
        let rule = Int(scale), skinRule = 4 * Int(scale)
        let width = 3 * cellWidth + 4 * rule
        let rowsPerSkin = ArrowDirection.allCases.count
        let height = cells.count * (cellHeight + rule) + rule + (skins.count - 1) * (skinRule - rule)
        var sheet = Pixmap(width: width, height: height, scale: scale)
        sheet.fill(PremultipliedPixel(r: 128, g: 128, b: 128, a: 255))
        var y = rule
        for (row, popovers) in cells.enumerated() {
            if row > 0 && row % rowsPerSkin == 0 { y += skinRule - rule }
            for (column, popover) in popovers.enumerated() {
                let x = rule + column * (cellWidth + rule)
                checkerboard(&sheet, x: x, y: y, width: cellWidth, height: cellHeight, square: 8 * Int(scale))
                var canvas = Canvas(sheet)
                let p = popover.pixmap
                try canvas.draw(p, in: RasterRect(
                    x: Double(x + (cellWidth - p.width) / 2) / scale, y: Double(y + (cellHeight - p.height) / 2) / scale,
                    width: p.pointWidth, height: p.pointHeight), filter: .nearest)
                sheet = canvas.pixmap
            }
            y += cellHeight + rule
        }
        return sheet
    }

    private static func checkerboard(_ sheet: inout Pixmap, x: Int, y: Int, width: Int, height: Int, square: Int) {
        for row in 0..<height {
            for column in 0..<width {
                let light = ((row / square) + (column / square)) % 2 == 0
                let v: UInt8 = light ? 242 : 222
                sheet[x + column, y + row] = PremultipliedPixel(r: v, g: v, b: v, a: 255)
            }
        }
    }
}
