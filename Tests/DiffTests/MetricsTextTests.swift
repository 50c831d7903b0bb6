import PopoverDiff
import Testing

@Suite("Measurements written for people")
struct MetricsTextTests {
    static func metrics(mae: Double, psnr: Double?) -> ComparisonMetrics {
        ComparisonMetrics(width: 4, height: 4, differentPixels: 3, maxChannelDelta: 9,
                          meanAbsoluteError: mae, psnr: psnr, pass: false, tolerance: "exact")
    }

    /// (meanAbsoluteError, psnr) -> the texts, written out by hand: four decimals for the
    /// error and two for the PSNR, rounded to nearest; "inf" for identical images.
    @Test("four decimals of error, two of PSNR in dB, inf when identical", arguments: [
        (0.5, 40.0, "0.5000", "40.00 dB"),
        (0.012_34, 71.234, "0.0123", "71.23 dB"),
        (0.000_06, 99.996, "0.0001", "100.00 dB"),
        (255.0, nil, "255.0000", "inf"),
        (0.0, 0.004, "0.0000", "0.00 dB"),
    ] as [(Double, Double?, String, String)])
    func texts(mae: Double, psnr: Double?, maeText: String, psnrText: String) {
        let m = Self.metrics(mae: mae, psnr: psnr)
        #expect(m.meanAbsoluteErrorText == maeText)
        #expect(m.psnrText == psnrText)
        #expect(m.line == "differentPixels 3, maxChannelDelta 9, meanAbsoluteError \(maeText), psnr \(psnrText)")
    }
}
