import Foundation

/// ImageMagick's `compare`, for measuring against.
public enum ImageMagick {
    public static let compare = "/usr/bin/compare"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: compare) }

    /// `compare -precision 16 -channel RGBA -metric AE -fuzz 0 A B null:`; the count it
    /// prints (`-precision 16`: by default it prints 6 significant digits, "1.89046e+06").
    /// `rawSize` reads both as raw 8-bit RGBA of that size.
    public static func absoluteErrorCount(_ a: String, _ b: String, rawSize: String? = nil) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compare)
        var arguments = ["-precision", "16", "-channel", "RGBA", "-metric", "AE", "-fuzz", "0"]
        if let rawSize { arguments += ["-size", rawSize, "-depth", "8"] }
        process.arguments = arguments + [a, b, "null:"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("compare \(a) \(b): printed '\(text.prefix(200))'")
        }
        return Int(value)
    }
}

extension ImageMagick {
    public static let convert = "/usr/bin/convert"

    /// The arguments of `compare` counting differing pixels of A and B (raw 8-bit RGBA of
    /// `rawSize` when given), as `absoluteErrorCount` runs it.
    static func compareArguments(_ a: String, _ b: String, rawSize: String? = nil) -> [String] {
        var arguments = ["-precision", "16", "-channel", "RGBA", "-metric", "AE", "-fuzz", "0"]
        if let rawSize { arguments += ["-size", rawSize, "-depth", "8"] }
        return arguments + [a, b, "null:"]
    }

    /// `convert` reading A and B (raw) and writing nothing: ImageMagick's start-up and
    /// loading, without the comparison.
    static func loadArguments(_ a: String, _ b: String, rawSize: String) -> [String] {
        ["-size", rawSize, "-depth", "8", a, b, "null:"]
    }
}
