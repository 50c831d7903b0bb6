"""The seven images drawn by Cairo, through cairocffi, following the recipe on its own.

Nothing is installed from here: a missing cairocffi or libcairo is a Failure that says
how to install them, so that a measurement never changes the machine behind one's back."""
import sys

from errors import Failure
from recipe import LINE_WIDTH, MITER_LIMIT, lerp

INSTALL_HINT = "install it with scripts/install-dependencies --cairo"

# Outline command -> the cairo context method that replays it.
METHODS = {"move": "move_to", "line": "line_to", "curve": "curve_to", "arc": "arc",
           "arc_negative": "arc_negative", "close": "close_path"}


def load_cairo():
    """The cairocffi module, or a Failure telling how to get it."""
    try:
        import cairocffi
    except ImportError as e:
        raise Failure(f"cairocffi is not installed for {sys.executable} ({e}); {INSTALL_HINT}")
    except OSError as e:  # the module is there but libcairo is not
        raise Failure(f"cairocffi cannot load libcairo ({e}); {INSTALL_HINT}")
    return cairocffi


def trace(ctx, commands):
    """Replays an outline's commands (outlines.Image.commands) in ctx."""
    for kind, *args in commands:
        getattr(ctx, METHODS[kind])(*args)


def set_pen(cairo, ctx):
    """The border's pen: 1 point, miter join (limit 10), butt cap."""
    ctx.set_line_width(LINE_WIDTH)
    ctx.set_line_join(cairo.LINE_JOIN_MITER)
    ctx.set_miter_limit(MITER_LIMIT)
    ctx.set_line_cap(cairo.LINE_CAP_BUTT)


def surface_pixels(surface):
    """Premultiplied (r, g, b, a) bytes, row-major, from an ARGB32 image surface, whose
    memory order depends on the machine's byte order."""
    surface.flush()
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    data = bytes(surface.get_data())
    out = bytearray(w * h * 4)
    # Offsets of R, G, B, A within a pixel in memory.
    order = (2, 1, 0, 3) if sys.byteorder == "little" else (1, 2, 3, 0)
    for y in range(h):
        row = data[y * stride:y * stride + w * 4]
        o = y * w * 4
        for channel, offset in enumerate(order):
            out[o + channel:o + w * 4:4] = row[offset::4]
    return out


UNPREMULTIPLY = [bytes(min(255, (c * 255 + a // 2) // a) if a else 0 for c in range(256)) for a in range(256)]


def straight(premultiplied):
    """Straight RGBA from premultiplied, rounding as our renderer does: min(255, round(c*255/a)),
    so that a rounding convention is not counted as a difference."""
    out = bytearray(len(premultiplied))
    for i in range(0, len(premultiplied), 4):
        a = premultiplied[i + 3]
        if a == 255:
            out[i:i + 4] = premultiplied[i:i + 4]
        elif a:
            t = UNPREMULTIPLY[a]
            out[i] = t[premultiplied[i]]
            out[i + 1] = t[premultiplied[i + 1]]
            out[i + 2] = t[premultiplied[i + 2]]
            out[i + 3] = a
    return out


def probe_gradient(cairo):
    """Which way Cairo interpolates colour stops, since the recipe wants unpremultiplied:
    a 2-stop gradient from opaque red to transparent blue, read at its midpoint.
    Returns (convention, premultiplied rgba)."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 256, 1)
    ctx = cairo.Context(surface)
    g = cairo.LinearGradient(0, 0, 256, 0)
    g.add_color_stop_rgba(0, 1, 0, 0, 1)
    g.add_color_stop_rgba(1, 0, 0, 1, 0)
    ctx.set_source(g)
    ctx.paint()
    px = surface_pixels(surface)
    mid = tuple(px[127 * 4:127 * 4 + 4])  # t = 127.5 / 256, just below one half
    # Unpremultiplied interpolation: straight (0.5, 0, 0.5, 0.5) -> premultiplied about
    # (64, 0, 64, 128). Premultiplied interpolation: about (128, 0, 0, 128).
    r, _, b, _ = mid
    if abs(r - b) <= 3:
        return "unpremultiplied", mid
    if b <= 3 and r > 100:
        return "premultiplied", mid
    return "unknown", mid


def render(cairo, image, colours, scale, use_stops):
    """(width, height, straight RGBA) of one image: clip to the outline, paint the gradient,
    stroke the outline with the clip still in force. use_stops emulates unpremultiplied
    interpolation with 256 stops for a Cairo that interpolates premultiplied."""
    w, h = image.width, image.height
    border, c_from, c_to = colours
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, w * scale, h * scale)
    ctx = cairo.Context(surface)
    ctx.scale(scale, scale)
    ctx.set_antialias(cairo.ANTIALIAS_DEFAULT)
    ctx.set_fill_rule(cairo.FILL_RULE_WINDING)
    trace(ctx, image.commands)
    ctx.clip()
    g = cairo.LinearGradient(w / 2, 0, w / 2, h)
    g.set_extend(cairo.EXTEND_NONE)  # nothing beyond the end points
    if use_stops:
        n = 256
        for i in range(n + 1):
            g.add_color_stop_rgba(i / n, *lerp(c_from, c_to, i / n))
    else:
        g.add_color_stop_rgba(0, *c_from)
        g.add_color_stop_rgba(1, *c_to)
    ctx.set_source(g)
    ctx.paint()
    trace(ctx, image.commands)
    ctx.set_source_rgba(*border)
    set_pen(cairo, ctx)
    ctx.stroke()
    return w * scale, h * scale, straight(surface_pixels(surface))
