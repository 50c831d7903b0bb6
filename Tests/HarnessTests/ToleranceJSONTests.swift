import Foundation
import PopoverDiff
import PopoverHarness
import Testing

/// A tolerance as the policy file writes it, and layers laid over one another.
@Suite("Tolerances in the policy file's JSON, and layering")
struct ToleranceJSONTests {
    @Test("JSON: ranges as numbers, strings or pairs; encodes as N-M strings", arguments: [
        (#"{}"#, Tolerance.exact),
        (#"{"maxChannelDelta": 2, "differentPixels": "10-20"}"#, tolerance(0...2, 10...20)),
        (#"{"maxChannelDelta": [1, 3], "differentPixels": "300", "perceptualThreshold": 0.1}"#,
         tolerance(1...3, 0...300, perceptual: 0.1)),
        (#"{"perceptualThreshold": null}"#, Tolerance.exact),
        (#"{"perceptualThreshold": "off"}"#, Tolerance.exact),
        (#"{"perceptualThreshold": "0.25"}"#, tolerance(0...0, 0...0, perceptual: 0.25)),
        (#"{"perceptualThreshold": 0.1, "countAntiAliasing": true}"#,
         try! Tolerance(perceptualThreshold: 0.1, countAntiAliasing: true)),
        (#"{"countAntiAliasing": false}"#, Tolerance.exact),
    ])
    func json(c: (String, Tolerance)) throws {
        let decoded = try JSONDecoder().decode(Tolerance.self, from: Data(c.0.utf8))
        #expect(decoded == c.1)
        let encoded = try JSONEncoder().encode(decoded)
        #expect(try JSONDecoder().decode(Tolerance.self, from: encoded) == decoded)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["maxChannelDelta"] as? String == "\(c.1.maxChannelDelta.lowerBound)-\(c.1.maxChannelDelta.upperBound)")
        // Written only when set, so policies without it encode as before.
        #expect(object["countAntiAliasing"] as? Bool == (c.1.countAntiAliasing ? true : nil))
    }

    @Test("JSON: bad values and unknown keys are rejected", arguments: [
        #"{"maxChannelDelta": 256}"#,
        #"{"maxChannelDelta": [3, 1]}"#,
        #"{"maxChannelDelta": [1, 2, 3]}"#,
        #"{"differentPixels": -1}"#,
        #"{"differentPixels": true}"#,
        #"{"perceptualThreshold": 2}"#,
        #"{"maxChannelDelt": 2}"#,
        #"{"countAntiAliasing": "true"}"#,
        #"{"countAntiAliasing": 0}"#,
    ])
    func jsonErrors(text: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Tolerance.self, from: Data(text.utf8))
        }
    }

    @Test("a layer replaces only what it sets")
    func layering() {
        let base = tolerance(0...2, 0...300, perceptual: 0.1)
        #expect(base.applying(ToleranceLayer()) == base)
        #expect(base.applying(ToleranceLayer(differentPixels: 5...9)) == tolerance(0...2, 5...9, perceptual: 0.1))
        #expect(base.applying(ToleranceLayer(perceptual: .off)) == tolerance(0...2, 0...300))
        #expect(Tolerance.exact.applying(ToleranceLayer(maxChannelDelta: 1...1, perceptual: .threshold(0.2)))
                == tolerance(1...1, 0...0, perceptual: 0.2))
        let counting = base.applying(ToleranceLayer(countAntiAliasing: true))
        #expect(counting.countAntiAliasing && counting.perceptualThreshold == 0.1 && counting.differentPixels == 0...300)
        #expect(counting.applying(ToleranceLayer(differentPixels: 1...2)).countAntiAliasing)
        #expect(counting.applying(ToleranceLayer(countAntiAliasing: false)) == base)
    }
}
