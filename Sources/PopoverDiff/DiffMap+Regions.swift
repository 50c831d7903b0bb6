extension DiffMap {
    /// The most a region spans, each way, while there are few enough of them: at zoom 1
    /// it fits a phone's pane, so a one-pixel change framed in it stays visible.
    public static let regionSide = 128

    /// Where the changed pixels lie, as at most `limit` rectangles a viewer steps through,
    /// top to bottom, then left to right.
    ///
    /// The bounding box of every changed pixel (`changedRegion`) is no help for a thin
    /// change: a one-pixel border recoloured spans the whole image, and zoomed to fit it
    /// shows flat fill. So the image is cut into squares half of `regionSide`; each square
    /// holding changed pixels gives the box of those pixels, and boxes are merged, in
    /// reading order, while their union spans less than `regionSide` each way. With more
    /// than `limit` regions the squares and the side double, until the regions are few
    /// enough. Together the regions hold every pixel that is not equal (different, excused
    /// or ignored), as `changedRegion` does. The same map gives the same regions.
    public func changedRegions(limit: Int = 64) -> [PixelRegion] {
        guard let whole = changedRegion, case .planes(_, let classes) = storage, limit > 0 else { return [] }
        let tile = Self.regionSide / 2
        // Per square of `tile`: the box of its changed pixels; one pass over the changed region.
        let columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile
        var boxes = [MarkedBounds](repeating: MarkedBounds(), count: columns * rows)
        classes.withUnsafeBufferPointer { classes in
            for y in whole.y..<(whole.y + whole.height) {
                let row = y * width, tileRow = (y / tile) * columns
                for x in whole.x..<(whole.x + whole.width) where classes[row + x] != .equal {
                    boxes[tileRow + x / tile].include(x: x, y: y)
                }
            }
        }
        var square = tile
        while true {
            // The boxes of squares `square` wide: the small squares' boxes, grouped.
            let per = square / tile
            var grouped: [Int: MarkedBounds] = [:]
            for (i, box) in boxes.enumerated() where box.maxX >= 0 {
                let key = (i / columns / per) * (columns / per + 1) + (i % columns) / per
                grouped[key, default: MarkedBounds()].include(box)
            }
            let found = Self.merged(grouped.values.compactMap(\.region).sorted(by: Self.readingOrder), within: square * 2)
            if found.count <= limit || square >= max(width, height) { return Array(found.prefix(limit)) }
            square *= 2
        }
    }

    /// Boxes merged, in reading order, while their union spans less than `side` each way.
    static func merged(_ boxes: [PixelRegion], within side: Int) -> [PixelRegion] {
        var out: [MarkedBounds] = []
        for box in boxes {
            var bounds = MarkedBounds()
            bounds.include(box)
            if let at = out.firstIndex(where: { other in
                var union = other
                union.include(bounds)
                return union.maxX - union.minX < side && union.maxY - union.minY < side
            }) {
                out[at].include(bounds)
            } else {
                out.append(bounds)
            }
        }
        return out.compactMap(\.region).sorted(by: readingOrder)
    }

    static func readingOrder(_ a: PixelRegion, _ b: PixelRegion) -> Bool { (a.y, a.x) < (b.y, b.x) }
}

extension MarkedBounds {
    mutating func include(_ other: MarkedBounds) {
        guard other.maxX >= 0 else { return }
        include(x: other.minX, y: other.minY)
        include(x: other.maxX, y: other.maxY)
    }

    mutating func include(_ region: PixelRegion) {
        include(x: region.x, y: region.y)
        include(x: region.x + region.width - 1, y: region.y + region.height - 1)
    }
}
