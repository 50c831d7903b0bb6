#!/usr/bin/env python3
"""Writes the PNG fixtures ImageTests decodes, chunk by chunk, with only zlib and struct.

Writing the chunks here (rather than with an image library) fixes exactly what each file
holds: colour type, bit depth, palette, tRNS, 16-bit samples, Adam7 interlacing, row
filters (rows cycle through None, Sub, Up, Average and Paeth) and IDAT splits. The
expected RGBA pixels live in the Swift tests, worked out by hand from the samples below.

Run from anywhere: python3 make-fixtures.py  (rewrites the .png files beside it).

The folder is hidden (.fixtures) because SwiftPM warns about every file in a target
folder that is neither source nor a declared resource, and hidden folders are skipped.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

GREY, RGB, PALETTE, GREY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GREY: 1, RGB: 3, PALETTE: 1, GREY_ALPHA: 2, RGBA: 4}
SIGNATURE = b"\x89PNG\r\n\x1a\n"

# Adam7 passes: (x start, y start, x step, y step).
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(width, height, depth, colour, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))


def pack_row(pixels, depth, channels):
    """Packs one row of pixels (ints, or tuples of `channels` ints) into bytes."""
    samples = []
    for pixel in pixels:
        samples.extend(pixel if isinstance(pixel, tuple) else (pixel,))
    assert len(samples) == len(pixels) * channels
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, bits, used = bytearray(), 0, 0
    for s in samples:
        assert 0 <= s < (1 << depth)
        bits = (bits << depth) | s
        used += depth
        if used == 8:
            out.append(bits)
            bits, used = 0, 0
    if used:
        out.append(bits << (8 - used))  # the last byte of a row is padded with zero bits
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp, first_filter):
    """Applies filter types 0..4 in turn, starting at `first_filter`."""
    out, previous = bytearray(), bytes(len(rows[0])) if rows else b""
    for index, row in enumerate(rows):
        kind = (first_filter + index) % 5
        filtered = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            filtered.append((x - predictor) & 0xFF)
        out.append(kind)
        out += filtered
        previous = row
    return bytes(out)


def image_data(rows, depth, colour, interlace):
    channels = CHANNELS[colour]
    bpp = max(1, channels * depth // 8)
    if not interlace:
        return filter_rows([pack_row(r, depth, channels) for r in rows], bpp, 0)
    data = bytearray()
    height, width = len(rows), len(rows[0])
    for number, (x0, y0, dx, dy) in enumerate(ADAM7):
        sub = [[rows[y][x] for x in range(x0, width, dx)] for y in range(y0, height, dy)]
        sub = [r for r in sub if r]
        if sub:  # an empty pass has no bytes at all, not even filter bytes
            data += filter_rows([pack_row(r, depth, channels) for r in sub], bpp, number)
    return bytes(data)


def png(rows, depth, colour, palette=None, trns=None, interlace=0, extra=(), idat_split=0):
    width, height = len(rows[0]), len(rows)
    out = SIGNATURE + ihdr(width, height, depth, colour, interlace)
    for kind, data in extra:
        out += chunk(kind, data)
    if palette is not None:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    compressed = zlib.compress(image_data(rows, depth, colour, interlace), 9)
    step = idat_split or len(compressed)
    for start in range(0, len(compressed), step):
        out += chunk(b"IDAT", compressed[start:start + step])
    return out + chunk(b"IEND", b"")


def trns_grey(value):
    return struct.pack(">H", value)


def trns_rgb(r, g, b):
    return struct.pack(">HHH", r, g, b)


# --- Samples. The Swift tables expect exactly these. ---------------------------------

GREY1 = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 1, 0, 0, 1]]
GREY2 = [[0, 1, 2, 3, 0], [3, 2, 1, 0, 3], [1, 1, 2, 2, 3]]
GREY4 = [[0, 1, 2, 3, 4], [15, 14, 13, 12, 11], [5, 6, 7, 8, 9]]
GREY8 = [[0x00, 0x01, 0x7F, 0x80, 0xFF], [0x10, 0x20, 0x30, 0x40, 0x50], [0xFE, 0xC0, 0x3C, 0x99, 0x66]]
GREY16 = [
    [0x0000, 0x0080, 0x0081, 0x00FF, 0x01FF],
    [0x7F7F, 0x7FFF, 0x8000, 0x8080, 0x10C0],
    [0xC010, 0xFEFF, 0xFF00, 0xFF7F, 0xFFFF],
]
GREY_ALPHA8 = [
    [(0, 255), (255, 0), (128, 128), (1, 2), (254, 253)],
    [(10, 20), (30, 40), (50, 60), (70, 80), (90, 100)],
    [(255, 255), (0, 0), (200, 1), (1, 200), (77, 177)],
]
GREY_ALPHA16 = [
    [(0xFFFF, 0xFFFF), (0x0000, 0x0000), (0x8080, 0x00FF), (0x01FF, 0xFF00), (0x10C0, 0xC010)],
    [(0x7F7F, 0x8000), (0x0081, 0x0080), (0xFF7F, 0xFEFF), (0x1234, 0x5678), (0xABCD, 0xEF01)],
    [(0x0000, 0xFFFF), (0xFFFF, 0x0000), (0x0100, 0x0101), (0x0102, 0x0202), (0x4000, 0xC000)],
]
PALETTE1 = [(0x12, 0x34, 0x56), (0xFE, 0xDC, 0xBA)]
PALETTE2 = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
PALETTE4 = [(16 * i, 255 - 16 * i, 17 * i) for i in range(10)]  # 10 of 16 possible entries
PALETTE8 = [(i, 255 - i, (7 * i) & 0xFF) for i in range(256)]
INDEX4 = [[0, 1, 2, 3, 4], [9, 8, 7, 6, 5], [0, 9, 0, 9, 5]]
INDEX8 = [[0, 1, 127, 128, 255], [10, 20, 30, 40, 50], [254, 200, 100, 3, 77]]
RGB8 = [
    [(0x11, 0x22, 0x33), (0x11, 0x22, 0x34), (0, 0, 0), (255, 255, 255), (0x11, 0x22, 0x33)],
    [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0x80, 0x40, 0x20), (1, 2, 3)],
    [(0x10, 0x22, 0x33), (0x11, 0x23, 0x33), (0xFE, 0xFD, 0xFC), (0x11, 0x22, 0x33), (9, 8, 7)],
]
RGB16 = [
    [(0x1234, 0x5678, 0x9ABC), (0x1235, 0x5678, 0x9ABC), (0x0000, 0x0000, 0x0000), (0xFFFF, 0xFFFF, 0xFFFF), (0x00FF, 0x01FF, 0x0081)],
    [(0x8080, 0x7F7F, 0x0080), (0xFF00, 0xC010, 0x10C0), (0x1234, 0x5678, 0x9ABC), (0xFEFF, 0xFF7F, 0x8000), (0x0102, 0x0202, 0x4000)],
    [(0x1234, 0x5678, 0x9ABD), (0xABCD, 0xEF01, 0x7FFF), (0x0100, 0x0101, 0xFFFF), (0x1234, 0x5678, 0x9ABC), (0x4000, 0xC000, 0x8000)],
]
RGBA8 = [
    [(255, 0, 0, 255), (0, 255, 0, 128), (0, 0, 255, 0), (255, 255, 255, 1), (0, 0, 0, 254)],
    [(0x12, 0x34, 0x56, 0x78), (0x9A, 0xBC, 0xDE, 0xF0), (1, 2, 3, 4), (250, 251, 252, 253), (128, 64, 32, 16)],
    [(7, 7, 7, 7), (200, 100, 50, 25), (0, 0, 0, 0), (255, 255, 255, 255), (33, 66, 99, 132)],
]
RGBA16 = [
    [(0xFFFF, 0x0000, 0x0000, 0xFFFF), (0x00FF, 0x01FF, 0x0081, 0x0080), (0x8080, 0x7F7F, 0x8000, 0x7FFF), (0xFF00, 0xC010, 0x10C0, 0xFEFF), (0x0000, 0x0000, 0x0000, 0x0000)],
    [(0x1234, 0x5678, 0x9ABC, 0xDEF0), (0xFF7F, 0xFF80, 0x0101, 0x0102), (0xABCD, 0xEF01, 0x4000, 0xC000), (0x0202, 0x0100, 0xFFFF, 0x8080), (0x7FFF, 0x8000, 0x0080, 0x0081)],
    [(0xFFFF, 0xFFFF, 0xFFFF, 0x0000), (0x0000, 0x0000, 0x0000, 0xFFFF), (0x4000, 0xC000, 0x1234, 0x5678), (0x00FF, 0x00FF, 0x00FF, 0x00FF), (0xC010, 0x10C0, 0xFF00, 0x01FF)],
]


def adam7_rgba(width, height):
    """Every pixel different, so a pixel put in the wrong place by a pass shows."""
    return [[((16 * x + y) & 0xFF, (255 - 16 * x - y) & 0xFF, (x * y * 3) & 0xFF, (255 - 2 * (x + y)) & 0xFF)
             for x in range(width)] for y in range(height)]


def grey16_ramp():
    """256 x 256, all 65536 16-bit values: row r holds r * 256 ... r * 256 + 255."""
    return [[256 * r + c for c in range(256)] for r in range(256)]


ANCILLARY = [
    (b"gAMA", struct.pack(">I", 10000)),  # gamma 0.1: would darken a lot if applied
    (b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)),
    (b"iCCP", b"broken\x00\x00" + b"this is not zlib data"),
    (b"tEXt", b"Comment\x00made by make-fixtures.py"),
    (b"tIME", struct.pack(">HBBBBB", 2000, 1, 2, 3, 4, 5)),
    (b"pHYs", struct.pack(">IIB", 2835, 2835, 1)),
]

FIXTURES = {
    "grey1.png": png(GREY1, 1, GREY),
    "grey2.png": png(GREY2, 2, GREY),
    "grey2-trns.png": png(GREY2, 2, GREY, trns=trns_grey(2)),
    "grey4.png": png(GREY4, 4, GREY),
    "grey8.png": png(GREY8, 8, GREY),
    "grey8-trns.png": png(GREY8, 8, GREY, trns=trns_grey(0x80)),
    "grey8-ancillary.png": png(GREY8, 8, GREY, extra=ANCILLARY),
    "grey16.png": png(GREY16, 16, GREY),
    "grey16-trns.png": png(GREY16, 16, GREY, trns=trns_grey(0x8080)),
    "grey16-ramp.png": png(grey16_ramp(), 16, GREY),
    "grey-alpha8.png": png(GREY_ALPHA8, 8, GREY_ALPHA),
    "grey-alpha16.png": png(GREY_ALPHA16, 16, GREY_ALPHA),
    "palette1.png": png(GREY1, 1, PALETTE, palette=PALETTE1),
    "palette1-trns.png": png(GREY1, 1, PALETTE, palette=PALETTE1, trns=bytes([0x00])),
    "palette2.png": png(GREY2, 2, PALETTE, palette=PALETTE2),
    "palette2-trns.png": png(GREY2, 2, PALETTE, palette=PALETTE2, trns=bytes([0x80, 0x00, 0xFF])),
    "palette4.png": png(INDEX4, 4, PALETTE, palette=PALETTE4),
    "palette4-trns.png": png(INDEX4, 4, PALETTE, palette=PALETTE4, trns=bytes([0, 51, 102, 153, 204, 255])),
    "palette8.png": png(INDEX8, 8, PALETTE, palette=PALETTE8),
    "palette8-trns.png": png(INDEX8, 8, PALETTE, palette=PALETTE8, trns=bytes(range(200))),
    "rgb8.png": png(RGB8, 8, RGB),
    "rgb8-trns.png": png(RGB8, 8, RGB, trns=trns_rgb(0x11, 0x22, 0x33)),
    "rgb16.png": png(RGB16, 16, RGB),
    "rgb16-trns.png": png(RGB16, 16, RGB, trns=trns_rgb(0x1234, 0x5678, 0x9ABC)),
    "rgba8.png": png(RGBA8, 8, RGBA),
    "rgba16.png": png(RGBA16, 16, RGBA, idat_split=5),
    # Adam7: the same samples as the plain files, so the same expected pixels.
    "grey1-adam7.png": png(GREY1, 1, GREY, interlace=1),
    "grey16-adam7.png": png(GREY16, 16, GREY, interlace=1),
    "palette2-trns-adam7.png": png(GREY2, 2, PALETTE, palette=PALETTE2, trns=bytes([0x80, 0x00, 0xFF]), interlace=1),
    "rgb16-trns-adam7.png": png(RGB16, 16, RGB, trns=trns_rgb(0x1234, 0x5678, 0x9ABC), interlace=1, idat_split=7),
    "rgba8-adam7-8x8.png": png(adam7_rgba(8, 8), 8, RGBA, interlace=1),
    "rgba8-adam7-9x9.png": png(adam7_rgba(9, 9), 8, RGBA, interlace=1, idat_split=11),
    "rgba8-adam7-1x1.png": png(adam7_rgba(1, 1), 8, RGBA, interlace=1),
}


def hostile():
    """Files that must be refused with a clear error."""
    tiny = zlib.compress(b"\x00\x00\x00\x00\x00", 9)
    def header_only(width, height, depth=8, colour=RGBA):
        return SIGNATURE + ihdr(width, height, depth, colour) + chunk(b"IDAT", tiny) + chunk(b"IEND", b"")
    good = png(GREY8, 8, GREY)
    cut = good.index(b"IDAT") - 4  # where the IDAT chunk starts
    return {
        "hostile-100000x100000.png": header_only(100000, 100000),
        "hostile-16385x1.png": header_only(16385, 1),
        "hostile-8193x8193.png": header_only(8193, 8193),
        "hostile-2147483648x1.png": header_only(2147483648, 1),  # beyond PNG's 2^31 - 1
        "hostile-0x3.png": header_only(0, 3),
        "hostile-5x0.png": header_only(5, 0),
        "hostile-bit-depth-3.png": header_only(5, 3, depth=3, colour=GREY),
        "hostile-not-zlib.png": SIGNATURE + ihdr(5, 3, 8, GREY) + chunk(b"IDAT", b"not a zlib stream") + chunk(b"IEND", b""),
        "hostile-short-idat.png": SIGNATURE + ihdr(5, 3, 8, GREY) + chunk(b"IDAT", tiny) + chunk(b"IEND", b""),
        "hostile-unknown-critical.png": good[:cut] + chunk(b"ABCD", b"critical, unknown") + good[cut:],
        "hostile-palette-missing.png": SIGNATURE + ihdr(5, 3, 2, PALETTE) + good[cut:],
    }


def main():
    for name, data in {**FIXTURES, **hostile()}.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
    print("wrote", len(FIXTURES), "fixtures and", len(hostile()), "hostile files to", HERE)


if __name__ == "__main__":
    main()
