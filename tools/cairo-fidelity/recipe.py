"""The recipe's facts other than the outlines (docs/specification.md, sections
2-4): image sizes, colour sets and the pen. The outlines themselves live only in
Sources/PopoverSkins/Resources/seven-image-outlines.json (see outlines.py)."""

# Size in points of each of the seven images, width x height.
IMAGE_SIZES = {
    "up": (57, 51),
    "up-right": (52, 51),
    "down": (57, 51),
    "down-right": (52, 51),
    "side": (37, 72),
    "side-top": (37, 67),
    "side-bottom": (37, 67),
}

# theme: (border, gradient from, gradient to), straight RGBA 0...1.
THEMES = {
    "default": ((0, 0, 0, 1), (0.8, 0.8, 0.8, 0.8), (1 / 3, 1 / 3, 1 / 3, 1)),
    "sample": ((0.439216, 0.431373, 0.407843, 1), (0.980392, 0.976471, 0.964706, 1),
               (0.858824, 0.835294, 0.807843, 1)),
}

# The border: 1 point wide, miter join with limit 10, butt cap.
LINE_WIDTH = 1
MITER_LIMIT = 10


def lerp(c0, c1, t):
    """Component-wise interpolation; the recipe interpolates unpremultiplied colours."""
    return tuple(a + (b - a) * t for a, b in zip(c0, c1))
