import PopoverDiff
import PopoverImage
import Testing
import TestSupport

/// Without a diff map or a perceptual threshold the comparison counts four pixels at a
/// time; with a map it goes pixel by pixel. Both must give the same metrics on any pair.
@Suite("Vector and pixel-by-pixel paths agree")
struct VectorPathTests {
    @Test("random pairs of every width from 1 to 40, with transparent pixels and small and large changes",
          arguments: 1...40)
    func agree(width: Int) {
        var random = SplitMix64(seed: UInt64(width))
        for round in 0..<6 {
            let height = 1 + Int(random.next() % 9)
            var expected = RGBAImage(width: width, height: height)
            for i in expected.pixels.indices { expected.pixels[i] = random.byte() }
            var actual = expected
            for p in 0..<(width * height) {
                switch random.next() % 6 {
                case 0: actual.pixels[p * 4 + Int(random.next() % 4)] = random.byte()        // any change
                case 1: actual.pixels[p * 4] = actual.pixels[p * 4] &+ 1                   // off by one
                case 2: expected.pixels[p * 4 + 3] = 0; actual.pixels[p * 4 + 3] = 0       // clear in both
                        actual.pixels[p * 4 + 1] = random.byte()
                default: break
                }
            }
            let counted = ImageComparison.compare(expected: expected, actual: actual, tolerance: .exact)
            let mapped = ImageComparison.compare(expected: expected, actual: actual, tolerance: .exact, wantsDiffMap: true)
            #expect(counted.metrics == mapped.metrics, "width \(width), round \(round)")
            #expect(counted.pass == mapped.pass)
        }
    }
}
