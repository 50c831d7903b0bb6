import PopoverFiles
import PopoverImage
import Testing
import TestSupport

/// One committed fixture (see .fixtures/make-fixtures.py for its samples) and the RGBA
/// pixels it must decode to, worked out by hand:
/// - grey n-bit v -> v * 255 / (2^n - 1): 1-bit 1 -> ff; 2-bit 1 -> 55; 4-bit 3 -> 33;
/// - 16-bit v -> (v + 128) / 257 (round(v * 255 / 65535)); e.g. 0x0080 -> 0, 0x0081 -> 1,
///   0x00ff -> 1, 0x01ff -> 2, 0x7f7f -> 127, 0x7fff -> 127, 0x8000 -> 128, 0x8080 -> 128,
///   0x10c0 -> 17, 0xc010 -> 191, 0xfeff -> 254, 0xff00 -> 254, 0xff7f -> 255,
///   0x1234 -> 0x12, 0x5678 -> 0x56, 0x9abc -> 0x9a, 0xabcd -> 0xab, 0xef01 -> 0xee,
///   0xdef0 -> 0xde, 0x4000 -> 0x40, 0xc000 -> 0xbf, 0x0100 -> 1, 0x0202 -> 2;
/// - no alpha channel and no tRNS -> alpha ff; a tRNS colour key -> alpha 00 for exactly
///   that sample value (at 16 bits for 16-bit files); palette tRNS -> each entry's alpha,
///   entries past the end of tRNS opaque.
struct Fixture: Sendable, CustomTestStringConvertible {
    let file: String
    let bitDepth: Int
    let colourType: PNGColourType
    let interlaced: Bool
    let rows: [String]

    var testDescription: String { file }

    var width: Int { rows[0].split(separator: " ").count }
    var height: Int { rows.count }
}

enum FixtureTable {
    static let grey1 = [
        "ffffffff 000000ff ffffffff 000000ff ffffffff",
        "000000ff ffffffff 000000ff ffffffff 000000ff",
        "ffffffff ffffffff 000000ff 000000ff ffffffff",
    ]
    static let grey2 = [
        "000000ff 555555ff aaaaaaff ffffffff 000000ff",
        "ffffffff aaaaaaff 555555ff 000000ff ffffffff",
        "555555ff 555555ff aaaaaaff aaaaaaff ffffffff",
    ]
    // Colour key 2 (-> aa) becomes transparent.
    static let grey2Key = [
        "000000ff 555555ff aaaaaa00 ffffffff 000000ff",
        "ffffffff aaaaaa00 555555ff 000000ff ffffffff",
        "555555ff 555555ff aaaaaa00 aaaaaa00 ffffffff",
    ]
    static let grey4 = [
        "000000ff 111111ff 222222ff 333333ff 444444ff",
        "ffffffff eeeeeeff ddddddff ccccccff bbbbbbff",
        "555555ff 666666ff 777777ff 888888ff 999999ff",
    ]
    static let grey8 = [
        "000000ff 010101ff 7f7f7fff 808080ff ffffffff",
        "101010ff 202020ff 303030ff 404040ff 505050ff",
        "fefefeff c0c0c0ff 3c3c3cff 999999ff 666666ff",
    ]
    // Colour key 0x80.
    static let grey8Key = [
        "000000ff 010101ff 7f7f7fff 80808000 ffffffff",
        "101010ff 202020ff 303030ff 404040ff 505050ff",
        "fefefeff c0c0c0ff 3c3c3cff 999999ff 666666ff",
    ]
    // 0000 0080 0081 00ff 01ff / 7f7f 7fff 8000 8080 10c0 / c010 feff ff00 ff7f ffff
    static let grey16 = [
        "000000ff 000000ff 010101ff 010101ff 020202ff",
        "7f7f7fff 7f7f7fff 808080ff 808080ff 111111ff",
        "bfbfbfff fefefeff fefefeff ffffffff ffffffff",
    ]
    // Colour key 0x8080: only that pixel, not 0x8000 beside it, which also scales to 0x80.
    static let grey16Key = [
        "000000ff 000000ff 010101ff 010101ff 020202ff",
        "7f7f7fff 7f7f7fff 808080ff 80808000 111111ff",
        "bfbfbfff fefefeff fefefeff ffffffff ffffffff",
    ]
    static let greyAlpha8 = [
        "000000ff ffffff00 80808080 01010102 fefefefd",
        "0a0a0a14 1e1e1e28 3232323c 46464650 5a5a5a64",
        "ffffffff 00000000 c8c8c801 010101c8 4d4d4db1",
    ]
    static let greyAlpha16 = [
        "ffffffff 00000000 80808001 020202fe 111111bf",
        "7f7f7f80 01010100 fffffffe 12121256 abababee",
        "000000ff ffffff00 01010101 01010102 404040bf",
    ]
    // Palette 123456, fedcba; indices as grey1.
    static let palette1 = [
        "fedcbaff 123456ff fedcbaff 123456ff fedcbaff",
        "123456ff fedcbaff 123456ff fedcbaff 123456ff",
        "fedcbaff fedcbaff 123456ff 123456ff fedcbaff",
    ]
    // tRNS [00]: entry 0 transparent, entry 1 (past the end of tRNS) opaque.
    static let palette1Alpha = [
        "fedcbaff 12345600 fedcbaff 12345600 fedcbaff",
        "12345600 fedcbaff 12345600 fedcbaff 12345600",
        "fedcbaff fedcbaff 12345600 12345600 fedcbaff",
    ]
    // Palette ff0000 00ff00 0000ff ffff00; indices as grey2.
    static let palette2 = [
        "ff0000ff 00ff00ff 0000ffff ffff00ff ff0000ff",
        "ffff00ff 0000ffff 00ff00ff ff0000ff ffff00ff",
        "00ff00ff 00ff00ff 0000ffff 0000ffff ffff00ff",
    ]
    // tRNS [80 00 ff], entry 3 opaque.
    static let palette2Alpha = [
        "ff000080 00ff0000 0000ffff ffff00ff ff000080",
        "ffff00ff 0000ffff 00ff0000 ff000080 ffff00ff",
        "00ff0000 00ff0000 0000ffff 0000ffff ffff00ff",
    ]
    // 10 entries, entry i = (16i, 255 - 16i, 17i); indices 0 1 2 3 4 / 9 8 7 6 5 / 0 9 0 9 5.
    static let palette4 = [
        "00ff00ff 10ef11ff 20df22ff 30cf33ff 40bf44ff",
        "906f99ff 807f88ff 708f77ff 609f66ff 50af55ff",
        "00ff00ff 906f99ff 00ff00ff 906f99ff 50af55ff",
    ]
    // tRNS [0 51 102 153 204 255] for entries 0-5; 6-9 opaque.
    static let palette4Alpha = [
        "00ff0000 10ef1133 20df2266 30cf3399 40bf44cc",
        "906f99ff 807f88ff 708f77ff 609f66ff 50af55ff",
        "00ff0000 906f99ff 00ff0000 906f99ff 50af55ff",
    ]
    // 256 entries, entry i = (i, 255 - i, 7i mod 256); indices 0 1 127 128 255 /
    // 10 20 30 40 50 / 254 200 100 3 77.
    static let palette8 = [
        "00ff00ff 01fe07ff 7f8079ff 807f80ff ff00f9ff",
        "0af546ff 14eb8cff 1ee1d2ff 28d718ff 32cd5eff",
        "fe01f2ff c83778ff 649bbcff 03fc15ff 4db21bff",
    ]
    // tRNS of 200 entries, alpha i: entries 200 and up opaque.
    static let palette8Alpha = [
        "00ff0000 01fe0701 7f80797f 807f8080 ff00f9ff",
        "0af5460a 14eb8c14 1ee1d21e 28d71828 32cd5e32",
        "fe01f2ff c83778ff 649bbc64 03fc1503 4db21b4d",
    ]
    static let rgb8 = [
        "112233ff 112234ff 000000ff ffffffff 112233ff",
        "ff0000ff 00ff00ff 0000ffff 804020ff 010203ff",
        "102233ff 112333ff fefdfcff 112233ff 090807ff",
    ]
    // Colour key 112233; its neighbours 112234, 102233 and 112333 stay opaque.
    static let rgb8Key = [
        "11223300 112234ff 000000ff ffffffff 11223300",
        "ff0000ff 00ff00ff 0000ffff 804020ff 010203ff",
        "102233ff 112333ff fefdfcff 11223300 090807ff",
    ]
    // (1234 5678 9abc) -> 12569a; (1235 5678 9abc) and (1234 5678 9abd) too.
    static let rgb16 = [
        "12569aff 12569aff 000000ff ffffffff 010201ff",
        "807f00ff febf11ff 12569aff feff80ff 010240ff",
        "12569aff abee7fff 0101ffff 12569aff 40bf80ff",
    ]
    // Colour key (1234 5678 9abc): exact matches only, compared before scaling.
    static let rgb16Key = [
        "12569a00 12569aff 000000ff ffffffff 010201ff",
        "807f00ff febf11ff 12569a00 feff80ff 010240ff",
        "12569aff abee7fff 0101ffff 12569a00 40bf80ff",
    ]
    static let rgba8 = [
        "ff0000ff 00ff0080 0000ff00 ffffff01 000000fe",
        "12345678 9abcdef0 01020304 fafbfcfd 80402010",
        "07070707 c8643219 00000000 ffffffff 21426384",
    ]
    static let rgba16 = [
        "ff0000ff 01020100 807f807f febf11fe 00000000",
        "12569ade ffff0101 abee40bf 0201ff80 7f800001",
        "ffffff00 000000ff 40bf1256 01010101 bf11fe02",
    ]

    /// Pixel (x, y) of the rgba8-adam7 files: (16x + y, 255 - 16x - y, 3xy, 255 - 2(x + y)),
    /// every one different so a pixel put in the wrong place by an Adam7 pass shows.
    static func adam7(width: Int, height: Int) -> [String] {
        (0..<height).map { y in
            (0..<width).map { x in
                let r = (16 * x + y) & 0xFF, g = (255 - 16 * x - y) & 0xFF
                let b = (3 * x * y) & 0xFF, a = (255 - 2 * (x + y)) & 0xFF
                return [r, g, b, a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            }.joined(separator: " ")
        }
    }

    static let all: [Fixture] = [
        Fixture(file: "grey1.png", bitDepth: 1, colourType: .grey, interlaced: false, rows: grey1),
        Fixture(file: "grey2.png", bitDepth: 2, colourType: .grey, interlaced: false, rows: grey2),
        Fixture(file: "grey2-trns.png", bitDepth: 2, colourType: .grey, interlaced: false, rows: grey2Key),
        Fixture(file: "grey4.png", bitDepth: 4, colourType: .grey, interlaced: false, rows: grey4),
        Fixture(file: "grey8.png", bitDepth: 8, colourType: .grey, interlaced: false, rows: grey8),
        Fixture(file: "grey8-trns.png", bitDepth: 8, colourType: .grey, interlaced: false, rows: grey8Key),
        // gAMA 0.1, cHRM, a broken iCCP, tEXt, tIME and pHYs: all ignored, samples as stored.
        Fixture(file: "grey8-ancillary.png", bitDepth: 8, colourType: .grey, interlaced: false, rows: grey8),
        Fixture(file: "grey16.png", bitDepth: 16, colourType: .grey, interlaced: false, rows: grey16),
        Fixture(file: "grey16-trns.png", bitDepth: 16, colourType: .grey, interlaced: false, rows: grey16Key),
        Fixture(file: "grey-alpha8.png", bitDepth: 8, colourType: .greyAlpha, interlaced: false, rows: greyAlpha8),
        Fixture(file: "grey-alpha16.png", bitDepth: 16, colourType: .greyAlpha, interlaced: false, rows: greyAlpha16),
        Fixture(file: "palette1.png", bitDepth: 1, colourType: .palette, interlaced: false, rows: palette1),
        Fixture(file: "palette1-trns.png", bitDepth: 1, colourType: .palette, interlaced: false, rows: palette1Alpha),
        Fixture(file: "palette2.png", bitDepth: 2, colourType: .palette, interlaced: false, rows: palette2),
        Fixture(file: "palette2-trns.png", bitDepth: 2, colourType: .palette, interlaced: false, rows: palette2Alpha),
        Fixture(file: "palette4.png", bitDepth: 4, colourType: .palette, interlaced: false, rows: palette4),
        Fixture(file: "palette4-trns.png", bitDepth: 4, colourType: .palette, interlaced: false, rows: palette4Alpha),
        Fixture(file: "palette8.png", bitDepth: 8, colourType: .palette, interlaced: false, rows: palette8),
        Fixture(file: "palette8-trns.png", bitDepth: 8, colourType: .palette, interlaced: false, rows: palette8Alpha),
        Fixture(file: "rgb8.png", bitDepth: 8, colourType: .rgb, interlaced: false, rows: rgb8),
        Fixture(file: "rgb8-trns.png", bitDepth: 8, colourType: .rgb, interlaced: false, rows: rgb8Key),
        Fixture(file: "rgb16.png", bitDepth: 16, colourType: .rgb, interlaced: false, rows: rgb16),
        Fixture(file: "rgb16-trns.png", bitDepth: 16, colourType: .rgb, interlaced: false, rows: rgb16Key),
        Fixture(file: "rgba8.png", bitDepth: 8, colourType: .rgba, interlaced: false, rows: rgba8),
        Fixture(file: "rgba16.png", bitDepth: 16, colourType: .rgba, interlaced: false, rows: rgba16),
        // Adam7: the same samples as the plain files above, so the same pixels.
        Fixture(file: "grey1-adam7.png", bitDepth: 1, colourType: .grey, interlaced: true, rows: grey1),
        Fixture(file: "grey16-adam7.png", bitDepth: 16, colourType: .grey, interlaced: true, rows: grey16),
        Fixture(file: "palette2-trns-adam7.png", bitDepth: 2, colourType: .palette, interlaced: true, rows: palette2Alpha),
        Fixture(file: "rgb16-trns-adam7.png", bitDepth: 16, colourType: .rgb, interlaced: true, rows: rgb16Key),
        Fixture(file: "rgba8-adam7-1x1.png", bitDepth: 8, colourType: .rgba, interlaced: true, rows: adam7(width: 1, height: 1)),
        Fixture(file: "rgba8-adam7-8x8.png", bitDepth: 8, colourType: .rgba, interlaced: true, rows: adam7(width: 8, height: 8)),
        Fixture(file: "rgba8-adam7-9x9.png", bitDepth: 8, colourType: .rgba, interlaced: true, rows: adam7(width: 9, height: 9)),
    ]
}
