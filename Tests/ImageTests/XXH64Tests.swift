import PopoverImage
import Testing

/// Expected values: xxHash's published known answers (its `xxhsum` sanity check, which
/// hashes a generated buffer with seed 0 and with seed 2654435761), and values from the
/// independent Python implementation in Tests/FileTests/.fixtures/xxh64-reference.py
/// (itself checked against zstd, whose frame checksum is the low half of XXH64).
@Suite("XXH64")
struct XXH64Tests {
    /// xxhsum's sanity buffer: byte i is the top byte of 2654435761 * 11400714785074694797^i.
    static let sanityBuffer: [UInt8] = {
        var generator: UInt64 = 2_654_435_761
        return (0..<2367).map { _ in
            defer { generator &*= 11_400_714_785_074_694_797 }
            return UInt8(generator >> 56)
        }
    }()

    static let prime32: UInt64 = 2_654_435_761

    @Test("published vectors, with and without a seed")
    func publishedVectors() {
        #expect(XXH64.digest([]) == 0xEF46_DB37_51D8_E999)
        #expect(XXH64.digest([], seed: Self.prime32) == 0xAC75_FDA2_929B_17EF)
        #expect(XXH64.digest(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        let buffer = Self.sanityBuffer
        #expect(XXH64.digest(Array(buffer[..<1])) == 0xE934_A84A_DB05_2768)
        #expect(XXH64.digest(Array(buffer[..<1]), seed: Self.prime32) == 0x5014_6076_43A9_B4C3)
        #expect(XXH64.digest(Array(buffer[..<14])) == 0x8282_DCC4_994E_35C8)
        #expect(XXH64.digest(Array(buffer[..<14]), seed: Self.prime32) == 0xC3BD_6BF6_3DEB_6DF0)
        #expect(XXH64.digest(Array(buffer[..<222])) == 0xB641_AE8C_B691_C174)
        #expect(XXH64.digest(Array(buffer[..<222]), seed: Self.prime32) == 0x20CB_8AB7_AE10_C14A)
    }

    /// Lengths around every branch: under 4, 4-7, 8-31 (tail only), exactly one stripe,
    /// stripes plus each kind of tail; seeds 0, 2654435761 and all ones.
    @Test("reference vectors over the sanity buffer", arguments: [
        (3, 0x0, 0xFF7E_1959_CB50_794A), (3, 0x9E37_79B1, 0xAA85_84E8_3660_F7D1), (3, 0xFFFF_FFFF_FFFF_FFFF, 0xD98F_F19E_5346_B786),
        (4, 0x0, 0x9136_A0DC_A574_57EE), (4, 0x9E37_79B1, 0xCAAB_286B_D8E9_FDB5), (4, 0xFFFF_FFFF_FFFF_FFFF, 0x159F_BDB3_FC3F_C1D6),
        (7, 0x0, 0x6C83_909A_9F01_ED25), (7, 0x9E37_79B1, 0xF98D_03B1_AD6F_9293), (7, 0xFFFF_FFFF_FFFF_FFFF, 0x73BD_E046_67CA_6BF4),
        (8, 0x0, 0xCDBC_F538_E71D_1348), (8, 0x9E37_79B1, 0xFE0C_047A_5353_CDAC), (8, 0xFFFF_FFFF_FFFF_FFFF, 0x568E_81B1_596E_8283),
        (12, 0x0, 0x0723_BF50_086E_AD9A), (12, 0x9E37_79B1, 0x8252_819F_4E50_6951), (12, 0xFFFF_FFFF_FFFF_FFFF, 0x3076_E05B_0AB6_ECE0),
        (31, 0x0, 0x299B_39A2_90E6_D783), (31, 0x9E37_79B1, 0xDA67_3D5F_EB5C_1D79), (31, 0xFFFF_FFFF_FFFF_FFFF, 0x6ED1_061F_61C6_86E5),
        (32, 0x0, 0x18B2_1649_2BB4_4B70), (32, 0x9E37_79B1, 0xB3F3_3BDF_93AD_E409), (32, 0xFFFF_FFFF_FFFF_FFFF, 0x3A79_3D90_2011_3C2A),
        (33, 0x0, 0x55C8_DC3E_578F_5B59), (33, 0x9E37_79B1, 0xE92C_292F_64BC_3071), (33, 0xFFFF_FFFF_FFFF_FFFF, 0x3E29_B6E7_0F25_43DA),
        (63, 0x0, 0xA9EF_BE0F_A0F3_F4E7), (63, 0x9E37_79B1, 0x6C91_1FAD_B05B_6FC2), (63, 0xFFFF_FFFF_FFFF_FFFF, 0x93B7_C9E8_CE6D_E24C),
        (64, 0x0, 0xEF55_8F8A_CAC2_B5CD), (64, 0x9E37_79B1, 0xB5EE_BA99_264C_C44F), (64, 0xFFFF_FFFF_FFFF_FFFF, 0xD482_94C0_C6D5_D9FD),
        (65, 0x0, 0xDE0F_20DC_2631_AF7A), (65, 0x9E37_79B1, 0xD3F6_FF39_41E3_10CA), (65, 0xFFFF_FFFF_FFFF_FFFF, 0xD336_6084_A3FD_665B),
        (100, 0x0, 0x4BFE_019C_D91D_9EA4), (100, 0x9E37_79B1, 0x4853_706D_C962_5CAE), (100, 0xFFFF_FFFF_FFFF_FFFF, 0x2FE1_B146_0F46_66C4),
        (1024, 0x0, 0x4775_BF7C_ACE4_D177), (1024, 0x9E37_79B1, 0x238C_F929_6898_B465), (1024, 0xFFFF_FFFF_FFFF_FFFF, 0x9301_7C1B_B643_BEE9),
        (2367, 0x0, 0xA824_18DD_EC0E_A581), (2367, 0x9E37_79B1, 0xA36A_93C1_8052_673A), (2367, 0xFFFF_FFFF_FFFF_FFFF, 0x1437_1C29_01C9_2A60),
    ] as [(Int, UInt64, UInt64)])
    func referenceVectors(length: Int, seed: UInt64, expected: UInt64) {
        #expect(XXH64.digest(Array(Self.sanityBuffer[..<length]), seed: seed) == expected)
    }

    @Test("unaligned input hashes like a copy")
    func unaligned() {
        let buffer = Self.sanityBuffer
        for start in 1..<8 {
            let copy = Array(buffer[start..<(start + 1000)])
            let inPlace = buffer.withUnsafeBytes { XXH64.digest(UnsafeRawBufferPointer(rebasing: $0[start..<(start + 1000)])) }
            #expect(inPlace == XXH64.digest(copy))
        }
    }

    @Test("hex is 16 lowercase digits, zero-padded")
    func hex() {
        #expect(XXH64.hex(0xEF46_DB37_51D8_E999) == "ef46db3751d8e999")
        #expect(XXH64.hex(1) == "0000000000000001")
        #expect(XXH64.hex(0) == "0000000000000000")
        #expect(XXH64.hexDigest([]) == "ef46db3751d8e999")
    }
}
