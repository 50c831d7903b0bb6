import PopoverImage
import Testing

/// Expected values are published known answers, stated as literal hex: FIPS 180-2's
/// SHA-256 examples (appendix B: "abc", the 448-bit two-block message, one million 'a')
/// and the empty message from NIST's example values.
@Suite("SHA-256")
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
}
