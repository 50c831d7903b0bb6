"""The printed table: one row per image, one per theme and scale, and the overall lines.
The layout is kept exactly as compare-with-cairo always printed it, so runs stay diffable."""


def header(exact):
    text = (f"{'theme':<8} {'s':>1} {'image':<12} {'pixels':>9} {'mean':>7} {'drawn':>7} {'max':>4} "
            f"{'at (x,y)':>10} {'>2':>6} {'>8':>6} {'>32':>5} {'pmMax':>5}")
    if exact:
        text += f" {'ours~x':>11} {'cairo~x':>11}"
    return text + "\n" + "-" * len(text)


def where(st):
    return f"{st.where[0]},{st.where[1]}" if st.where else "-"


def image_row(theme, scale, name, w, h, st):
    return (f"{theme:<8} {scale:>1} {name:<12} {w:>4}x{h:<4} {st.mean:>7.3f} {st.drawn_mean:>7.3f} "
            f"{st.max:>4} {where(st):>10} {st.over[2]:>6} {st.over[8]:>6} {st.over[32]:>5} {st.pm_max:>5}")


def group_row(theme, scale, label, st):
    return (f"{theme:<8} {scale:>1} {label:<12} {st.pixels:>9} "
            f"{st.mean:>7.3f} {st.drawn_mean:>7.3f} {st.max:>4} {'':>10} {st.over[2]:>6} "
            f"{st.over[8]:>6} {st.over[32]:>5} {st.pm_max:>5}")


def referee_cell(err):
    return f"{err.mean:.3f}/{err.worst:.1f}".rjust(11)


def referee_cells(ours, cairo):
    return " " + referee_cell(ours) + " " + referee_cell(cairo)


def overall(st):
    return (f"overall: mean {st.mean:.3f} max {st.max} (mean over drawn pixels {st.drawn_mean:.3f}; "
            f"{st.pixels} pixels, {st.drawn} drawn; >2: {st.over[2]}, >8: {st.over[8]}, "
            f">32: {st.over[32]}; premultiplied max {st.pm_max})")


def overall_referee(ours, cairo):
    return (f"against the supersampled referee (premultiplied): ours mean {ours.mean:.3f} max {ours.worst:.1f}; "
            f"cairo mean {cairo.mean:.3f} max {cairo.worst:.1f}")


def cairo_line(cairo, convention, mid, use_stops):
    return (f"cairo {cairo.cairo_version_string()} (cairocffi {cairo.version}); gradient stops are interpolated "
            f"{convention} (red->transparent blue at t~0.5: premultiplied rgba {mid}); "
            f"using {'256 stops (unpremultiplied emulated)' if use_stops else 'cairo native 2-stop gradient'}")
