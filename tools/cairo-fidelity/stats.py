"""The comparison figures: ours against Cairo on straight RGBA, and both against the referee."""

THRESHOLDS = (2, 8, 32)


class Stats:
    """Figures of one image, or summed over several (add)."""

    def __init__(self):
        self.pixels = self.drawn = self.drawn_total = 0
        self.max = self.pm_max = 0
        self.where = None
        self.over = {k: 0 for k in THRESHOLDS}

    def add(self, other):
        self.pixels += other.pixels
        self.drawn += other.drawn
        self.drawn_total += other.drawn_total
        if other.max > self.max:
            self.max, self.where = other.max, other.where
        self.pm_max = max(self.pm_max, other.pm_max)
        for k in self.over:
            self.over[k] += other.over[k]

    @property
    def mean(self):
        # Pixels transparent in both add nothing to the sum.
        return self.drawn_total / (4 * self.pixels) if self.pixels else 0.0

    @property
    def drawn_mean(self):
        return self.drawn_total / (4 * self.drawn) if self.drawn else 0.0


def compare(w, ours, theirs, diff_out=None):
    """Straight RGBA pixel comparison; pixels transparent in both count as equal, since their
    colour is not seen. diff_out, if a list, gets each pixel's largest channel error."""
    s = Stats()
    n = len(ours) // 4
    s.pixels = n
    for i in range(n):
        o = i * 4
        oa, ta = ours[o + 3], theirs[o + 3]
        if oa == 0 and ta == 0:
            if diff_out is not None:
                diff_out.append(0)
            continue
        s.drawn += 1
        d0 = abs(ours[o] - theirs[o])
        d1 = abs(ours[o + 1] - theirs[o + 1])
        d2 = abs(ours[o + 2] - theirs[o + 2])
        d3 = abs(oa - ta)
        s.drawn_total += d0 + d1 + d2 + d3
        m = max(d0, d1, d2, d3)
        if diff_out is not None:
            diff_out.append(m)
        if m == 0:
            continue
        if m > s.max:
            s.max, s.where = m, (i % w, i // w)
        for k in THRESHOLDS:
            if m > k:
                s.over[k] += 1
        # The same pixel premultiplied (rounded), to tell near-transparent pixels apart.
        pm = max(abs((ours[o + c] * oa + 127) // 255 - (theirs[o + c] * ta + 127) // 255) for c in range(3))
        s.pm_max = max(s.pm_max, pm, d3)
    return s


class RefereeError:
    """Premultiplied error against the referee, summed over channels: its mean and max."""

    def __init__(self):
        self.total, self.channels, self.worst = 0.0, 0, 0.0

    def add(self, total, channels, worst):
        self.total += total
        self.channels += channels
        self.worst = max(self.worst, worst)

    @property
    def mean(self):
        return self.total / max(1, self.channels)
