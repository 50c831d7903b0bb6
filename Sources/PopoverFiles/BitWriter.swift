/// Bits out, least significant first, into a buffer allocated up front (the caller
/// knows the worst case) and released with `deallocate`.
struct BitWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var end: UnsafeMutablePointer<UInt8>
    private var buffer: UInt64 = 0
    private var count = 0  // bits in `buffer`

    init(capacity: Int) {
        self.capacity = capacity
        start = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        end = start
    }

    func deallocate() { start.deallocate() }

    /// Writes the low `bits` (at most 32) bits of `value`.
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        if count >= 32 {
            precondition(end - start + 4 <= capacity, "BitWriter: more than the worst case")
            UnsafeMutableRawPointer(end).storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
            end += 4
            buffer >>= 32
            count -= 32
        }
    }

    mutating func alignToByte() {
        while count > 0 {
            precondition(end - start < capacity, "BitWriter: more than the worst case")
            end.pointee = UInt8(truncatingIfNeeded: buffer)
            end += 1
            buffer >>= 8
            count = max(0, count - 8)
        }
        buffer = 0
    }

    /// Whole bytes, after `alignToByte`.
    mutating func writeBytes(_ values: [UInt8]) {
        precondition(count == 0 && end - start + values.count <= capacity)
        for value in values {
            end.pointee = value
            end += 1
        }
    }

    /// What has been written.
    func bytes() -> [UInt8] { Array(UnsafeBufferPointer(start: start, count: end - start)) }
}
