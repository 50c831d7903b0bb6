/// Exact-area anti-aliasing with the fill rule applied at every point: each pixel's
/// coverage is the area of the pixel square where the rule says "inside".
///
/// Pixel rows are swept one at a time (`BandSweep`): the sweep hands the row only the
/// boundary of the inside region, and `RowAccumulator` turns that boundary into exact
/// areas. Applying the rule to a pixel's summed winding instead would be wrong wherever
/// edges overlap inside one pixel: a junction of overlapping subpaths, a self-crossing,
/// a stroke's joins.
enum Rasterizer {
    /// Coverage of `lines` (device pixels, each subpath implicitly closed) clipped to a
    /// `bitmapWidth` x `bitmapHeight` bitmap.
    static func coverage(of lines: [Polyline], rule: FillRule, bitmapWidth: Int, bitmapHeight: Int) -> CoverageMask {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for line in lines {
            for p in line.points {
                guard p.x.isFinite, p.y.isFinite else { return .empty() }
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX.isFinite else { return .empty() }
        // Clamped before converting, so shapes far off the bitmap cannot overflow Int.
        let w = Double(bitmapWidth), h = Double(bitmapHeight)
        let x0 = Int(min(w, max(0, minX)).rounded(.down)), y0 = Int(min(h, max(0, minY)).rounded(.down))
        let x1 = Int(min(w, max(0, maxX)).rounded(.up)), y1 = Int(min(h, max(0, maxY)).rounded(.up))
        guard x1 > x0, y1 > y0 else { return CoverageMask(x: x0, y: y0, width: 0, height: 0, values: []) }
        let width = x1 - x0, height = y1 - y0

        let edges = sweepEdges(lines, originX: Double(x0), originY: Double(y0), width: width, height: height)
        let (rowStart, rowEdges) = bucketByRow(edges, height: height)
        let stride = width + 2
        var accumulation = [Float](repeating: 0, count: stride * height)
        let busiest = (0..<height).reduce(0) { max($0, rowStart[$1 + 1] - rowStart[$1]) }
        var sweep = BandSweep(rule: rule, edges: edges, maxActive: busiest)
        defer { sweep.deallocate() }
        accumulation.withUnsafeMutableBufferPointer { acc in
            edges.withUnsafeBufferPointer { allEdges in
                rowEdges.withUnsafeBufferPointer { indices in
                    for row in 0..<height where rowStart[row + 1] > rowStart[row] {
                        let active = UnsafeBufferPointer(rebasing: indices[rowStart[row]..<rowStart[row + 1]])
                        let target = RowAccumulator(cells: acc.baseAddress! + row * stride, width: Double(width))
                        sweep.sweep(row: row, active: active, edges: allEdges, into: target)
                    }
                }
            }
        }
        var values = [UInt8](repeating: 0, count: width * height)
        accumulation.withUnsafeBufferPointer { acc in
            values.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    // The sweep already applied the rule: the sum is an area in 0...1 up
                    // to rounding. Cells no edge touched leave it as it was, so long runs
                    // inside or outside a shape skip the conversion.
                    var sum: Float = 0
                    var byte: UInt8 = 0
                    let cells = acc.baseAddress! + row * stride
                    let line = out.baseAddress! + row * width
                    for col in 0..<width {
                        let cell = cells[col]
                        if cell != 0 {
                            sum += cell
                            byte = UInt8(coverageByte(sum))
                        }
                        line[col] = byte
                    }
                }
            }
        }
        return CoverageMask(x: x0, y: y0, width: width, height: height, values: values)
    }
}
