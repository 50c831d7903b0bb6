/// Applies the fill rule at every point of one pixel row, not to each pixel's sum.
///
/// The row's band is cut into sub-bands at every edge endpoint and at every crossing of
/// two edges inside it. Within a sub-band each edge runs from its top to its bottom and
/// no two cross, so their left-to-right order holds throughout: walking that order and
/// counting windings shows exactly where the inside begins and ends. Only those edges,
/// the boundary of the inside region, reach the row's accumulator, an entering one
/// with +height and a leaving one with -height. Overlaps then count once, and even-odd
/// holes are exact even where several edges share a pixel.
///
/// For a plain shape (no crossings, edges alternating in direction) every edge is
/// boundary. An edge's stretches in consecutive sub-bands are then joined again, and
/// the row gets exactly the pieces, with the same arithmetic and in the same order, as
/// the earlier sum-per-pixel rasterizer gave it: its x advanced row by row from the
/// edge's top, edges added in path order. Shapes that rasterizer drew exactly keep
/// every byte, ties at half a level included.
struct BandSweep {
    /// A stretch of one edge that bounds the inside: `sign` +1 entering, -1 leaving.
    struct Piece {
        var edge: Int
        var sign: Double
        var yTop: Double
        var yBottom: Double
    }

    let rule: FillRule
    /// Scratch space sized for the busiest row, so no row allocates. Plain pointers in
    /// a struct: neither copy-on-write nor exclusivity checks on the hot path. Freed by
    /// `deallocate()`.
    private let capacity: Int
    private let events: UnsafeMutablePointer<Double>
    private let spanning: UnsafeMutablePointer<Int>
    private let top: UnsafeMutablePointer<Double>
    private let bottom: UnsafeMutablePointer<Double>
    private let key: UnsafeMutablePointer<Double>
    private let order: UnsafeMutablePointer<Int>
    private var spanningCount = 0
    /// Where pairs of edges cross, as fractions of a sub-band (rare: kept as an array).
    private var cuts: [Double] = []
    /// The band's boundary so far; grows when a row needs more.
    private var pieces: UnsafeMutablePointer<Piece>
    private var pieceCapacity: Int
    private var pieceCount = 0
    /// Per edge, its latest piece (or -1), to extend it instead of adding one.
    private let latestPiece: UnsafeMutablePointer<Int>
    /// Per edge, its x at the top of the current row, advanced by one row's step at a
    /// time: the x a whole-row piece starts from.
    private let runningX: UnsafeMutablePointer<Double>

    /// `maxActive`: the most edges any one row holds.
    init(rule: FillRule, edges: [SweepEdge], maxActive: Int) {
        let edgeCount = max(1, edges.count)
        self.rule = rule
        capacity = max(1, maxActive)
        events = .allocate(capacity: 2 * capacity + 2)
        spanning = .allocate(capacity: capacity)
        top = .allocate(capacity: capacity)
        bottom = .allocate(capacity: capacity)
        key = .allocate(capacity: capacity)
        order = .allocate(capacity: capacity)
        pieceCapacity = 2 * capacity
        pieces = .allocate(capacity: pieceCapacity)
        latestPiece = .allocate(capacity: edgeCount)
        latestPiece.initialize(repeating: -1, count: edgeCount)
        runningX = .allocate(capacity: edgeCount)
        for (i, e) in edges.enumerated() { runningX[i] = e.firstX }
    }

    func deallocate() {
        for p in [events, top, bottom, key, runningX] { p.deallocate() }
        for p in [spanning, order, latestPiece] { p.deallocate() }
        pieces.deallocate()
    }

    /// Sweeps the band from y = `row` to `row + 1`; `active` lists the edges reaching it.
    mutating func sweep(row: Int, active: UnsafeBufferPointer<Int32>, edges: UnsafeBufferPointer<SweepEdge>,
               into accumulator: RowAccumulator) {
        let bandTop = Double(row), bandBottom = bandTop + 1
        var eventCount = 1
        events[0] = bandTop
        for i in active {
            let e = edges[Int(i)]
            if e.topY > bandTop { events[eventCount] = e.topY; eventCount += 1 }
            if e.bottomY < bandBottom { events[eventCount] = e.bottomY; eventCount += 1 }
        }
        events[eventCount] = bandBottom
        eventCount += 1
        if eventCount == 2 && plainBand(row: row, active, edges, accumulator) {
            // Done: x moves on a whole row for every edge.
            for i in active { runningX[Int(i)] += edges[Int(i)].slope }
            return
        }
        if eventCount > 2 { Self.sortAscending(events, eventCount) }
        for k in 0..<(eventCount - 1) {
            let ya = events[k], yb = events[k + 1]
            if yb <= ya { continue }
            spanningCount = 0
            for i in active {
                let e = edges[Int(i)]
                if e.topY <= ya && e.bottomY >= yb { spanning[spanningCount] = Int(i); spanningCount += 1 }
            }
            if spanningCount > 0 { subBand(from: ya, to: yb, edges) }
        }
        flush(row: row, edges, accumulator)
        // Every edge moves on to the next row's top, boundary or not.
        for i in active {
            let e = edges[Int(i)]
            runningX[Int(i)] += e.slope * (min(bandBottom, e.bottomY) - max(bandTop, e.topY))
        }
    }

    /// The fast path, for a band that every edge crosses whole: when the edges do not
    /// cross and every one of them is boundary (directions alternate, as in any plain
    /// shape), they go straight to the accumulator in path order. Returns false, having
    /// added nothing, when the band needs the general sweep.
    private mutating func plainBand(row: Int, _ active: UnsafeBufferPointer<Int32>,
                                    _ edges: UnsafeBufferPointer<SweepEdge>, _ accumulator: RowAccumulator) -> Bool {
        let n = active.count
        let bandTop = Double(row), bandBottom = bandTop + 1
        for k in 0..<n {
            let e = edges[Int(active[k])]
            top[k] = e.x(at: bandTop)
            bottom[k] = e.x(at: bandBottom)
            key[k] = top[k] + bottom[k]
        }
        sortOrder(n)
        var winding = 0
        for k in 0..<n {
            let j = order[k]
            if k > 0 && (top[order[k - 1]] > top[j] || bottom[order[k - 1]] > bottom[j]) { return false }
            let wasInside = rule == .nonZero ? winding != 0 : winding & 1 != 0
            winding += edges[Int(active[j])].winding
            let isInside = rule == .nonZero ? winding != 0 : winding & 1 != 0
            if isInside == wasInside { return false }
            // Reuses `key`, no longer needed once sorted, for the edge's sign.
            key[j] = isInside ? 1 : -1
        }
        for k in 0..<n {
            let i = Int(active[k])
            let x = runningX[i]
            accumulator.add(from: x, to: x + edges[i].slope, height: key[k])
        }
        return true
    }

    /// Hands the band's boundary to the accumulator, in path order (insertion sort, as
    /// pieces mostly come in few and nearly sorted). A piece covering its edge's whole
    /// stretch of the row runs between the edge's running x values.
    private mutating func flush(row: Int, _ edges: UnsafeBufferPointer<SweepEdge>, _ accumulator: RowAccumulator) {
        if pieceCount > 24 {
            var items = UnsafeMutableBufferPointer(start: pieces, count: pieceCount)
            items.sort { $0.edge < $1.edge }
        }
        for k in 1..<max(1, pieceCount) {
            let piece = pieces[k]
            var j = k
            while j > 0 && pieces[j - 1].edge > piece.edge {
                pieces[j] = pieces[j - 1]
                j -= 1
            }
            pieces[j] = piece
        }
        let bandTop = Double(row), bandBottom = bandTop + 1
        for k in 0..<pieceCount {
            let piece = pieces[k], e = edges[piece.edge]
            let y0 = max(bandTop, e.topY), y1 = min(bandBottom, e.bottomY)
            let dy = piece.yBottom - piece.yTop
            if piece.yTop == y0 && piece.yBottom == y1 {
                let x = runningX[piece.edge]
                accumulator.add(from: x, to: x + e.slope * dy, height: piece.sign * dy)
            } else {
                accumulator.add(from: e.x(at: piece.yTop), to: e.x(at: piece.yBottom), height: piece.sign * dy)
            }
            latestPiece[piece.edge] = -1
        }
        pieceCount = 0
    }

    /// A stretch of the band between two endpoints, which every edge in `spanning`
    /// crosses from top to bottom; it is cut again where edges cross.
    private mutating func subBand(from ya: Double, to yb: Double, _ edges: UnsafeBufferPointer<SweepEdge>) {
        let n = spanningCount
        for k in 0..<n {
            let e = edges[spanning[k]]
            top[k] = e.x(at: ya)
            bottom[k] = e.x(at: yb)
            key[k] = top[k] + bottom[k]
        }
        sortOrder(n)
        var crossed = false
        for k in 1..<max(1, n) where top[order[k - 1]] > top[order[k]] || bottom[order[k - 1]] > bottom[order[k]] {
            crossed = true
            break
        }
        if !crossed {
            walk(from: ya, to: yb, edges)
            return
        }
        // Where each pair changes order, as a fraction of the way down.
        cuts.removeAll(keepingCapacity: true)
        cuts.append(0)
        for i in 0..<n {
            for j in (i + 1)..<n {
                let a = top[j] - top[i], b = bottom[j] - bottom[i]
                if (a < 0 && b > 0) || (a > 0 && b < 0) { cuts.append(a / (a - b)) }
            }
        }
        cuts.append(1)
        cuts.sort()
        for k in 0..<(cuts.count - 1) {
            let y0 = ya + (yb - ya) * cuts[k]
            let y1 = k + 2 == cuts.count ? yb : ya + (yb - ya) * cuts[k + 1]
            if y1 <= y0 { continue }
            for i in 0..<n { key[i] = edges[spanning[i]].x(at: 0.5 * (y0 + y1)) }
            sortOrder(n)
            walk(from: y0, to: y1, edges)
        }
    }

    /// Counts windings left to right in `order` and keeps the edges where the rule's
    /// answer changes.
    @inline(__always)
    private mutating func walk(from y0: Double, to y1: Double, _ edges: UnsafeBufferPointer<SweepEdge>) {
        var winding = 0
        var wasInside = false
        for k in 0..<spanningCount {
            let i = spanning[order[k]]
            winding += edges[i].winding
            let isInside = rule == .nonZero ? winding != 0 : winding & 1 != 0
            if isInside == wasInside { continue }
            wasInside = isInside
            emit(edge: i, sign: isInside ? 1 : -1, from: y0, to: y1)
        }
    }

    /// Records a boundary stretch, extending the edge's previous one when they meet.
    private mutating func emit(edge: Int, sign: Double, from y0: Double, to y1: Double) {
        let last = latestPiece[edge]
        if last >= 0, pieces[last].yBottom == y0, pieces[last].sign == sign {
            pieces[last].yBottom = y1
            return
        }
        if pieceCount == pieceCapacity {
            let larger = UnsafeMutablePointer<Piece>.allocate(capacity: 2 * pieceCapacity)
            larger.moveInitialize(from: pieces, count: pieceCount)
            pieces.deallocate()
            pieces = larger
            pieceCapacity *= 2
        }
        latestPiece[edge] = pieceCount
        pieces[pieceCount] = Piece(edge: edge, sign: sign, yTop: y0, yBottom: y1)
        pieceCount += 1
    }

    /// `order` = 0..<n by ascending `key`. Rows hold few edges: insertion sort, unless
    /// a row is crowded (the flattened top of a large circle).
    private func sortOrder(_ n: Int) {
        for k in 0..<n { order[k] = k }
        if n > 24 {
            let keys = key
            var items = UnsafeMutableBufferPointer(start: order, count: n)
            items.sort { keys[$0] < keys[$1] }
            return
        }
        for k in 1..<max(1, n) {
            let item = order[k], value = key[item]
            var j = k
            while j > 0 && key[order[j - 1]] > value {
                order[j] = order[j - 1]
                j -= 1
            }
            order[j] = item
        }
    }

    private static func sortAscending(_ values: UnsafeMutablePointer<Double>, _ n: Int) {
        if n > 24 {
            var items = UnsafeMutableBufferPointer(start: values, count: n)
            items.sort()
            return
        }
        for k in 1..<n {
            let value = values[k]
            var j = k
            while j > 0 && values[j - 1] > value {
                values[j] = values[j - 1]
                j -= 1
            }
            values[j] = value
        }
    }
}
