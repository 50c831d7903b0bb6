"""Side-by-side pictures (ours | cairo | difference), to see where figures come from."""
from pngio import write_png

GAP = 4
GAP_COLOUR = (40, 40, 40)


def over_checker(px, x, y, zoom):
    """A straight RGBA pixel laid over a checkerboard, so that transparency shows."""
    bg = 200 if ((x * zoom // 8) + (y * zoom // 8)) % 2 else 160
    a = px[3]
    return tuple((px[c] * a + bg * (255 - a) + 127) // 255 for c in range(3))


def diff_colour(d):
    """Black when equal, grey up to 2, red above 2, yellow above 8, white above 32."""
    if d == 0:
        return (0, 0, 0)
    if d <= 2:
        return (70, 70, 70)
    if d <= 8:
        return (200, 0, 0)
    if d <= 32:
        return (255, 220, 0)
    return (255, 255, 255)


def side_by_side(path, w, h, ours, theirs, diffs, zoom):
    """Writes ours | cairo | difference, each over a checkerboard, enlarged zoom times."""
    W = (3 * w) * zoom + 2 * GAP
    H = h * zoom
    out = bytearray(W * H * 3)
    for y in range(h):
        panels = (
            [over_checker(ours[(y * w + x) * 4:(y * w + x) * 4 + 4], x, y, zoom) for x in range(w)],
            [over_checker(theirs[(y * w + x) * 4:(y * w + x) * 4 + 4], x, y, zoom) for x in range(w)],
            [diff_colour(diffs[y * w + x]) for x in range(w)],
        )
        line = bytearray()
        for index, panel in enumerate(panels):
            for c in panel:
                line += bytes(c) * zoom
            if index < 2:
                line += bytes(GAP_COLOUR) * GAP
        for k in range(zoom):
            yy = y * zoom + k
            out[yy * W * 3:(yy + 1) * W * 3] = line
    write_png(path, W, H, out, channels=3)
