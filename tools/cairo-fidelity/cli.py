"""Measures our raster core against Cairo on the seven rendered popover images.

  scripts/compare-with-cairo [options]       (installs Cairo's needs, then runs the tool)
  python3 tools/cairo-fidelity [--themes default,sample] [--scales 1,2,3] [--images up,side,...]
                               [--out DIR] [--zoom N] [--max-mean X] [--gradient auto|native|stops]
                               [--exact] [--ours DIR] [--no-build] [--work DIR]

What it does:
  1. builds our renderer (`swift build -c release --scratch-path .build-fidelity`) and runs
     `popover-goldens artwork --theme T --scale S --out DIR` for every theme and scale
     (skip the build with --no-build; or point --ours at folders already rendered, laid out
     as OURS/<theme>/<scale>x/<image>.png);
  2. renders the same 7 images x 2 colour sets x 3 scales with Cairo (through cairocffi;
     the tool installs nothing: `scripts/install-dependencies --cairo` does), following the
     recipe of docs/specification.md (sections 3 and 4) on its own: the outlines are
     read from Sources/PopoverSkins/Resources/seven-image-outlines.json, CoreGraphics'
     tangent `arcTo` is computed here (tangent points and centre, then cairo_arc /
     cairo_arc_negative for the short arc), the flipped images map y -> h - y point by
     point; then, with cairo_scale(s, s) and points: clip to the path (winding, default
     grey anti-aliasing), paint a linear gradient from (w/2, 0) to (w/2, h) with
     EXTEND_NONE, stroke the path 1 point wide, miter join (limit 10), butt cap, with the
     clip still in force;
  3. converts Cairo's premultiplied ARGB32 to straight RGBA with the rounding our renderer
     uses (min(255, round(c * 255 / a))), reads our PNGs with a small zlib-based decoder,
     and compares pixel by pixel on straight RGBA (pixels transparent in both are equal).

Figures, per image and overall (0-255 channel units):
  mean   mean absolute channel error over all pixels of the image (4 channels each);
  drawn  the same mean over the pixels drawn (alpha > 0) in either image only;
  max    the largest channel error, and where (x,y in pixels) it occurs;
  >2 >8 >32  how many pixels have some channel differing by more than 2, 8, 32;
  pmMax  the largest error on premultiplied values: a pixel that is nearly transparent
         in both has a straight colour that is ill-defined, and this column tells such
         pixels apart from visible ones.

--exact adds a third, referee renderer: the same recipe composited in floating point from
near-exact pixel coverages (clip and stroke coverage from Cairo at 16 x 16 supersampling,
box-filtered; the gradient sampled at pixel centres; stroke coverage multiplied by clip
coverage, as a clip mask works in CoreGraphics and in our renderer), and prints, per image,
the premultiplied mean and max error of ours and of Cairo against it (columns ours~x,
cairo~x). It tells which of the two an edge difference comes from.

Gradient interpolation: the specification interpolates on unpremultiplied components. At
start-up the tool probes Cairo (a two-stop gradient from opaque red to transparent blue,
looking at its midpoint) and prints which convention it follows. With --gradient auto (the
default) it uses Cairo's own two-stop gradient when Cairo interpolates unpremultiplied, and
otherwise emulates unpremultiplied interpolation with 256 stops; --gradient native|stops
forces one of the two.

--out DIR writes, per theme and scale, cairo/ and ours/ straight PNGs and a side-by-side
picture per image (ours | cairo | difference, on a checkerboard, enlarged --zoom times;
difference: grey up to 2, red above 2, yellow above 8, white above 32).

Exit status: 0 whatever the differences; 1 only when --max-mean X is given and the overall
mean exceeds X; 2 when something could not be run (build, renderer, Cairo or cairocffi
missing, the outlines file, a PNG, a size mismatch).

Runs in about a minute on 2 cores once the Swift build is up to date (--out and --exact add
some seconds each: the pictures and the referee are drawn in pure Python).
"""
import argparse
import os
import shutil
import sys
import tempfile

import cairo_render
import ours
import outlines
import report
from errors import Failure
from pictures import side_by_side
from pngio import read_png, write_png
from recipe import IMAGE_SIZES, THEMES
from referee import premultiplied_error, render_exact
from stats import RefereeError, Stats, compare

PROG = "cairo-fidelity"


def parse_args(argv, images):
    summary, _, details = __doc__.partition("\n")
    ap = argparse.ArgumentParser(prog=PROG, description=summary,
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=details.strip())
    ap.add_argument("--themes", default="default,sample", help="comma-separated: default, sample")
    ap.add_argument("--scales", default="1,2,3", help="comma-separated: 1, 2, 3")
    ap.add_argument("--images", default=",".join(images), help="comma-separated: " + ", ".join(images))
    ap.add_argument("--out", help="write cairo/, ours/ and side-by-side pictures here")
    ap.add_argument("--zoom", type=int, help="enlargement of the side-by-side pictures (default 12 / scale)")
    ap.add_argument("--max-mean", type=float, help="exit 1 when the overall mean exceeds this")
    ap.add_argument("--gradient", choices=("auto", "native", "stops"), default="auto",
                    help="Cairo's own 2-stop gradient, or unpremultiplied interpolation emulated with 256 stops")
    ap.add_argument("--exact", action="store_true",
                    help="also measure ours and cairo against a float referee from 16x16-supersampled coverage")
    ap.add_argument("--ours", help="already rendered images: OURS/<theme>/<scale>x/<image>.png (implies --no-build)")
    ap.add_argument("--no-build", action="store_true", help="use the existing .build-fidelity binary")
    ap.add_argument("--work", help="scratch folder (default: a temporary one, removed afterwards)")
    return ap.parse_args(argv)


def parse_list(text, allowed, what):
    items = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in allowed]
    if bad or not items:
        raise Failure(f"unknown {what}: {', '.join(bad) or '(none)'}; "
                      f"choose from {', '.join(map(str, allowed))}")
    return items


def write_pictures(root, theme, scale, name, w, h, ours_px, theirs, diffs, zoom):
    folder = os.path.join(root, theme, f"{scale}x")
    for sub in ("cairo", "ours", "side-by-side"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    write_png(os.path.join(folder, "cairo", name + ".png"), w, h, theirs)
    write_png(os.path.join(folder, "ours", name + ".png"), w, h, ours_px)
    side_by_side(os.path.join(folder, "side-by-side", name + ".png"), w, h, ours_px, theirs, diffs, zoom)


def measure_group(args, cairo, images, names, theme, scale, use_stops, folder, referee_all):
    """Prints one row per image of a theme and scale, and their total row; returns their Stats."""
    group = Stats()
    referee_group = {"ours": RefereeError(), "cairo": RefereeError()}
    for name in names:
        ow, oh, ours_px = read_png(os.path.join(folder, name + ".png"))
        cw, ch, theirs = cairo_render.render(cairo, images[name], THEMES[theme], scale, use_stops)
        if (ow, oh) != (cw, ch):
            raise Failure(f"{theme} {scale}x {name}: ours is {ow}x{oh} pixels, cairo {cw}x{ch}")
        diffs = [] if args.out else None
        st = compare(ow, ours_px, theirs, diffs)
        group.add(st)
        print(report.image_row(theme, scale, name, ow, oh, st), end="")
        if args.exact:
            exact = render_exact(cairo, images[name], THEMES[theme], scale)
            cells = {"ours": RefereeError(), "cairo": RefereeError()}
            for who, px in (("ours", ours_px), ("cairo", theirs)):
                total, worst = premultiplied_error(px, exact)
                # Each image's sum goes to every total in turn, as the figures always did.
                for acc in (cells[who], referee_group[who], referee_all[who]):
                    acc.add(total, len(exact), worst)
            print(report.referee_cells(cells["ours"], cells["cairo"]), end="")
        print()
        if args.out:
            write_pictures(args.out, theme, scale, name, ow, oh, ours_px, theirs, diffs,
                           args.zoom or max(1, 12 // scale))
    label = "(all 7)" if len(names) == 7 else "(all)"
    print(report.group_row(theme, scale, label, group), end="")
    if args.exact:
        print(report.referee_cells(referee_group["ours"], referee_group["cairo"]), end="")
    print("\n")
    return group


def main(argv=None):
    args = parse_args(argv, list(IMAGE_SIZES))
    themes = parse_list(args.themes, list(THEMES), "theme")
    scales = [int(s) for s in parse_list(args.scales, ["1", "2", "3"], "scale")]
    names = parse_list(args.images, list(IMAGE_SIZES), "image")
    images = outlines.load()

    cairo = cairo_render.load_cairo()
    convention, mid = cairo_render.probe_gradient(cairo)
    use_stops = args.gradient == "stops" or (args.gradient == "auto" and convention != "unpremultiplied")
    print(report.cairo_line(cairo, convention, mid, use_stops))

    work = args.work or tempfile.mkdtemp(prefix=PROG + "-")
    os.makedirs(work, exist_ok=True)
    ours_root = args.ours or os.path.join(work, "ours")
    if not args.ours and not args.no_build:
        ours.build()

    print(report.header(args.exact))
    overall = Stats()
    referee_all = {"ours": RefereeError(), "cairo": RefereeError()}
    for theme in themes:
        for scale in scales:
            folder = os.path.join(ours_root, theme, f"{scale}x")
            if not args.ours:
                os.makedirs(folder, exist_ok=True)
                ours.render(theme, scale, folder)
            overall.add(measure_group(args, cairo, images, names, theme, scale, use_stops, folder, referee_all))
    print(report.overall(overall))
    if args.exact:
        print(report.overall_referee(referee_all["ours"], referee_all["cairo"]))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if args.max_mean is not None and overall.mean > args.max_mean:
        print(f"{PROG}: overall mean {overall.mean:.3f} exceeds --max-mean {args.max_mean}", file=sys.stderr)
        return 1
    return 0


def run(argv=None):
    """main() with exit statuses: 2 for a Failure, 130 for an interrupt."""
    try:
        return main(argv)
    except Failure as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
