#!/usr/bin/env python3
"""Counts differing pixels with the Python port of pixelmatch, for DiffTests.

Usage: pixelmatch_counts.py CASES THRESHOLD...

CASES is a binary file of image pairs, one after another: width and height as
little-endian 32-bit unsigned integers, then the expected image's pixels and the
actual image's (RGBA, 8 bits a channel, rows top to bottom). For each pair, prints one
line: for each THRESHOLD, pixelmatch's count with anti-aliasing excused, then with it
counted (includeAA=True), separated by spaces.

The port is PyPI's `pixelmatch` 0.4.0, whose counting (colour distance over white,
the anti-aliasing neighbourhood walk and its tie-breaking, siblings compared byte for
byte, the image border counting as a neighbour) follows pixelmatch 6.0.0 line for line.
Another version is refused (exit 3), so a change there cannot pass unnoticed.
"""
import struct
import sys
from importlib import metadata

VERSION = "0.4.0"


def main() -> int:
    try:
        installed = metadata.version("pixelmatch")
    except metadata.PackageNotFoundError:
        print("the Python package pixelmatch is not installed (scripts/install-dependencies)", file=sys.stderr)
        return 3
    if installed != VERSION:
        print(f"pixelmatch {installed} is installed; these counts are checked against {VERSION}", file=sys.stderr)
        return 3
    from pixelmatch import pixelmatch

    path, thresholds = sys.argv[1], [float(t) for t in sys.argv[2:]]
    data = open(path, "rb").read()
    offset, lines = 0, []
    while offset < len(data):
        width, height = struct.unpack_from("<II", data, offset)
        offset += 8
        size = width * height * 4
        expected = list(data[offset:offset + size])
        actual = list(data[offset + size:offset + 2 * size])
        offset += 2 * size
        counts = []
        for threshold in thresholds:
            for include_aa in (False, True):
                counts.append(pixelmatch(expected, actual, width, height,
                                         threshold=threshold, includeAA=include_aa))
        lines.append(" ".join(str(c) for c in counts))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
