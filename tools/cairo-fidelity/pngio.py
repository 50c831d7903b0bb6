"""Minimal PNG reading and writing with zlib, so that the tool needs no imaging library
beyond Cairo itself (and reads our PNGs without going through Cairo)."""
import struct
import zlib

from errors import Failure

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> channels: grey, RGB, grey+alpha, RGBA


def read_png(path):
    """(width, height, straight RGBA bytes) of an 8-bit, non-interlaced PNG (grey, grey+alpha,
    RGB or RGBA)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Failure(f"cannot read {path}: {e}")
    if data[:8] != SIGNATURE:
        raise Failure(f"{path}: not a PNG")
    header, idat = chunks(data)
    if header is None:
        raise Failure(f"{path}: no IHDR")
    w, h, depth, ctype, _, _, interlace = header
    channels = CHANNELS.get(ctype)
    if depth != 8 or channels is None or interlace != 0:
        raise Failure(f"{path}: only 8-bit non-interlaced grey/RGB(A) PNGs are read (depth {depth}, "
                      f"colour type {ctype}, interlace {interlace})")
    try:
        raw = zlib.decompress(idat)
    except zlib.error as e:
        raise Failure(f"{path}: {e}")
    if len(raw) < h * (w * channels + 1):
        raise Failure(f"{path}: truncated image data")
    return w, h, to_rgba(unfilter(raw, w, h, channels, path), w * h, channels)


def chunks(data):
    """(IHDR fields or None, concatenated IDAT bodies); stops at IEND."""
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    return header, b"".join(idat)


def unfilter(raw, w, h, bpp, path):
    """The pixel bytes, each row's PNG filter undone."""
    stride = w * bpp
    pixels = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif ftype != 0:
            raise Failure(f"{path}: bad filter type {ftype} on row {y}")
        pixels[y * stride:(y + 1) * stride] = line
        prev = line
    return pixels


def to_rgba(pixels, count, channels):
    """RGBA from grey, grey+alpha, RGB or RGBA pixels."""
    if channels == 4:
        return pixels
    out = bytearray(count * 4)
    for i in range(count):
        px = pixels[i * channels:(i + 1) * channels]
        if channels == 1:
            out[i * 4:i * 4 + 4] = bytes((px[0], px[0], px[0], 255))
        elif channels == 2:
            out[i * 4:i * 4 + 4] = bytes((px[0], px[0], px[0], px[1]))
        else:
            out[i * 4:i * 4 + 4] = bytes((px[0], px[1], px[2], 255))
    return out


def write_png(path, w, h, pixels, channels=4):
    """An 8-bit RGBA (channels=4) or RGB (channels=3) PNG, unfiltered."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    stride = w * channels
    raw = b"".join(b"\x00" + bytes(pixels[y * stride:(y + 1) * stride]) for y in range(h))
    ctype = 6 if channels == 4 else 2
    with open(path, "wb") as f:
        f.write(SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
