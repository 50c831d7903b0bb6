// A libFuzzer target over the geometry and the skins: bounds, offset, direction and
// metrics decoded from the fuzz bytes (NaN, infinities, negatives and huge values
// included). BackgroundLayout.make must throw or return a sound layout, never trap;
// small valid requests are also drawn by every catalog skin at scale 1, 2 or 3, which
// must not trap either and must return a bitmap that holds the background.
//
// scripts/fuzz fuzzes it; a plain build makes a replayer (`FuzzLayout FILE...`): see
// FuzzDriver.
import FuzzDriver
import PopoverGeometry
import PopoverImage
import PopoverSkins

/// Reads numbers from the fuzz bytes; zeros once they run out.
struct FuzzReader {
    var bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bits64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// A number: usually a modest one in quarter points, sometimes any Double at all.
    mutating func number(scale: Double = 0.25) -> Double {
        let kind = byte()
        switch kind % 8 {
        case 0: return Double(bitPattern: bits64())
        case 1: return -Double(UInt16(byte()) << 8 | UInt16(byte())) * scale
        default: return Double(UInt16(byte()) << 8 | UInt16(byte())) * scale
        }
    }
}

/// The catalog's skins, made once.
let catalogSkins: [any Skin] = SkinCatalog.lineup().skins

func fuzzLayout(_ bytes: UnsafeRawBufferPointer) {
    var reader = FuzzReader(bytes: bytes)
    let flags = reader.byte()
    let direction = ArrowDirection.allCases[Int(flags & 3)]
    var metrics = SevenImageMetrics.standard
    if flags & 4 != 0 {
        metrics.arrowBase = reader.number()
        metrics.arrowHeight = reader.number()
        metrics.cornerRadius = reader.number()
        metrics.sideArrowCenterOffset = reader.number()
        metrics.secondStageRightInset = reader.number()
        metrics.secondStageBottomInset = reader.number()
        let image = ArrowImage.allCases[Int(reader.byte()) % ArrowImage.allCases.count]
        metrics[image] = ImageSpec(width: reader.number(), height: reader.number(),
                                   capInsets: EdgeInsets(top: reader.number(), left: reader.number(),
                                                         bottom: reader.number(), right: reader.number()))
    }
    let bounds = Size(width: reader.number(), height: reader.number())
    let offset = reader.number(scale: 0.125) - 2048

    let layout: BackgroundLayout
    do {
        layout = try BackgroundLayout.make(bounds: bounds, direction: direction, arrowOffset: offset, metrics: metrics)
    } catch {
        return
    }
    // A layout that was made: its last stage is the bounds, and for any size a screen can
    // have, every stage is finite, positive when the bounds are (metrics of zeros admit
    // 0 x 0 bounds), with finite, non-negative insets.
    precondition(layout.stages.count == 1 || layout.stages.count == 2, "\(layout.stages.count) stages")
    precondition(layout.stages.last?.size == bounds, "last stage is not the bounds \(bounds)")
    if bounds.width <= 1e6 && bounds.height <= 1e6 {
        let positive = bounds.width > 0 && bounds.height > 0
        for stage in layout.stages {
            let w = stage.size.width, h = stage.size.height
            precondition(w.isFinite && h.isFinite && (positive ? w > 0 && h > 0 : w >= 0 && h >= 0),
                         "stage \(stage) of \(bounds) \(direction) offset \(offset) metrics \(metrics)")
            let c = stage.capInsets
            precondition([c.top, c.left, c.bottom, c.right].allSatisfy { $0.isFinite && $0 >= 0 },
                         "stage insets \(c) of \(bounds) \(direction) offset \(offset)")
        }
    }

    // Small requests with standard metrics are drawn by a catalog skin.
    guard flags & 4 == 0, bounds.width <= 300, bounds.height <= 300, !catalogSkins.isEmpty else { return }
    let skin = catalogSkins[Int(flags >> 3) % catalogSkins.count]
    let scale = Double(Int(flags >> 6) % 3 + 1)
    let request = PopoverRequest(bounds: bounds, direction: direction, arrowOffset: offset, scale: scale)
    guard let rendered = try? skin.render(request) else { return }
    let pixmap = rendered.pixmap, origin = rendered.backgroundOrigin
    precondition(pixmap.data.count == pixmap.width * pixmap.height * 4)
    precondition(Double(pixmap.width) >= ((origin.x + bounds.width) * scale - 1e-6).rounded(.down)
                 && Double(pixmap.height) >= ((origin.y + bounds.height) * scale - 1e-6).rounded(.down),
                 "\(skin.id): \(pixmap.width) x \(pixmap.height) cannot hold \(bounds) at \(origin) @\(scale)x")
}

/// SwiftPM links an executable's entry point as `<module>_main` (so tests can link the
/// module); in a fuzzing build that entry point hands over to libFuzzer's driver.
#if FUZZING
@_cdecl("FuzzLayout_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.fuzz(argc, argv, fuzzLayout)
}
#else
@main
enum FuzzLayoutReplay {
    static func main() throws { try FuzzDriver.replay(CommandLine.arguments.dropFirst(), fuzzLayout) }
}
#endif
