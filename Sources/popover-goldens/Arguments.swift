import ArgumentParser
import PopoverGeometry
import PopoverRaster

extension ArrowDirection: ExpressibleByArgument {}
extension Orientation: ExpressibleByArgument {}

/// "WxH" in points, e.g. "216x235". Values are checked by the geometry core, so NaN
/// and infinities parse here and are refused there with a message naming them.
struct SizeArgument: ExpressibleByArgument {
    let size: Size

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else { return nil }
        size = Size(width: w, height: h)
    }

    static var defaultValueDescription: String { "WxH" }
}

/// "#rrggbb" or "#rrggbbaa".
struct ColorArgument: ExpressibleByArgument {
    let color: Color

    init?(argument: String) {
        guard let c = Color(hex: argument) else { return nil }
        color = c
    }
}

/// A scale factor: 1, 2 or 3.
struct ScaleArgument: ExpressibleByArgument {
    let value: Double

    init?(argument: String) {
        guard let v = Int(argument), (1...3).contains(v) else { return nil }
        value = Double(v)
    }
}

/// A finite number; the geometry core refuses NaN and infinities itself, with a
/// message naming the value, so they are let through here.
extension Double {
    var finiteOrNil: Double? { isFinite ? self : nil }
}
