"""The seven images' outlines as path commands, built from the project's one data file.

The tangent arcTo and the flips are computed here, on their own, so that the Cairo
pictures do not inherit a mistake from the Swift renderer's construction."""
import json
import math
import os
from dataclasses import dataclass

from errors import Failure
from recipe import IMAGE_SIZES

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUTLINES_FILE = os.path.join(ROOT, "Sources", "PopoverSkins", "Resources", "seven-image-outlines.json")

# How many numbers each command of the data file takes.
ARITY = {"move": 2, "line": 2, "curve": 6, "arcTo": 5, "close": 0}


@dataclass(frozen=True)
class Image:
    """One image: its size in points and the commands that draw its outline.

    Commands, in points: ("move", x, y), ("line", x, y), ("curve", c1x, c1y, c2x, c2y, x, y),
    ("arc" or "arc_negative", cx, cy, r, from angle, to angle), ("close",): the names of
    Cairo's path calls, so that drawing is a plain replay."""
    width: int
    height: int
    commands: tuple


def load(path=OUTLINES_FILE):
    """{image name: Image}, in the data file's order (the order the figures are printed)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        outlines, images = data["outlines"], data["images"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Failure(f"cannot read the outlines from {path}: {e!r}")
    if set(images) != set(IMAGE_SIZES):
        raise Failure(f"{path}: expected the images {', '.join(IMAGE_SIZES)}, found {', '.join(images)}")
    result = {}
    for name, spec in images.items():
        ops = outlines.get(spec.get("outline"))
        if ops is None:
            raise Failure(f"{path}: image {name} names an unknown outline {spec.get('outline')!r}")
        width, height = IMAGE_SIZES[name]
        result[name] = Image(width, height, tuple(path_commands(ops, spec.get("flipHeight"), f"{path}: {name}")))
    return result


def path_commands(ops, flip=None, where="outline"):
    """Yields the commands of one outline; flip = h maps every point y -> h - y.

    A reflection maps the tangent-arc construction onto itself, so flipping the input
    points and then constructing is the same as constructing and flipping."""
    def point(x, y):
        return (x, flip - y) if flip is not None else (x, y)

    cur = start = None
    for op in ops:
        kind, args = op[0], op[1:]
        if ARITY.get(kind) != len(args):
            raise Failure(f"{where}: bad command {op!r}")
        if kind == "move":
            cur = start = point(*args)
            yield ("move", *cur)
        elif kind == "line":
            cur = point(*args)
            yield ("line", *cur)
        elif kind == "curve":
            c1, c2, end = point(*args[0:2]), point(*args[2:4]), point(*args[4:6])
            yield ("curve", *c1, *c2, *end)
            cur = end
        elif kind == "arcTo":
            if cur is None:
                raise Failure(f"{where}: arcTo with no current point")
            cur = yield from tangent_arc(cur, point(*args[0:2]), point(*args[2:4]), args[4])
        else:
            yield ("close",)
            cur = start


def tangent_arc(p0, p1, p2, r):
    """CoreGraphics' (and HTML canvas') arcTo from p0: a line to where a circle of radius r
    touches p0 -> p1, then the short arc to where it touches p1 -> p2. Returns the end."""
    ax, ay = p0[0] - p1[0], p0[1] - p1[1]
    bx, by = p2[0] - p1[0], p2[1] - p1[1]
    la, lb = math.hypot(ax, ay), math.hypot(bx, by)
    cross = ax * by - ay * bx
    if r <= 0 or la == 0 or lb == 0 or abs(cross) < 1e-12 * la * lb:
        yield ("line", *p1)  # degenerate: CoreGraphics draws a line to p1
        return p1
    ax, ay, bx, by = ax / la, ay / la, bx / lb, by / lb
    theta = math.acos(max(-1.0, min(1.0, ax * bx + ay * by)))  # angle at p1
    d = r / math.tan(theta / 2)
    t1 = (p1[0] + ax * d, p1[1] + ay * d)
    t2 = (p1[0] + bx * d, p1[1] + by * d)
    # The centre lies on the bisector at r / sin(theta / 2) from p1.
    mx, my = ax + bx, ay + by
    k = r / math.sin(theta / 2) / math.hypot(mx, my)
    cx, cy = p1[0] + mx * k, p1[1] + my * k
    a1 = math.atan2(t1[1] - cy, t1[0] - cx)
    a2 = math.atan2(t2[1] - cy, t2[0] - cx)
    sweep = a2 - a1
    while sweep > math.pi:
        sweep -= 2 * math.pi
    while sweep < -math.pi:
        sweep += 2 * math.pi
    yield ("line", *t1)
    # Increasing angles run clockwise on screen (y down).
    yield ("arc" if sweep >= 0 else "arc_negative", cx, cy, r, a1, a1 + sweep)
    return t2
