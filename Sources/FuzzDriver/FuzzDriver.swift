// What the fuzz targets share: how one target's check meets libFuzzer, and how a plain
// build replays files through it instead. Each target keeps only its check and an entry
// point that hands the check here.
//
// Built by scripts/fuzz with `-sanitize=fuzzer,address -D FUZZING`: the target's entry
// point then calls `fuzz`, which hands over to libFuzzer's driver. In a normal build the
// target is a replayer (`FuzzPNG FILE...`), so `swift build` needs no sanitizer and
// crashers can be replayed by hand.
import PopoverFiles

public enum FuzzDriver {
    /// Runs each file named in `paths` through `check`, saying `ok FILE` after each; a
    /// failed check stops the process there.
    public static func replay(_ paths: some Sequence<String>, _ check: (UnsafeRawBufferPointer) -> Void) throws {
        for path in paths {
            let bytes = try FileIO.readBytes(path: path)
            bytes.withUnsafeBytes { check($0) }
            print("ok \(path)")
        }
    }

    #if FUZZING
    /// The check libFuzzer's inputs go through; set once, before the driver starts.
    nonisolated(unsafe) static var check: (UnsafeRawBufferPointer) -> Void = { _ in }

    /// Hands `check` and the command line to libFuzzer's driver.
    public static func fuzz(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                            _ check: @escaping (UnsafeRawBufferPointer) -> Void) -> CInt {
        Self.check = check
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput)
    }
    #endif
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver (in the runtime -sanitize=fuzzer links).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
