import Foundation
import PopoverDiff
import PopoverImage
import Testing
import TestSupport

/// The Python port of pixelmatch (PyPI `pixelmatch` 0.4.0, which counts as pixelmatch
/// 6.0.0 does; see Tests/Pixelmatch/pixelmatch_counts.py), run on the same bytes.
enum PythonPixelmatch {
    static let script = PackageFolders.root + "/Tests/Pixelmatch/pixelmatch_counts.py"

    static var available: Bool {
        shell("python3 -c 'import importlib.metadata as m; assert m.version(\"pixelmatch\") == \"0.4.0\"' 2>/dev/null") == 0
    }

    /// For each pair, for each threshold: the count with anti-aliasing excused, then
    /// with it counted.
    static func counts(_ pairs: [(RGBAImage, RGBAImage)], thresholds: [Double]) async throws -> [[Int]] {
        let folder = TemporaryFolder("pixelmatch")
        defer { folder.remove() }
        var bytes: [UInt8] = []
        for (e, a) in pairs {
            for value in [UInt32(e.width), UInt32(e.height)] {
                withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
            }
            bytes += e.pixels
            bytes += a.pixels
        }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("cases")))
        let run = try await runProgram("/usr/bin/env", ["python3", script, folder.file("cases")] + thresholds.map { "\($0)" })
        guard run.status == 0 else {
            throw ToolMissing(description: "pixelmatch_counts.py exited \(run.status): \(run.stderr)")
        }
        return run.stdout.split(separator: "\n").map { $0.split(separator: " ").map { Int($0)! } }
    }
}

/// Our counts against pixelmatch's on many seeded random pairs built to hit its corner
/// cases: neighbours tying for darkest or brightest (few colours, flat regions, opaque
/// white beside transparent pixels, which blend to the same white), image borders and
/// one-pixel-wide images, transparent pixels with differing colour bytes, translucent
/// pixels, edges shifted or softened as anti-aliasing, and small changes near each
/// threshold.
@Suite("Agreement with pixelmatch")
struct PixelmatchAgreementTests {
    static let thresholds = [0.0, 0.05, 0.1, 0.2, 0.5, 1.0]

    /// Colours for palette images: ties of brightness among the opaque white and the
    /// transparent ones (all white over white), repeated greys, a translucent grey.
    static let palette: [RGBA] = [
        (0, 0, 0, 255), (255, 255, 255, 255), (128, 128, 128, 255), (0, 0, 0, 0), (10, 20, 30, 0),
        (200, 30, 90, 255), (100, 100, 100, 128), (128, 128, 128, 255), (60, 60, 60, 255),
    ]

    static func pairs() -> [(RGBAImage, RGBAImage)] {
        var random = SplitMix64(seed: 0x9E37_79B9)
        var out: [(RGBAImage, RGBAImage)] = []
        func size() -> (Int, Int) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return (1, Int.random(in: 1...12, using: &random))
            case 1: return (Int.random(in: 1...12, using: &random), 1)
            default: return (Int.random(in: 2...20, using: &random), Int.random(in: 2...20, using: &random))
            }
        }
        for n in 0..<360 {
            let (w, h) = size()
            var expected: RGBAImage
            var actual: RGBAImage
            switch n % 4 {
            case 0:
                // Palette pixels, some replaced by other palette colours.
                let colours = Array(palette.shuffled(using: &random).prefix(Int.random(in: 2...5, using: &random)))
                expected = image(w, h) { _, _ in colours.randomElement(using: &random)! }
                actual = expected
                for y in 0..<h {
                    for x in 0..<w where Int.random(in: 0..<6, using: &random) == 0 {
                        actual = actual.setting(x, y, colours.randomElement(using: &random)!)
                    }
                }
            case 1:
                // Flat regions split by a hard edge (vertical, horizontal or diagonal); the
                // actual image moves it by one pixel or softens it with a grey.
                let dark = palette[Int.random(in: 0..<palette.count, using: &random)]
                let light = palette[Int.random(in: 0..<palette.count, using: &random)]
                let kind = Int.random(in: 0..<3, using: &random)
                let edge = Int.random(in: 0...max(w, h), using: &random)
                func side(_ x: Int, _ y: Int, _ e: Int) -> Int { kind == 0 ? x - e : kind == 1 ? y - e : x + y - e }
                expected = image(w, h) { x, y in side(x, y, edge) < 0 ? dark : light }
                let grey: RGBA = (UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                  UInt8.random(in: 0...255, using: &random), 255)
                let soften = Bool.random(using: &random)
                actual = image(w, h) { x, y in
                    let s = side(x, y, edge + 1)
                    return soften && s == -1 ? grey : s < 0 ? dark : light
                }
            case 2:
                // Random colours, some pixels nudged by a little in one channel or more.
                expected = image(w, h) { _, _ in
                    (UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                     UInt8.random(in: 0...255, using: &random),
                     [0, 255, 255, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!)
                }
                actual = expected
                for i in 0..<(w * h) where Int.random(in: 0..<3, using: &random) == 0 {
                    let channel = Int.random(in: 0..<4, using: &random)
                    let step = [1, 2, 3, 5, 8, 13, 21, 60, 128].randomElement(using: &random)!
                    actual.pixels[i * 4 + channel] &+= UInt8(step)
                }
            default:
                // A flat grey with a few blobs of another colour, and tiny changes
                // around them.
                let base: RGBA = palette[Int.random(in: 0..<palette.count, using: &random)]
                let blob: RGBA = palette[Int.random(in: 0..<palette.count, using: &random)]
                let spots = (0..<3).map { _ in (Int.random(in: 0..<w, using: &random), Int.random(in: 0..<h, using: &random)) }
                expected = image(w, h) { x, y in spots.contains { abs($0.0 - x) + abs($0.1 - y) <= 1 } ? blob : base }
                actual = expected
                for (sx, sy) in spots {
                    let x = min(max(sx + Int.random(in: -1...1, using: &random), 0), w - 1)
                    let y = min(max(sy + Int.random(in: -1...1, using: &random), 0), h - 1)
                    let c = palette[Int.random(in: 0..<palette.count, using: &random)]
                    actual = actual.setting(x, y, c)
                }
                for i in 0..<(w * h) where Int.random(in: 0..<8, using: &random) == 0 {
                    actual.pixels[i * 4 + Int.random(in: 0..<3, using: &random)] &+= 1
                }
            }
            out.append(Bool.random(using: &random) ? (expected, actual) : (actual, expected))
        }
        return out
    }

    /// Pixels whose bytes differ and that are not transparent in both: counted by hand.
    static func visiblyDiffering(_ e: RGBAImage, _ a: RGBAImage) -> Int {
        var n = 0
        for i in 0..<(e.width * e.height) {
            let p = Array(e.pixels[(i * 4)..<(i * 4 + 4)]), q = Array(a.pixels[(i * 4)..<(i * 4 + 4)])
            if p != q && !(p[3] == 0 && q[3] == 0) { n += 1 }
        }
        return n
    }

    @Test("differentPixels and the excused reasons match pixelmatch's counts at every threshold, anti-aliasing excused or counted",
          .enabled(if: PythonPixelmatch.available || runningOnCI,
                   "the Python package pixelmatch 0.4.0 is not installed (scripts/install-dependencies)"))
    func agreement() async throws {
        try #require(PythonPixelmatch.available,
                     "pixelmatch 0.4.0 for Python must be installed on CI (scripts/install-dependencies)")
        let pairs = Self.pairs()
        let theirs = try await PythonPixelmatch.counts(pairs, thresholds: Self.thresholds)
        try #require(theirs.count == pairs.count)
        var disagreements = 0, antiAliased = 0, ties = 0
        for (n, (e, a)) in pairs.enumerated() {
            let differing = Self.visiblyDiffering(e, a)
            if Self.hasTiedExtremes(e, a) { ties += 1 }
            for (k, threshold) in Self.thresholds.enumerated() {
                let excusing = theirs[n][2 * k], counting = theirs[n][2 * k + 1]
                var limit = tolerance(0...255, 0...Int.max, perceptual: threshold)
                let m = try #require(compare(e, a, limit).metrics)
                limit.countAntiAliasing = true
                let c = try #require(compare(e, a, limit).metrics)
                let agrees = m.differentPixels == excusing && c.differentPixels == counting
                    && m.excusedAntiAliasing == counting - excusing && c.excusedAntiAliasing == 0
                    && m.excusedWithinThreshold == differing - counting && c.excusedWithinThreshold == differing - counting
                #expect(agrees, """
                    pair \(n) (\(e.width) x \(e.height)), threshold \(threshold): pixelmatch \(excusing) / \(counting) \
                    with anti-aliasing counted; ours \(m.differentPixels) / \(c.differentPixels), excused \
                    \(m.excusedWithinThreshold) within, \(m.excusedAntiAliasing) anti-aliasing, of \(differing) differing
                    """)
                if !agrees { disagreements += 1 }
                antiAliased += counting - excusing
            }
        }
        #expect(disagreements == 0)
        // The set must exercise the rule, not just agree on nothing.
        #expect(antiAliased > 200, "anti-aliased pixels in the set: \(antiAliased)")
        #expect(ties > 100, "pairs with tied extremes: \(ties)")
    }

    /// Whether some differing pixel has two neighbours tying for the darkest or the
    /// brightest in either image (by the luma of the pixels blended over white).
    static func hasTiedExtremes(_ e: RGBAImage, _ a: RGBAImage) -> Bool {
        func luma(_ image: RGBAImage, _ x: Int, _ y: Int) -> Double {
            let p = image[x, y]
            let alpha = Double(p.a) / 255
            func blend(_ c: UInt8) -> Double { p.a == 255 ? Double(c) : 255 + (Double(c) - 255) * alpha }
            return blend(p.r) * 0.29889531 + blend(p.g) * 0.58662247 + blend(p.b) * 0.11448223
        }
        for y in 0..<e.height {
            for x in 0..<e.width where e[x, y] != a[x, y] {
                for image in [e, a] {
                    var values: [Double] = []
                    for ny in max(y - 1, 0)...min(y + 1, e.height - 1) {
                        for nx in max(x - 1, 0)...min(x + 1, e.width - 1) where nx != x || ny != y {
                            values.append(luma(image, nx, ny))
                        }
                    }
                    let centre = luma(image, x, y)
                    if let low = values.min(), low < centre, values.filter({ $0 == low }).count > 1 { return true }
                    if let high = values.max(), high > centre, values.filter({ $0 == high }).count > 1 { return true }
                }
            }
        }
        return false
    }
}
