import Foundation
import PopoverDiff
import PopoverImage
import Testing

@Suite("Image comparison")
struct ComparisonTests {
    @Test("identical images pass exactly with zero metrics", arguments: [(0, 0), (1, 1), (3, 2), (17, 5)])
    func identical(size: (Int, Int)) throws {
        let a = image(size.0, size.1) { x, y in (UInt8(x * 10 % 256), UInt8(y * 20 % 256), 7, 255) }
        let result = compare(a, a, map: true)
        #expect(result.pass)
        #expect(result.failures.isEmpty)
        #expect(result.summary == "identical")
        let m = try #require(result.metrics)
        #expect(m == ComparisonMetrics(width: size.0, height: size.1, differentPixels: 0,
                                       maxChannelDelta: 0, meanAbsoluteError: 0, psnr: nil, pass: true,
                                       tolerance: "exact"))
        #expect(m.excusedPixels == 0 && m.excusedWithinThreshold == 0 && m.excusedAntiAliasing == 0 && m.excusedIgnored == 0)
        let map = try #require(result.diffMap)
        #expect(map.magnitudes.allSatisfy { $0 == 0 })
        #expect(map.classes.allSatisfy { $0 == .equal })
    }

    @Test("one pixel changed by 1 in one channel is one different pixel", arguments: 0..<4)
    func oneChannelOffByOne(channel: Int) throws {
        let expected = solid(4, 3, (100, 100, 100, 200))
        var actual = expected
        actual.pixels[(1 * 4 + 2) * 4 + channel] += 1      // pixel (2, 1)
        let exact = compare(expected, actual, map: true)
        #expect(!exact.pass)
        let m = try #require(exact.metrics)
        #expect(m.differentPixels == 1)
        #expect(m.maxChannelDelta == 1)
        #expect(m.meanAbsoluteError == 1.0 / 48)                       // 1 / (4 channels * 12 pixels)
        #expect(abs(m.psnr! - 10 * log10(65025.0 * 48)) < 1e-9)       // MSE = 1 / 48
        #expect(exact.diffMap?[2, 1].magnitude == 1)
        #expect(exact.diffMap?[2, 1].pixelClass == .different)
        #expect(exact.diffMap?[1, 1].pixelClass == .equal)
        #expect(compare(expected, actual, tolerance(0...1, 0...1)).pass)
    }

    struct VerdictCase: Sendable, CustomTestStringConvertible {
        let name: String
        let changes: [(x: Int, y: Int, delta: UInt8)]
        let tolerance: Tolerance
        let pass: Bool
        var testDescription: String { "\(name): \(tolerance) -> \(pass ? "pass" : "fail")" }
    }

    static let verdicts: [VerdictCase] = {
        let none: [(x: Int, y: Int, delta: UInt8)] = []
        let one: [(x: Int, y: Int, delta: UInt8)] = [(1, 1, 1)]
        let three: [(x: Int, y: Int, delta: UInt8)] = [(0, 0, 1), (2, 1, 2), (3, 3, 2)]
        return [
            VerdictCase(name: "identical", changes: none, tolerance: .exact, pass: true),
            VerdictCase(name: "identical", changes: none, tolerance: tolerance(0...2, 0...300), pass: true),
            VerdictCase(name: "identical", changes: none, tolerance: tolerance(1...2, 0...300), pass: false),
            VerdictCase(name: "identical", changes: none, tolerance: tolerance(0...2, 1...5), pass: false),
            VerdictCase(name: "one off by 1", changes: one, tolerance: .exact, pass: false),
            VerdictCase(name: "one off by 1", changes: one, tolerance: tolerance(0...1, 0...1), pass: true),
            VerdictCase(name: "one off by 1", changes: one, tolerance: tolerance(1...1, 1...1), pass: true),
            VerdictCase(name: "one off by 1", changes: one, tolerance: tolerance(0...0, 0...1), pass: false),
            VerdictCase(name: "one off by 1", changes: one, tolerance: tolerance(0...1, 0...0), pass: false),
            VerdictCase(name: "one off by 1", changes: one, tolerance: tolerance(2...5, 0...1), pass: false),
            VerdictCase(name: "three off by up to 2", changes: three, tolerance: tolerance(0...2, 0...3), pass: true),
            VerdictCase(name: "three off by up to 2", changes: three, tolerance: tolerance(2...2, 3...3), pass: true),
            VerdictCase(name: "three off by up to 2", changes: three, tolerance: tolerance(0...2, 0...2), pass: false),
            VerdictCase(name: "three off by up to 2", changes: three, tolerance: tolerance(0...1, 0...3), pass: false),
            VerdictCase(name: "three off by up to 2", changes: three, tolerance: tolerance(3...5, 0...3), pass: false),
            VerdictCase(name: "three off by up to 2", changes: three, tolerance: tolerance(0...255, 4...300), pass: false),
        ]
    }()

    @Test("verdicts follow inclusive ranges", arguments: verdicts)
    func verdict(_ c: VerdictCase) {
        let expected = solid(4, 4, (50, 60, 70, 255))
        var actual = expected
        for change in c.changes { actual.pixels[(change.y * 4 + change.x) * 4 + 1] += change.delta }
        let result = compare(expected, actual, c.tolerance)
        #expect(result.pass == c.pass)
        #expect(result.metrics?.pass == c.pass)
        #expect(result.failures.isEmpty == c.pass)
    }

    @Test("failure messages say which range was missed and how")
    func failureMessages() {
        let expected = solid(4, 4, (50, 60, 70, 255))
        let actual = expected.setting(0, 0, (50, 60, 77, 255)).setting(1, 0, (51, 60, 70, 255))
        #expect(compare(expected, actual, tolerance(0...2, 0...1)).failures == [
            "2 different pixels, above the allowed 0-1",
            "max channel delta 7, above the allowed 0-2",
        ])
        #expect(compare(expected, expected, tolerance(1...2, 0...5)).failures == [
            "max channel delta 0, below the allowed 1-2",
        ])
        #expect(compare(expected, actual, tolerance(0...7, 0...2)).summary
                == "pass: 2 different pixels, max channel delta 7 (max channel delta 0-7, different pixels 0-2)")
    }

    @Test("size mismatch fails with both sizes", arguments: [
        ((336, 365), (336, 366), "size differs: expected 336 x 365, actual 336 x 366"),
        ((2, 1), (1, 2), "size differs: expected 2 x 1, actual 1 x 2"),
        ((0, 0), (1, 1), "size differs: expected 0 x 0, actual 1 x 1"),
    ])
    func sizeMismatch(sizes: ((Int, Int), (Int, Int), String)) {
        let result = compare(solid(sizes.0.0, sizes.0.1, (0, 0, 0, 255)), solid(sizes.1.0, sizes.1.1, (0, 0, 0, 255)),
                             tolerance(0...255, 0...Int.max), map: true)
        #expect(!result.pass)
        #expect(result.failures == [sizes.2])
        #expect(result.summary == "fail: " + sizes.2)
        #expect(result.metrics == nil)
        #expect(result.diffMap == nil)
    }

    @Test("pixels transparent in both images are equal whatever their colour", arguments: [
        ((10, 20, 30, 0), (200, 100, 0, 0), true),
        ((0, 0, 0, 0), (255, 255, 255, 0), true),
        ((0, 0, 0, 0), (0, 0, 0, 1), false),       // alpha 1 is visible
        ((10, 20, 30, 1), (200, 100, 0, 1), false),
    ] as [(RGBA, RGBA, Bool)])
    func transparent(pixels: (RGBA, RGBA, Bool)) throws {
        let expected = solid(3, 3, (9, 9, 9, 255)).setting(1, 1, pixels.0)
        let actual = solid(3, 3, (9, 9, 9, 255)).setting(1, 1, pixels.1)
        let result = compare(expected, actual, map: true)
        #expect(result.pass == pixels.2)
        let m = try #require(result.metrics)
        #expect((m.differentPixels == 0) == pixels.2)
        #expect((m.psnr == nil) == pixels.2)
        #expect((m.meanAbsoluteError == 0) == pixels.2)
        #expect(result.diffMap?[1, 1].pixelClass == (pixels.2 ? .equal : .different))
    }

    struct MetricsCase: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: [RGBA]
        let actual: [RGBA]
        let differentPixels: Int
        let maxChannelDelta: Int
        let meanAbsoluteError: Double
        let psnr: Double?
        var testDescription: String { name }
    }

    static let metricCases: [MetricsCase] = [
        // Differences: pixel 0 R 2; pixel 1 A 5; pixel 2 G 3, B 4; pixel 3 none.
        // MAE = (2 + 5 + 3 + 4) / 16 = 0.875; MSE = (4 + 25 + 9 + 16) / 16 = 3.375;
        // PSNR = 10 log10(255^2 / 3.375) = 42.848065837...
        MetricsCase(
            name: "2x2 small differences",
            expected: [(10, 20, 30, 255), (10, 20, 30, 255), (10, 20, 30, 255), (10, 20, 30, 255)],
            actual: [(12, 20, 30, 255), (10, 20, 30, 250), (10, 17, 34, 255), (10, 20, 30, 255)],
            differentPixels: 3, maxChannelDelta: 5, meanAbsoluteError: 0.875, psnr: 42.84806583700867),
        // One pixel black -> white: MAE = 765 / 16 = 47.8125; MSE = 3 * 255^2 / 16;
        // PSNR = 10 log10(16 / 3) = 7.269987279...
        MetricsCase(
            name: "2x2 one pixel black to white",
            expected: [(0, 0, 0, 255), (0, 0, 0, 255), (0, 0, 0, 255), (0, 0, 0, 255)],
            actual: [(255, 255, 255, 255), (0, 0, 0, 255), (0, 0, 0, 255), (0, 0, 0, 255)],
            differentPixels: 1, maxChannelDelta: 255, meanAbsoluteError: 47.8125, psnr: 7.269987279362623),
        // Every channel of every pixel off by 255: MSE = 255^2, PSNR = 0 dB.
        MetricsCase(
            name: "2x2 everything inverted",
            expected: [(0, 0, 0, 0), (255, 255, 255, 255), (0, 0, 0, 0), (255, 255, 255, 255)],
            actual: [(255, 255, 255, 255), (0, 0, 0, 0), (255, 255, 255, 255), (0, 0, 0, 0)],
            differentPixels: 4, maxChannelDelta: 255, meanAbsoluteError: 255, psnr: 0),
    ]

    @Test("metrics computed by hand", arguments: metricCases)
    func metrics(_ c: MetricsCase) throws {
        let expected = image(2, 2) { x, y in c.expected[y * 2 + x] }
        let actual = image(2, 2) { x, y in c.actual[y * 2 + x] }
        let m = try #require(compare(expected, actual).metrics)
        #expect(m.width == 2 && m.height == 2)
        #expect(m.differentPixels == c.differentPixels)
        #expect(m.maxChannelDelta == c.maxChannelDelta)
        #expect(m.excusedPixels == 0)
        #expect(abs(m.meanAbsoluteError - c.meanAbsoluteError) < 1e-12)
        let psnr = try #require(m.psnr)
        #expect(abs(psnr - c.psnr!) < 1e-9)
        // The metrics are symmetric in the two images.
        #expect(compare(actual, expected).metrics == m)
    }

    @Test("metrics JSON has exactly the documented keys, psnr null when identical")
    func metricsJSON() throws {
        let a = solid(2, 2, (1, 2, 3, 255))
        let b = a.setting(0, 0, (1, 2, 4, 255))
        let keys: Set = ["width", "height", "differentPixels", "excusedPixels", "excusedWithinThreshold",
                         "excusedAntiAliasing", "excusedIgnored", "maxChannelDelta", "meanAbsoluteError", "psnr",
                         "pass", "tolerance"]
        for (pair, psnrIsNull) in [((a, a), true), ((a, b), false)] {
            let metrics = try #require(compare(pair.0, pair.1).metrics)
            let data = try JSONEncoder().encode(metrics)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(Set(object.keys) == keys)
            #expect((object["psnr"] is NSNull) == psnrIsNull)
            #expect(object["tolerance"] as? String == "exact")
            #expect(try JSONDecoder().decode(ComparisonMetrics.self, from: data) == metrics)
        }
    }

    @Test("metrics JSON written before the excused pixels were split still reads: the reasons 0, the total kept")
    func olderMetricsJSON() throws {
        let older = #"{"width": 4, "height": 3, "differentPixels": 2, "excusedPixels": 5, "maxChannelDelta": 9,"#
            + #" "meanAbsoluteError": 0.5, "psnr": 40.5, "pass": false, "tolerance": "exact"}"#
        let m = try JSONDecoder().decode(ComparisonMetrics.self, from: Data(older.utf8))
        #expect(m.width == 4 && m.height == 3 && m.differentPixels == 2 && m.maxChannelDelta == 9)
        #expect(m.excusedPixels == 5)
        #expect(m.excusedWithinThreshold == 0 && m.excusedAntiAliasing == 0 && m.excusedIgnored == 0)
        #expect(m.psnr == 40.5 && m.meanAbsoluteError == 0.5 && !m.pass && m.tolerance == "exact")

        // Written now: every reason, and the total their sum.
        let split = ComparisonMetrics(width: 4, height: 3, differentPixels: 2, excusedWithinThreshold: 3,
                                      excusedAntiAliasing: 1, excusedIgnored: 4, maxChannelDelta: 9,
                                      meanAbsoluteError: 0.5, psnr: nil, pass: true, tolerance: "exact")
        #expect(split.excusedPixels == 8)
        let object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(split)) as? [String: Any])
        #expect(object["excusedPixels"] as? Int == 8)
        #expect(object["excusedWithinThreshold"] as? Int == 3)
        #expect(object["excusedAntiAliasing"] as? Int == 1)
        #expect(object["excusedIgnored"] as? Int == 4)
        #expect(try JSONDecoder().decode(ComparisonMetrics.self, from: try JSONEncoder().encode(split)) == split)
    }

    @Test("the summary line gives the excused pixels' reasons")
    func summaryReasons() throws {
        // Column 4 anti-aliasing (8 pixels) and one pixel of column 0 a shade lighter.
        let expected = hardEdge(8, 8, edge: 4)
        let actual = image(8, 8) { x, y in
            x == 4 ? (128, 128, 128, 255) : x == 0 && y == 2 ? (2, 2, 2, 255) : x < 4 ? (0, 0, 0, 255) : (255, 255, 255, 255)
        }
        let result = compare(expected, actual, tolerance(0...0, 0...0, perceptual: 0.1))
        #expect(result.summary == "pass: 0 different pixels, max channel delta 0, 9 excused: 1 within the threshold, "
                + "8 anti-aliasing (max channel delta 0-0, different pixels 0-0, perceptual 0.1)")
    }

    @Test("anti-aliased edge: excused with perceptual on, counted with it off or with anti-aliasing counted",
          arguments: [(nil, false), (0.0, false), (0.1, false), (0.1, true), (nil, true)] as [(Double?, Bool)])
    func antialiasedEdge(threshold: Double?, countAntiAliasing: Bool) throws {
        // A hard edge between columns 3 and 4, and the same edge with column 4 turned
        // into an anti-aliasing grey, as a renderer shifting the edge by half a pixel would.
        let expected = hardEdge(8, 8, edge: 4)
        let actual = image(8, 8) { x, _ in x < 4 ? (0, 0, 0, 255) : x == 4 ? (128, 128, 128, 255) : (255, 255, 255, 255) }
        var limit = tolerance(0...0, 0...0, perceptual: threshold)
        limit.countAntiAliasing = countAntiAliasing
        let excused = threshold != nil && !countAntiAliasing
        for (e, a) in [(expected, actual), (actual, expected)] {
            let result = compare(e, a, limit, map: true)
            let m = try #require(result.metrics)
            #expect(result.pass == excused)
            if excused {
                #expect(m.differentPixels == 0 && m.excusedPixels == 8 && m.maxChannelDelta == 0)
                #expect(m.excusedAntiAliasing == 8 && m.excusedWithinThreshold == 0 && m.excusedIgnored == 0)
            } else {
                #expect(m.differentPixels == 8 && m.excusedPixels == 0 && m.maxChannelDelta == 127)
            }
            let map = try #require(result.diffMap)
            for y in 0..<8 {
                #expect(map[4, y] == (127, excused ? .excused : .different))
                #expect(map[3, y].pixelClass == .equal)
            }
        }
    }

    @Test("a changed pixel in a flat area is not anti-aliasing")
    func isolatedChangeIsNotAntialiasing() throws {
        let expected = solid(5, 5, (100, 150, 200, 255))
        let actual = expected.setting(2, 2, (20, 30, 40, 255))
        let m = try #require(compare(expected, actual, tolerance(0...0, 0...0, perceptual: 0.1)).metrics)
        #expect(m.differentPixels == 1 && m.excusedPixels == 0)
    }

    @Test("perceptual threshold excuses a tiny colour change but not a large one", arguments: [
        ((102, 150, 200, 255), 0.1, true),
        ((100, 151, 201, 255), 0.05, true),
        ((100, 150, 200, 250), 0.1, true),        // a little more transparent
        ((200, 150, 200, 255), 0.1, false),
        ((100, 150, 200, 60), 0.1, false),        // much more transparent
        ((102, 150, 200, 255), 0.0, false),       // threshold 0 excuses nothing but anti-aliasing
        ((140, 150, 200, 255), 1.0, true),        // threshold 1 excuses everything
    ] as [(RGBA, Double, Bool)])
    func perceptualThreshold(c: (RGBA, Double, Bool)) throws {
        let expected = solid(5, 5, (100, 150, 200, 255))
        let actual = expected.setting(2, 2, c.0)
        let result = compare(expected, actual, tolerance(0...0, 0...0, perceptual: c.1), map: true)
        let m = try #require(result.metrics)
        #expect(result.pass == c.2)
        #expect(m.excusedPixels == (c.2 ? 1 : 0))
        #expect(m.excusedWithinThreshold == (c.2 ? 1 : 0))
        #expect(m.excusedAntiAliasing == 0)
        #expect(m.differentPixels == (c.2 ? 0 : 1))
        #expect(m.meanAbsoluteError > 0)    // excused pixels still count in MAE and PSNR
        #expect(result.diffMap?[2, 2].pixelClass == (c.2 ? .excused : .different))
    }

    @Test("large images: identical and with a few differences")
    func largeImages() throws {
        let n = 1000
        let expected = image(n, n) { x, y in (UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8((x ^ y) & 0xFF), 255) }
        let same = compare(expected, expected, map: true)
        #expect(same.pass)
        #expect(same.metrics?.differentPixels == 0)

        // An identical copy in a separate buffer (not shared storage).
        var copy = expected
        copy.pixels[0] ^= 0
        copy.pixels.append(0); copy.pixels.removeLast()
        #expect(compare(expected, copy).pass)

        let changes: [(Int, Int, RGBA)] = [
            (0, 0, (1, 0, 0, 255)), (999, 0, (0, 0, 0, 255)), (500, 500, (9, 9, 9, 9)),
            (0, 999, (200, 200, 200, 255)), (999, 999, (0, 0, 0, 0)),
        ]
        var actual = expected
        for (x, y, c) in changes { actual = actual.setting(x, y, c) }
        let result = compare(expected, actual, tolerance(0...255, 0...5), map: true)
        let m = try #require(result.metrics)
        #expect(result.pass)
        #expect(m.differentPixels == 5)
        #expect(m.maxChannelDelta == 255)
        let map = try #require(result.diffMap)
        #expect(map.classes.filter { $0 == .different }.count == 5)
        #expect(map.magnitudes.filter { $0 != 0 }.count == 5)
        for (x, y, _) in changes { #expect(map[x, y].pixelClass == .different) }

        let perceptual = compare(expected, actual, tolerance(0...255, 0...5, perceptual: 0.1))
        #expect(perceptual.metrics.map { $0.differentPixels + $0.excusedPixels } == 5)
    }
}
