import Foundation
import PopoverDiff
import PopoverImage
import Testing
import TestSupport

@Suite("Comparison with an ignore mask")
struct IgnoreMaskTests {
    @Test("a mask from a closure or from bytes")
    func building() {
        let fromClosure = PixelMask(width: 3, height: 2) { x, y in x == 2 || (x == 0 && y == 1) }
        let fromBytes = PixelMask(width: 3, height: 2, bytes: [0, 0, 7, 1, 0, 255])
        #expect(fromClosure == fromBytes)
        #expect(fromClosure.ignoredCount == 3)
        #expect(fromClosure[2, 0] && fromClosure[0, 1] && fromClosure[2, 1])
        #expect(!fromClosure[0, 0] && !fromClosure[1, 0] && !fromClosure[1, 1])
        #expect(PixelMask(width: 0, height: 0) { _, _ in true }.ignoredCount == 0)
    }

    /// A 4 x 3 grey image; the actual one changes (1, 0) by 9 in red, (2, 1) by 40 in
    /// green and (3, 2) by 5 in alpha; the mask covers (2, 1) and (0, 0), which is equal.
    /// Worked by hand: counted (1, 0) and (3, 2), max delta 9; ignored (2, 1);
    /// MAE = (9 + 40 + 5) / 48 = 1.125; MSE = (81 + 1600 + 25) / 48; PSNR =
    /// 10 log10(65025 * 48 / 1706) = 32.6248... The same with a perceptual threshold of
    /// 0 and anti-aliasing counted, which excuse nothing else here.
    @Test("a differing pixel in the mask is excused as ignored, out of the count and the max delta, in MAE and PSNR",
          arguments: [nil, 0.0] as [Double?])
    func ignoredPixel(threshold: Double?) throws {
        var limit = tolerance(0...9, 0...2, perceptual: threshold)
        limit.countAntiAliasing = true
        let expected = solid(4, 3, (100, 100, 100, 255))
        let actual = expected.setting(1, 0, (109, 100, 100, 255)).setting(2, 1, (100, 140, 100, 255))
            .setting(3, 2, (100, 100, 100, 250))
        let mask = PixelMask(width: 4, height: 3) { x, y in (x == 2 && y == 1) || (x == 0 && y == 0) }
        for wantsMap in [false, true] {
            let result = try ImageComparison.compare(expected: expected, actual: actual,
                                                     tolerance: limit, ignoring: mask, wantsDiffMap: wantsMap)
            let m = try #require(result.metrics)
            #expect(result.pass)
            #expect(m.differentPixels == 2 && m.maxChannelDelta == 9)
            #expect(m.excusedIgnored == 1 && m.excusedPixels == 1)
            #expect(m.excusedWithinThreshold == 0 && m.excusedAntiAliasing == 0)
            #expect(m.meanAbsoluteError == 1.125)
            #expect(abs(try #require(m.psnr) - 10 * log10(65025.0 * 48 / 1706)) < 1e-9)
            if wantsMap {
                let map = try #require(result.diffMap)
                #expect(map[2, 1] == (40, .ignored))
                #expect(map[0, 0] == (0, .equal))
                #expect(map[1, 0] == (9, .different) && map[3, 2] == (5, .different))
                #expect(map.changedRegion == PixelRegion(x: 1, y: 0, width: 3, height: 3))
                #expect(Heatmap.render(expected: expected, diff: map)[2, 1] == (0, 255, 255, 255))
            } else {
                #expect(result.diffMap == nil)
            }
        }
        // Without the mask the same pixel is counted: 3 different pixels, max delta 40.
        let unmasked = try #require(compare(expected, actual, limit).metrics)
        #expect(unmasked.differentPixels == 3 && unmasked.maxChannelDelta == 40 && unmasked.excusedPixels == 0)
    }

    @Test("the mask comes first: a pixel in it is ignored even when the threshold or anti-aliasing would excuse it")
    func maskBeforePerceptual() throws {
        // Column 4 of a hard edge turned grey is anti-aliasing (see ComparisonTests); the
        // pixel (0, 0) changed by 1 is within threshold 0.1.
        let expected = hardEdge(8, 8, edge: 4)
        let actual = image(8, 8) { x, y in
            x == 4 ? (128, 128, 128, 255) : x == 0 && y == 0 ? (1, 1, 1, 255) : x < 4 ? (0, 0, 0, 255) : (255, 255, 255, 255)
        }
        let mask = PixelMask(width: 8, height: 8) { x, y in (x == 4 && y < 3) || (x == 0 && y == 0) }
        let result = try ImageComparison.compare(expected: expected, actual: actual,
                                                 tolerance: tolerance(0...0, 0...0, perceptual: 0.1),
                                                 ignoring: mask, wantsDiffMap: true)
        let m = try #require(result.metrics)
        #expect(m.differentPixels == 0)
        #expect(m.excusedIgnored == 4 && m.excusedAntiAliasing == 5 && m.excusedWithinThreshold == 0)
        #expect(m.excusedPixels == 9)
        let map = try #require(result.diffMap)
        #expect(map[4, 0].pixelClass == .ignored && map[4, 3].pixelClass == .excused && map[0, 0].pixelClass == .ignored)
    }

    @Test("a mask of another size is an error naming both sizes; images of different sizes still just fail")
    func sizes() throws {
        let a = solid(5, 3, (1, 2, 3, 255))
        let b = a.setting(0, 0, (9, 9, 9, 255))
        #expect(throws: PixelMaskSizeError.self) {
            try ImageComparison.compare(expected: a, actual: b, tolerance: .exact,
                                        ignoring: PixelMask(width: 4, height: 3) { _, _ in false })
        }
        do {
            _ = try ImageComparison.compare(expected: a, actual: a, tolerance: .exact,
                                            ignoring: PixelMask(width: 5, height: 4) { _, _ in false })
            Issue.record("no error")
        } catch {
            #expect(error.description == "the ignore mask is 5 x 4 pixels but the images are 5 x 3")
        }
        let wider = solid(6, 3, (1, 2, 3, 255))
        let result = try ImageComparison.compare(expected: a, actual: wider, tolerance: .exact,
                                                 ignoring: PixelMask(width: 5, height: 3) { _, _ in true })
        #expect(!result.pass && result.failures == ["size differs: expected 5 x 3, actual 6 x 3"])
        // No mask at all is the comparison without one.
        #expect(try ImageComparison.compare(expected: a, actual: b, tolerance: .exact, ignoring: nil, wantsDiffMap: true)
                == compare(a, b, map: true))
    }

    /// Random images, each pixel differing with some chance, and a random mask: the counts
    /// are what counting by hand over the two images gives.
    @Test("random images and masks: different = differing pixels outside the mask, ignored = inside",
          arguments: [(1, 1), (7, 1), (1, 9), (13, 11), (64, 40)])
    func randomMasks(width: Int, height: Int) throws {
        var random = SplitMix64(seed: UInt64(width * 131 + height))
        for round in 0..<20 {
            var expected = RGBAImage(width: width, height: height,
                                     pixels: (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &random) })
            var actual = expected
            for i in 0..<(width * height) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:  // one channel changes
                    let channel = Int.random(in: 0..<4, using: &random)
                    actual.pixels[i * 4 + channel] &+= UInt8.random(in: 1...255, using: &random)
                case 2:     // transparent in both, other colour bytes: equal
                    expected.pixels[i * 4 + 3] = 0
                    actual.pixels[i * 4 + 3] = 0
                    actual.pixels[i * 4] &+= 1
                default: break
                }
            }
            let flags = (0..<(width * height)).map { _ in UInt8(Int.random(in: 0..<4, using: &random) == 0 ? 1 : 0) }
            let mask = PixelMask(width: width, height: height, bytes: flags)
            var outside = 0, inside = 0, maxDelta = 0
            for i in 0..<(width * height) {
                let e = expected.pixels[(i * 4)..<(i * 4 + 4)], a = actual.pixels[(i * 4)..<(i * 4 + 4)]
                if Array(e) == Array(a) || (e.last == 0 && a.last == 0) { continue }
                if flags[i] != 0 { inside += 1; continue }
                outside += 1
                for (x, y) in zip(e, a) { maxDelta = max(maxDelta, abs(Int(x) - Int(y))) }
            }
            for wantsMap in [false, true] {
                let result = try ImageComparison.compare(expected: expected, actual: actual,
                                                         tolerance: .exact, ignoring: mask, wantsDiffMap: wantsMap)
                let m = try #require(result.metrics)
                #expect(m.differentPixels == outside && m.excusedIgnored == inside && m.maxChannelDelta == maxDelta,
                        "round \(round), map \(wantsMap)")
                let plain = try #require(compare(expected, actual).metrics)
                #expect(m.meanAbsoluteError == plain.meanAbsoluteError && m.psnr == plain.psnr)
                if let map = result.diffMap {
                    #expect(map.classes.filter { $0 == .ignored }.count == inside)
                    #expect(map.classes.filter { $0 == .different }.count == outside)
                }
            }
        }
    }
}
