import PopoverImage
import Testing

/// Expected values are published known answers, stated as literal hex: FIPS 180-2's
/// SHA-256 examples (appendix B: "abc", the 448-bit two-block message, one million 'a')
/// and the empty message from NIST's example values; RFC 4231's test cases for
/// HMAC-SHA256.
@Suite("SHA-256 and HMAC-SHA256")
struct SHA256Tests {
    static let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    static let millionA = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)

    @Test("FIPS 180-2 and NIST examples, in one call")
    func oneShot() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array(Self.twoBlocks.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Self.millionA) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("one million 'a' fed in uneven pieces, across every block boundary")
    func incremental() {
        var hasher = SHA256()
        var offset = 0, piece = 1
        while offset < Self.millionA.count {
            let end = min(Self.millionA.count, offset + piece)
            hasher.update(Array(Self.millionA[offset..<end]))
            offset = end
            piece = piece % 200 + 1
        }
        #expect(hasher.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Finalizing starts over: the next digest is of the next message alone.
        hasher.update(Array("abc".utf8))
        #expect(hasher.finalize() == [
            0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
            0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
        ])
        #expect(hasher.finalizeHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("a copy taken part-way carries on independently")
    func copies() {
        var hasher = SHA256()
        hasher.update(Array("abc".utf8))
        var copy = hasher
        hasher.update(Array(Self.twoBlocks.dropFirst(3).utf8))
        #expect(hasher.finalizeHex() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(copy.finalizeHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { $0 <= 57 ? $0 - 48 : $0 - 87 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    @Test("RFC 4231 test cases 1-4, 6 and 7", arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array(("This is a test using a larger than block-size key and a larger than block-size data. The key needs "
             + "to be hashed before being used by the HMAC algorithm.").utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [([UInt8], [UInt8], String)])
    func hmac(key: [UInt8], message: [UInt8], expected: String) {
        let code = HMACSHA256.code(message, key: key)
        #expect(code == Self.bytes(expected))
        #expect(message.withUnsafeBytes { HMACSHA256.verify(Self.bytes(expected), for: $0, key: key) })
        var wrong = Self.bytes(expected)
        wrong[31] ^= 1
        #expect(!message.withUnsafeBytes { HMACSHA256.verify(wrong, for: $0, key: key) })
        #expect(!message.withUnsafeBytes { HMACSHA256.verify(Array(wrong.prefix(16)), for: $0, key: key) })
    }
}
