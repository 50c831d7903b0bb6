// A libFuzzer target over PNG decoding: any bytes must decode or throw a PNGError naming
// the file, never trap, never allocate past the limits; what decodes must survive an
// encode/decode round trip unchanged.
//
// scripts/fuzz fuzzes it; a plain build makes a replayer (`FuzzPNG FILE...`): see FuzzDriver.
import FuzzDriver
import PopoverFiles
import PopoverImage

/// Small limits: the fuzzer should explore the decoder, not wait on big allocations.
let fuzzLimits = PNGLimits(maxSide: 512, maxPixels: 1 << 16)

func fuzzPNG(_ raw: UnsafeRawBufferPointer) {
    let bytes = Array(raw), name = "fuzz.png"
    let image: RGBAImage
    do {
        image = try PNGFile.decode(bytes, name: name, limits: fuzzLimits)
    } catch {
        // Refused: the message names the file and says what is wrong.
        precondition(error.description.hasPrefix(name + ": "), "\(error)")
        if case .tooLarge(_, let width, let height, _) = error {
            precondition(!fuzzLimits.admits(width: width, height: height), "refused an admissible \(width) x \(height)")
        }
        return
    }
    precondition(image.width >= 1 && image.height >= 1 && fuzzLimits.admits(width: image.width, height: image.height),
                 "decoded a \(image.width) x \(image.height) image past the limits")
    precondition(image.pixels.count == image.width * image.height * 4)
    // What we write, we read back exactly.
    do {
        let again = try PNGFile.decode(PNGFile.encode(image), name: "again.png", limits: fuzzLimits)
        precondition(again == image, "round trip changed the pixels")
    } catch {
        preconditionFailure("cannot read back what was written: \(error)")
    }
}

/// SwiftPM links an executable's entry point as `<module>_main` (so tests can link the
/// module); in a fuzzing build that entry point hands over to libFuzzer's driver.
#if FUZZING
@_cdecl("FuzzPNG_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.fuzz(argc, argv, fuzzPNG)
}
#else
@main
enum FuzzPNGReplay {
    static func main() throws { try FuzzDriver.replay(CommandLine.arguments.dropFirst(), fuzzPNG) }
}
#endif
