import PopoverDiff
import PopoverHarness
import Synchronization

/// A sink that keeps what the check hands over, by case ID, so a test can see which
/// cases had pictures kept and what they were.
final class CapturingSink: CaseArtifactSink {
    private let kept = Mutex<[String: CaseImages]>([:])

    func keep(_ images: CaseImages, of info: CaseInfo) -> CaseArtifacts {
        kept.withLock { $0[info.id] = images }
        return CaseArtifacts()
    }

    var images: [String: CaseImages] { kept.withLock { $0 } }
}

/// A tolerance from ranges known to be valid.
func tolerance(_ channel: ClosedRange<Int>, _ pixels: ClosedRange<Int>, perceptual: Double? = nil) -> Tolerance {
    try! Tolerance(maxChannelDelta: channel, differentPixels: pixels, perceptualThreshold: perceptual)
}
