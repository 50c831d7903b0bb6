import Foundation
import PopoverDiff
import Testing

@Suite("Tolerance")
struct ToleranceTests {
    @Test("exact by default")
    func exactByDefault() throws {
        let t = try Tolerance()
        #expect(t == .exact)
        #expect(t.isExact)
        #expect(t.maxChannelDelta == 0...0 && t.differentPixels == 0...0 && t.perceptualThreshold == nil)
        #expect(!t.countAntiAliasing)
        #expect(try Tolerance(parsingMaxChannelDelta: nil, differentPixels: nil, perceptual: nil) == .exact)
    }

    @Test("descriptions", arguments: [
        (Tolerance.exact, "exact"),
        (tolerance(0...2, 0...300, perceptual: 0.1), "max channel delta 0-2, different pixels 0-300, perceptual 0.1"),
        (tolerance(1...2, 0...0), "max channel delta 1-2, different pixels 0-0"),
        (tolerance(0...0, 0...0, perceptual: 0.05), "max channel delta 0-0, different pixels 0-0, perceptual 0.05"),
        (try! Tolerance(differentPixels: 0...3, perceptualThreshold: 0.1, countAntiAliasing: true),
         "max channel delta 0-0, different pixels 0-3, perceptual 0.1, anti-aliasing counted"),
        // Without a threshold it changes nothing, but the tolerance says what was asked.
        (try! Tolerance(countAntiAliasing: true), "max channel delta 0-0, different pixels 0-0, anti-aliasing counted"),
    ])
    func descriptions(c: (Tolerance, String)) {
        #expect(c.0.description == c.1)
    }

    @Test("ranges parse as N = 0...N and N-M = N...M", arguments: [
        ("0", 0...0), ("3", 0...3), ("300", 0...300), ("0-2", 0...2), ("5-5", 5...5),
        ("1-255", 1...255), (" 7 ", 0...7), ("2 - 9", 2...9),
    ])
    func parseRange(c: (String, ClosedRange<Int>)) throws {
        #expect(try Tolerance.parseRange(c.0, option: "--different-pixels") == c.1)
    }

    @Test("command-line strings make a tolerance")
    func parseCommandLine() throws {
        let t = try Tolerance(parsingMaxChannelDelta: "2", differentPixels: "10-300", perceptual: "0.1")
        #expect(t == tolerance(0...2, 10...300, perceptual: 0.1))
        #expect(try Tolerance(parsingMaxChannelDelta: "0-255", differentPixels: nil, perceptual: "off")
                == tolerance(0...255, 0...0))
        #expect(try Tolerance(parsingMaxChannelDelta: nil, differentPixels: nil, perceptual: "1") == tolerance(0...0, 0...0, perceptual: 1))
        let counting = try Tolerance(parsingMaxChannelDelta: nil, differentPixels: "4", perceptual: "0.2",
                                     countAntiAliasing: true)
        #expect(counting.countAntiAliasing && counting.perceptualThreshold == 0.2 && counting.differentPixels == 0...4)
        #expect(counting != tolerance(0...0, 0...4, perceptual: 0.2))
    }

    @Test("bad command-line strings name the option and the text", arguments: [
        ("300", nil, nil, "--max-channel-delta: 300 is outside 0-255"),
        ("2-256", nil, nil, "--max-channel-delta: 256 is outside 0-255"),
        ("abc", nil, nil, "--max-channel-delta: \"abc\" is not a count or range (write N for 0-N, or N-M)"),
        ("5-2", nil, nil, "--max-channel-delta: \"5-2\" has its lower bound above its upper bound"),
        (nil, "-1", nil, "--different-pixels: \"-1\" is not a count or range (write N for 0-N, or N-M)"),
        (nil, "1-2-3", nil, "--different-pixels: \"1-2-3\" is not a count or range (write N for 0-N, or N-M)"),
        (nil, "", nil, "--different-pixels: \"\" is not a count or range (write N for 0-N, or N-M)"),
        (nil, "+4", nil, "--different-pixels: \"+4\" is not a count or range (write N for 0-N, or N-M)"),
        (nil, "1.5", nil, "--different-pixels: \"1.5\" is not a count or range (write N for 0-N, or N-M)"),
        (nil, "99999999999999999999", nil,
         "--different-pixels: \"99999999999999999999\" is not a count or range (write N for 0-N, or N-M)"),
        (nil, nil, "1.5", "--perceptual: 1.5 is outside 0-1"),
        (nil, nil, "-0.1", "--perceptual: -0.1 is outside 0-1"),
        (nil, nil, "nan", "--perceptual: nan is not a finite number"),
        (nil, nil, "inf", "--perceptual: inf is not a finite number"),
        (nil, nil, "high", "--perceptual: \"high\" is not a number (write a value from 0 to 1, e.g. 0.1, or off)"),
    ] as [(String?, String?, String?, String)])
    func parseErrors(c: (String?, String?, String?, String)) {
        do throws(ToleranceError) {
            let t = try Tolerance(parsingMaxChannelDelta: c.0, differentPixels: c.1, perceptual: c.2)
            Issue.record("parsed \(t)")
        } catch {
            #expect(error.description == c.3)
            #expect(error.localizedDescription == c.3)
        }
    }

    @Test("validation names the option and the value", arguments: [
        (0...300, 0...0, nil, "--max-channel-delta: 300 is outside 0-255", ToleranceError.Problem.outside(allowed: "0-255")),
        ((-1)...2, 0...0, nil, "--max-channel-delta: -1 is outside 0-255", .outside(allowed: "0-255")),
        (0...0, (-5)...3, nil, "--different-pixels: -5 is negative", .negative),
        (0...0, 0...0, Double.nan, "--perceptual: nan is not a finite number", .notFinite),
        (0...0, 0...0, -Double.infinity, "--perceptual: -inf is not a finite number", .notFinite),
        (0...0, 0...0, 1.5, "--perceptual: 1.5 is outside 0-1", .outside(allowed: "0-1")),
    ] as [(ClosedRange<Int>, ClosedRange<Int>, Double?, String, ToleranceError.Problem)])
    func validation(c: (ClosedRange<Int>, ClosedRange<Int>, Double?, String, ToleranceError.Problem)) {
        #expect(throws: ToleranceError.self) {
            try Tolerance(maxChannelDelta: c.0, differentPixels: c.1, perceptualThreshold: c.2)
        }
        do throws(ToleranceError) {
            try tolerance(c.0, c.1, perceptual: c.2).validated()
            Issue.record("validated")
        } catch {
            #expect(error.description == c.3)
            #expect(error.problem == c.4)
        }
    }

    @Test("valid extremes are accepted")
    func validExtremes() throws {
        _ = try Tolerance(maxChannelDelta: 0...255, differentPixels: 0...Int.max, perceptualThreshold: 0)
        _ = try Tolerance(maxChannelDelta: 255...255, differentPixels: 5...5, perceptualThreshold: 1)
    }
}
