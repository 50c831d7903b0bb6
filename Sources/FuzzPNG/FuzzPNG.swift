// A libFuzzer target over PNG decoding: any bytes must decode or throw a PNGError naming
// the file, never trap, never allocate past the limits; what decodes must survive an
// encode/decode round trip unchanged.
//
// Built by scripts/fuzz with `-sanitize=fuzzer,address -D FUZZING`: the entry point then
// hands over to libFuzzer's driver, which calls LLVMFuzzerTestOneInput. In a normal build
// the target is a replayer instead:
// `FuzzPNG FILE...` runs each file through the same checks, so `swift build` needs no
// sanitizer and crashers can be replayed by hand.
import PopoverFiles
import PopoverImage

/// Small limits: the fuzzer should explore the decoder, not wait on big allocations.
let fuzzLimits = PNGLimits(maxSide: 512, maxPixels: 1 << 16)

func fuzzPNG(_ bytes: UnsafeRawBufferPointer) {
    let name = "fuzz.png"
    let image: RGBAImage
    do {
        image = try PNGFile.decode(bytes, name: name, limits: fuzzLimits)
    } catch {
        // Refused: the message names the file and says what is wrong.
        precondition(error.file == name && error.description.hasPrefix(name + ": "), "\(error)")
        if case .tooLarge(_, let width, let height, _) = error {
            precondition(!fuzzLimits.admits(width: width, height: height), "refused an admissible \(width) x \(height)")
        }
        return
    }
    precondition(image.width >= 1 && image.height >= 1 && fuzzLimits.admits(width: image.width, height: image.height),
                 "decoded a \(image.width) x \(image.height) image past the limits")
    precondition(image.pixels.count == image.width * image.height * 4)
    // The header alone says the same size.
    do {
        let header = try PNGFile.header(bytes, name: name)
        precondition(header.width == image.width && header.height == image.height, "header \(header) vs image")
    } catch {
        preconditionFailure("decodes but its header does not: \(error)")
    }
    // What we write, we read back exactly.
    do {
        let again = try PNGFile.decode(PNGFile.encode(image), name: "again.png", limits: fuzzLimits)
        precondition(again == image, "round trip changed the pixels")
    } catch {
        preconditionFailure("cannot read back what was written: \(error)")
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzPNG(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver (in the runtime -sanitize=fuzzer links).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's entry point as `<module>_main` (so tests can link the
/// module); in a fuzzing build that entry point hands over to libFuzzer's driver.
@_cdecl("FuzzPNG_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput)
}
#else
@main
enum FuzzPNGReplay {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            let bytes = try FileIO.readBytes(path: path)
            bytes.withUnsafeBytes { fuzzPNG($0) }
            print("ok \(path)")
        }
    }
}
#endif
