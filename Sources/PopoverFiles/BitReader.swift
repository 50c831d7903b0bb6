/// Reads DEFLATE's bit order: bytes in order, each from its least significant bit.
struct BitReader {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var next = 0  // the next byte to load into `buffer`
    private var buffer: UInt64 = 0
    private var available = 0  // bits in `buffer`

    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// Whole bytes taken from the input (only meaningful when byte aligned).
    var bytesConsumed: Int { next - available / 8 }

    /// Loads bytes until at least 57 bits are buffered or the input ends.
    @inline(__always)
    private mutating func refill() {
        while available <= 56 && next < count {
            buffer |= UInt64(bytes[next]) << UInt64(available)
            next += 1
            available += 8
        }
    }

    /// The next `n` (at most 32) bits without consuming them, padded with zeros past the
    /// end of the input, and how many of them are real.
    @inline(__always)
    mutating func peek(_ n: Int) -> (value: UInt32, real: Int) {
        if available < n { refill() }
        return (UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1)), min(available, n))
    }

    @inline(__always)
    mutating func consume(_ n: Int) {
        buffer >>= UInt64(n)
        available -= n
    }

    /// The next `n` (0 to 32) bits as a number, first bit lowest; nil past the end.
    @inline(__always)
    mutating func read(_ n: Int) -> UInt32? {
        guard n > 0 else { return 0 }
        let (value, real) = peek(n)
        guard real == n else { return nil }
        consume(n)
        return value
    }

    mutating func alignToByte() {
        consume(available % 8)
    }

    /// Skips `n` bytes (byte aligned); false if fewer are left.
    mutating func skipBytes(_ n: Int) -> Bool {
        let buffered = available / 8
        if n <= buffered {
            consume(n * 8)
            return true
        }
        guard n - buffered <= count - next else { return false }
        next += n - buffered
        buffer = 0
        available = 0
        return true
    }
}
