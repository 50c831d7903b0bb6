import ArgumentParser
import Foundation
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

    /// How `--help` shows a default: "216x235".
    var defaultValueDescription: String { "\(plain(size.width))x\(plain(size.height))" }
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

    /// How `--help` shows a default: "2".
    var defaultValueDescription: String { "\(Int(value))" }
}

/// Prints one JSON object on one line, keys sorted (Foundation on Linux does not keep
/// declaration order, so sorting is what makes the output the same on every run).
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// A number as people write it: 216, 0.5.
func plain(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
}
