/// Bytes as lowercase hexadecimal, two digits a byte: how digests, tokens and
/// colours are written in files and messages.
public enum Hex {
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A 64-bit value as 16 digits, most significant first.
    public static func string(_ value: UInt64) -> String {
        string(stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> UInt64($0)) })
    }

    /// The bytes of an even number of hex digits (either case); nil for anything else.
    public static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ d: UInt8) -> UInt8? {
            switch d {
            case 48...57: d - 48
            case 97...102: d - 87
            case 65...70: d - 55
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
