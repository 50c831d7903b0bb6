/// One pixel row of the accumulation buffer, `width + 2` cells long.
///
/// Each straight piece of boundary added here leaves, as differences between
/// neighbouring cells, the signed area between the piece and the row's right end; the
/// row's running sum then gives each pixel the area of the regions the pieces enclose
/// (the approach of FreeType's and font-rs's rasterizers). The pieces come from the
/// band sweep, which has already applied the fill rule, so for one shape the sum stays
/// within 0...1.
struct RowAccumulator {
    let cells: UnsafeMutablePointer<Float>
    let width: Double

    /// Adds a piece that runs from x = `start` at its top to x = `end` at its bottom,
    /// `height` tall (0 < |height| <= 1), counted positive where the area to its right
    /// is inside. Edges were already cut at the mask's sides; the clamp only catches x
    /// drifting a rounding error past them.
    @inline(__always)
    func add(from start: Double, to end: Double, height: Double) {
        addWithin(min(width, max(0, start)), min(width, max(0, end)), height)
    }

    /// `add` for a piece lying within columns 0...width.
    @inline(__always)
    private func addWithin(_ x: Double, _ xNext: Double, _ d: Double) {
        if d == 0 { return }
        let (left, right) = x < xNext ? (x, xNext) : (xNext, x)
        let leftFloor = left.rounded(.down)
        let leftIndex = Int(leftFloor)
        let rightCeil = right.rounded(.up)
        let rightIndex = Int(rightCeil)
        if rightIndex <= leftIndex + 1 {
            // Within one pixel: the part right of the piece's mean x is covered.
            let mean = 0.5 * (x + xNext) - leftFloor
            cells[leftIndex] += Float(d - d * mean)
            cells[leftIndex + 1] += Float(d * mean)
            return
        }
        // Across several pixels the piece's height is shared out in proportion to the
        // x distance it runs in each: a triangle in the first and last pixel, a
        // trapezoid in between.
        let s = 1 / (right - left)
        let leftFraction = left - leftFloor
        let firstArea = 0.5 * s * (1 - leftFraction) * (1 - leftFraction)
        let rightFraction = right - rightCeil + 1
        let lastArea = 0.5 * s * rightFraction * rightFraction
        cells[leftIndex] += Float(d * firstArea)
        if rightIndex == leftIndex + 2 {
            cells[leftIndex + 1] += Float(d * (1 - firstArea - lastArea))
        } else {
            let secondArea = s * (1.5 - leftFraction)
            cells[leftIndex + 1] += Float(d * (secondArea - firstArea))
            var column = leftIndex + 2
            while column < rightIndex - 1 {
                cells[column] += Float(d * s)
                column += 1
            }
            let beforeLast = secondArea + Double(rightIndex - leftIndex - 3) * s
            cells[rightIndex - 1] += Float(d * (1 - beforeLast - lastArea))
        }
        cells[rightIndex] += Float(d * lastArea)
    }
}
