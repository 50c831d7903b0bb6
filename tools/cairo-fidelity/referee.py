"""A third, referee rendering in floating point, to tell which of ours and Cairo an edge
difference comes from.

Coverage comes from Cairo at 16 x 16 samples a pixel, box-filtered (close to exact, unlike
Cairo's own anti-aliasing); the gradient is sampled at pixel centres; stroke coverage is
multiplied by clip coverage, as a clip mask works in CoreGraphics and in our renderer."""
from cairo_render import set_pen, trace
from recipe import lerp

SUPERSAMPLE = 16


def coverage(cairo, image, scale, stroke):
    """Per-pixel coverage (0...1) of the outline's fill, or of its stroke."""
    k = SUPERSAMPLE
    W, H = image.width * scale, image.height * scale
    surface = cairo.ImageSurface(cairo.FORMAT_A8, W * k, H * k)
    ctx = cairo.Context(surface)
    ctx.scale(scale * k, scale * k)
    ctx.set_fill_rule(cairo.FILL_RULE_WINDING)
    trace(ctx, image.commands)
    if stroke:
        set_pen(cairo, ctx)
        ctx.stroke()
    else:
        ctx.fill()
    surface.flush()
    data, stride = bytes(surface.get_data()), surface.get_stride()
    sums = [0] * (W * H)
    for Y in range(H * k):
        row = data[Y * stride:Y * stride + W * k]
        base = (Y // k) * W
        for x in range(W):
            sums[base + x] += sum(row[x * k:(x + 1) * k])
    return [v / (k * k * 255) for v in sums]


def render_exact(cairo, image, colours, scale):
    """The recipe composited in floating point: premultiplied RGBA, 0...255, as a flat list."""
    border, c_from, c_to = colours
    clip = coverage(cairo, image, scale, False)
    pen = coverage(cairo, image, scale, True)
    W, H = image.width * scale, image.height * scale
    b = (border[0] * border[3], border[1] * border[3], border[2] * border[3], border[3])
    out = []
    for y in range(H):
        g = lerp(c_from, c_to, (y + 0.5) / scale / image.height)
        g = (g[0] * g[3], g[1] * g[3], g[2] * g[3], g[3])
        for x in range(W):
            c = clip[y * W + x]
            s = c * pen[y * W + x]
            out.extend(255 * (b[i] * s + g[i] * c * (1 - s)) for i in range(4))
    return out


def premultiplied_error(straight_pixels, exact):
    """(sum, max) of |premultiplied - exact| over all channels: premultiplied, because a
    nearly transparent pixel's straight colour means little."""
    total = worst = 0.0
    for i in range(0, len(exact), 4):
        a = straight_pixels[i + 3]
        for c in range(4):
            v = straight_pixels[i + c] * a / 255 if c < 3 else a
            e = abs(v - exact[i + c])
            total += e
            if e > worst:
                worst = e
    return total, worst
