#!/usr/bin/env python3
"""inked.py KIND FILE MODEL EXPECT: the ink each colour class has in a drawn
figure, against the time its slices cover (tests/busy/run.sh).

KIND is json (FILE is the model itself: slices' widths and dense bars'
span x share), svg (the areas of the bars' paths), png or ppm (pixels of
each class's colour, antialiased edges weighed by how much of the colour
they hold).  MODEL is the figure's JSON model (its categories' colours),
EXPECT the case's {"CLASS": ms}.  The figures are read in their own units:
each class's ink over the calibration slice's ("calib", one whole slice of
known time), times that slice's time, is the class's time as drawn.

Prints one line per class and exits 1 when a class that covers at least
1 % of the window is off by more than 5 %, or a smaller one has no ink.

inked.py lanes PNG SVG MODEL [TOL]: each lane's ink against its busy time.
PNG is the figure at some dpi (or a PPM of its PDF), SVG the same figure (where the rows are: the
lines between lanes, and the bottoms of the bars' paths), MODEL its JSON
model (each row's busy time: its slices' widths and its fine dense bars'
span x share, as the rules took them from the trace).  A row's ink is the
sum over the pixels of its band, across the plot, of how much of each pixel
a class colour covers (weigh), over the band's pixels: the share of the row
the eye sees inked.  Where the grid's lines or the axes run, a grey pixel
is theirs unless it is a grey class's own colour.  A lane's ink and busy
time are its rows' summed.  Prints each row and each lane, and exits 1 when
a lane busy at least 1 % of the window is inked more than TOL (default
0.25) away from its busy share, relatively, or a busy lane has no ink.

inked.py seen PNG SVG MODEL LABEL MS...: whether each moment MS (on the
trace's clock, in ms) is inked, two pixels' worth at least, within a point
of it in the first row of the lane labelled LABEL.
"""
import json
import re
import struct
import sys
import zlib

TOL = 0.05


def load(p):
    with open(p) as f:
        return json.load(f)


def classes(model):
    """colour (r, g, b) -> class, from the model's categories (their names)."""
    out = {}
    for c in model["categories"]:
        rgb = tuple(int(c["color"][i:i + 2], 16) for i in (1, 3, 5))
        if rgb in out and out[rgb] != c["name"]:
            sys.exit("inked.py: two classes share colour %s" % c["color"])
        out[rgb] = c["name"]
    return out


def from_json(model):
    per = {"s": 1000.0, "ms": 1.0}.get(model["axis"]["unit"], 0.001)
    t = {}
    for b in model["bars"]:
        if b["shape"] == "instant":
            continue
        w = (b["x1"] - b["x0"]) * per
        if b["shape"] == "dense":
            for k, s in b["busy"].items():
                t[k] = t.get(k, 0.0) + w * s
        else:
            t[b["category"]] = t.get(b["category"], 0.0) + w
    return t


def subpaths(d):
    """The points of each subpath of SVG path data of M/L/H/V/Z commands,
    absolute or relative (a run of share boxes of one colour is one path of
    staircase outlines in relative steps)."""
    out, pts, x, y, sx, sy = [], [], 0.0, 0.0, 0.0, 0.0
    for cmd, args in re.findall(r"([MLHVZmlhvz])([^MLHVZmlhvz]*)", d):
        v = [float(a) for a in re.findall(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)", args)]
        rel = cmd.islower()
        c = cmd.upper()
        if c == "M":
            if pts:
                out.append(pts)
            pts = []
        if c in "ML":
            for i in range(0, len(v), 2):
                x, y = (x + v[i], y + v[i + 1]) if rel else (v[i], v[i + 1])
                if c == "M" and i == 0:
                    sx, sy = x, y
                pts.append((x, y))
        elif c == "H":
            for a in v:
                x = x + a if rel else a
                pts.append((x, y))
        elif c == "V":
            for a in v:
                y = y + a if rel else a
                pts.append((x, y))
        elif c == "Z":
            x, y = sx, sy
    if pts:
        out.append(pts)
    return out


def poly_area(d):
    """Area of an SVG path's subpaths (each a simple polygon, none over
    another)."""
    total = 0.0
    for pts in subpaths(d):
        a = 0.0
        for i in range(len(pts)):
            x0, y0 = pts[i]
            x1, y1 = pts[(i + 1) % len(pts)]
            a += x0 * y1 - x1 * y0
        total += abs(a) / 2
    return total


def from_svg(text, cls):
    ink = {}
    for g in re.findall(r'<g class="[^"]*\bbar\b[^"]*"[^>]*>(.*?)</g>', text, re.S):
        for d, fill in re.findall(r'<path d="([^"]*)" fill="#([0-9A-Fa-f]{6})"', g):
            rgb = tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))
            if rgb in cls:
                ink[cls[rgb]] = ink.get(cls[rgb], 0.0) + poly_area(d)
    return ink


def read_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "8-bit RGB or RGBA only"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for r in range(h):
        ft = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        if ft == 0 and bpp == 3:  # no filter (cairo's): the bytes as they are
            prev = line
            rows.append(list(zip(line[0::3], line[1::3], line[2::3])))
            continue
        for i in range(stride if ft else 0):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        px = []
        for i in range(0, stride, bpp):
            r_, g_, b_ = line[i], line[i + 1], line[i + 2]
            if bpp == 4:  # over white
                al = line[i + 3] / 255.0
                r_, g_, b_ = (round(v * al + 255 * (1 - al)) for v in (r_, g_, b_))
            px.append((r_, g_, b_))
        rows.append(px)
    return rows


def read_ppm(data):
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    w, h = int(m.group(1)), int(m.group(2))
    body = data[m.end():]
    rows = []
    for r in range(h):
        line = body[r * w * 3:(r + 1) * w * 3]
        rows.append(list(zip(line[0::3], line[1::3], line[2::3])))
    return rows


def from_pixels(rows, cls):
    """Weighted pixel counts per class, over the rows down to the bottom of
    the calibration slice (the last lane; the legend below is left out)."""
    calib = [k for k, v in cls.items() if v == "calib"][0]
    w = len(rows[0])
    bottom = max(r for r, px in enumerate(rows) if sum(p == calib for p in px) > 0.2 * w)
    cols = [(k, v, None) for k, v in sorted(cls.items())]
    ink, memo = {}, {}
    for px in rows[:bottom + 1]:
        for p in px:
            if p == (255, 255, 255):
                continue
            if p not in memo:
                memo[p] = weigh(p, cols)
            for name, a in memo[p]:
                ink[name] = ink.get(name, 0.0) + a
    return ink


def on_segment(p, c0, c1):
    """(a, off) for p about a * c1 + (1 - a) * c0 (off: the squared distance
    left), or None when p is nowhere near that segment."""
    v = [y - x for x, y in zip(c0, c1)]
    d = [y - x for x, y in zip(c0, p)]
    n2 = sum(c * c for c in v)
    if n2 == 0:
        return None
    a = sum(x * y for x, y in zip(d, v)) / n2
    off = sum((x - a * y) ** 2 for x, y in zip(d, v))
    if -0.05 < a < 1.05 and off < 0.01 * n2 + 12:
        return min(max(a, 0.0), 1.0), off
    return None


def weigh(p, cols):
    """A pixel's share of each class: on the way from white to one class's
    colour (an edge over the background), or between two classes' colours
    (where two shares meet); the nearest such mixture."""
    white = (255, 255, 255)
    best, out = None, []
    for i, (k0, n0, _) in enumerate(cols):
        r = on_segment(p, white, k0)
        if r and r[0] > 0.05 and (best is None or r[1] < best):
            best, out = r[1], [(n0, r[0])]
        # A slice's edge: a darker shade (layout.c) straddling its outline,
        # half of it inside.
        dark = tuple(c * 65 // 100 for c in k0)
        r = on_segment(p, k0, dark)
        if r and (best is None or r[1] < best):
            best, out = r[1], [(n0, 1 - 0.5 * r[0])]
        r = on_segment(p, white, dark)
        if r and r[0] > 0.05 and (best is None or r[1] < best):
            best, out = r[1], [(n0, 0.5 * r[0])]
        for k1, n1, _ in cols[i + 1:]:
            r = on_segment(p, k0, k1)
            if r and (best is None or r[1] < best):
                best, out = r[1], [(n1, r[0]), (n0, 1 - r[0])]
    return out


def path_ys(d):
    """The y of each point of an SVG path."""
    return [y for pts in subpaths(d) for _, y in pts]


def row_bands(svg, model):
    """{(lane, row): (top, bottom)} in points, from the SVG: the lanes'
    bands between the lines drawn between them, and in each band the bottom
    of its deepest row (the greatest bottom of a bar's filled path in it,
    or the band's end just under it; the rows above it a row apart)."""
    lay = model["layout"]
    plot, row_h = lay["plot"], lay["row_pt"]
    cuts = [float(y) for y in re.findall(r'class="tf-hgrid" d="M[-0-9.]+ ([-0-9.]+)H', svg)]
    edges = [plot["y"]] + cuts + [plot["y"] + plot["h"]]
    bottoms = [[] for _ in range(len(edges) - 1)]
    for g in re.findall(r'<g class="[^"]*\bbar\b[^"]*"[^>]*>(.*?)</g>', svg, re.S):
        for d in re.findall(r'<path d="([^"]*)" fill="#', g):
            y1 = max(path_ys(d))
            for i in range(len(edges) - 1):
                if edges[i] <= y1 <= edges[i + 1] + 0.5:
                    bottoms[i].append(y1)
                    break
    out = {}
    lanes = [l for l in model["lanes"]][:lay["lanes_drawn"]]
    for i, ln in enumerate(lanes):
        if i >= len(bottoms) or not bottoms[i] or ln["kind"] == "counter":
            continue
        n = min(ln.get("rows", 1) or 1, lay["depth"])
        # The deepest row's bottom: a share box stacks up from it, or rests
        # on the line along it (half the line's width higher, layout.c).
        last = max(bottoms[i])
        if 0 < edges[i + 1] - last <= 0.55:
            last = edges[i + 1]
        for r in range(n):
            out[(i, r)] = (last - (n - r) * row_h, last - (n - 1 - r) * row_h)
    return out


def row_busy(model):
    """{(lane, row): busy time over the window} from the model's bars."""
    span = model["axis"]["span"]
    busy = {}
    for b in model["bars"]:
        if b["shape"] == "instant":
            continue
        x0, x1 = max(b["x0"], 0.0), min(b["x1"], span)
        if x1 <= x0:
            continue
        w = (x1 - x0) * (sum(b["busy"].values()) if b["shape"] == "dense" else 1.0)
        k = (b["lane"], b.get("row", 0))
        busy[k] = busy.get(k, 0.0) + w
    return {k: v / span for k, v in busy.items()}


class Drawn:
    """A figure drawn as a PNG, with its SVG and its model: the ink of a
    class colour over any part of a row, in the PNG's pixels."""

    def __init__(self, png, svg, model):
        self.model, self.svg = model, svg
        cls = classes(model)
        self.cols = [(c, name, None) for c, name in sorted(cls.items())]
        data = open(png, "rb").read()
        self.rows = read_ppm(data) if data[:2] == b"P6" else read_png(data)
        lay = model["layout"]
        self.k = k = len(self.rows[0]) / lay["width_pt"]  # pixels a point
        plot = lay["plot"]
        self.px0 = int(round(plot["x"] * k))
        self.px1 = int(round((plot["x"] + plot["w"]) * k))
        self.bands = row_bands(svg, model)
        # The grid's grey lines (between lanes, and at the ticks) and the
        # axes: where they run, a grey pixel is a line's unless it is a grey
        # class's own colour (a box over the line).
        hgrid = [float(y) for y in re.findall(r'class="tf-hgrid" d="M[-0-9.]+ ([-0-9.]+)H', svg)]
        vgrid = [float(x) for x in re.findall(r'class="tf-grid" d="M([-0-9.]+) ', svg)]
        hgrid.append(plot["y"] + plot["h"])  # the axes, over the bars
        vgrid.append(plot["x"])
        self.near = near = 0.5 + 1.5 / k  # half the widest line, and its antialiased edge
        self.hgrid = hgrid
        self.grid_cols = set(c for c in range(self.px0, self.px1)
                             if any(abs((c + 0.5) / k - x) <= near for x in vgrid))
        self.greys = [g for g in cls if max(g) - min(g) <= 3]
        self.memo = {}

    def x_px(self, ms):
        """The pixel column of ms on the trace's clock."""
        m = self.model
        plot, span = m["layout"]["plot"], m["axis"]["span"]
        per = {"s": 1000.0, "ms": 1.0}.get(m["axis"]["unit"], 0.001)  # ms an axis unit
        x = (ms - m["window"]["start_us"] / 1000.0) / per
        return int((plot["x"] + x / span * plot["w"]) * self.k)

    def ink(self, lane, row, c0=None, c1=None):
        """(ink, pixels): the class colours' cover summed over the row's
        band, columns [c0, c1) (the plot's by default), and its pixels."""
        top, bottom = self.bands[(lane, row)]
        c0 = self.px0 if c0 is None else max(c0, self.px0)
        c1 = self.px1 if c1 is None else min(c1, self.px1)
        ink, n = 0.0, 0
        for py in range(len(self.rows)):
            y = (py + 0.5) / self.k
            if not top <= y < bottom:
                continue
            n += 1
            grid_row = any(abs(y - g) <= self.near for g in self.hgrid)
            for c, p in enumerate(self.rows[py][c0:c1], c0):
                if p == (255, 255, 255):
                    continue
                if (max(p) - min(p) <= 3 and (grid_row or c in self.grid_cols) and
                        not any(max(abs(a - b) for a, b in zip(p, g)) <= 1 for g in self.greys)):
                    continue
                if p not in self.memo:
                    self.memo[p] = weigh(p, self.cols)
                ink += sum(a for _, a in self.memo[p])
        return ink, n * (c1 - c0)


def lanes(d, tol):
    """Each row's ink against its busy time, then each lane's (its rows'
    ink against their busy time, summed); 1 when a lane is off."""
    busy = row_busy(d.model)
    per_lane, bad = {}, 0
    for (lane, r) in sorted(d.bands):
        ink, n = d.ink(lane, r)
        want = busy.get((lane, r), 0.0)
        acc = per_lane.setdefault(lane, [0.0, 0.0, 0])
        acc[0] += ink / n if n else 0.0
        acc[1] += want
        acc[2] += 1
        if want > 0 or ink > 0:
            print("  lane %d row %d: busy %.2f %%, inked %.2f %%" % (
                lane, r, 100 * want, 100 * ink / n if n else 0))
    for lane, (inked, want, rows) in sorted(per_lane.items()):
        inked, want = inked / rows, want / rows
        if want == 0 and inked == 0:
            continue
        ok = abs(inked - want) <= tol * want if want >= 0.01 else inked > 0
        bad += not ok
        print("lane %d (%s): busy %.2f %%, inked %.2f %% (%+.0f %%)%s" % (
            lane, d.model["lanes"][lane]["label"], 100 * want, 100 * inked,
            100 * (inked / want - 1) if want > 0 else float("inf"), "" if ok else "  <-- off"))
    return bad


def seen(d, label, ats):
    """Whether each moment of ats (ms on the trace's clock) is inked in the
    first row of the lane labelled label, within a point of it; 1 when one
    is not."""
    lane = [i for i, ln in enumerate(d.model["lanes"]) if ln["label"] == label][0]
    bad = 0
    for x in ats:
        c = d.x_px(x)
        ink, _ = d.ink(lane, 0, c - int(d.k) - 1, c + int(d.k) + 2)
        ok = ink >= 2  # two pixels' worth
        bad += not ok
        if not ok:
            print("%s: nothing seen at %s ms (%.2f pixels of ink)" % (label, x, ink))
    print("%s: %d of %d seen" % (label, len(ats) - bad, len(ats)))
    return bad


def main():
    if sys.argv[1] in ("lanes", "seen"):
        png, svg, model = sys.argv[2:5]
        d = Drawn(png, open(svg).read(), load(model))
        if sys.argv[1] == "lanes":
            tol = float(sys.argv[5]) if len(sys.argv) > 5 else 0.25
            sys.exit(1 if lanes(d, tol) else 0)
        sys.exit(1 if seen(d, sys.argv[5], [float(v) for v in sys.argv[6:]]) else 0)
    kind, path, model, expect = sys.argv[1:5]
    model, expect = load(model), load(expect)
    if kind == "json":
        got = from_json(model)
    else:
        cls = classes(model)
        if kind == "svg":
            ink = from_svg(open(path).read(), cls)
        else:
            data = open(path, "rb").read()
            ink = from_pixels(read_png(data) if kind == "png" else read_ppm(data), cls)
        unit = expect["calib"] / ink.get("calib", float("nan"))
        got = {k: v * unit for k, v in ink.items()}
    window = sum(v for k, v in expect.items() if k == "calib") * 2
    bad = 0
    for k in sorted(expect):
        want, have = expect[k], got.get(k, 0.0)
        if want >= 0.01 * window:
            ok = abs(have - want) <= TOL * want
        else:
            ok = have > 0
        bad += not ok
        print("%s %s: %s ms drawn, %s ms in the trace%s" % (
            kind, k, round(have, 4), round(want, 4), "" if ok else "  <-- off"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":  # (tests/perfetto/colors.py imports read_png)
    main()
