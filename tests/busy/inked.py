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


def poly_area(d):
    """Area of an SVG path of M/L/H/V/Z commands with absolute numbers."""
    pts, x, y = [], 0.0, 0.0
    for cmd, args in re.findall(r"([MLHVZ])([^MLHVZ]*)", d):
        v = [float(a) for a in re.findall(r"-?[0-9.]+", args)]
        if cmd in "ML":
            for i in range(0, len(v), 2):
                x, y = v[i], v[i + 1]
                pts.append((x, y))
        elif cmd == "H":
            x = v[-1]
            pts.append((x, y))
        elif cmd == "V":
            y = v[-1]
            pts.append((x, y))
    a = 0.0
    for i in range(len(pts)):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % len(pts)]
        a += x0 * y1 - x1 * y0
    return abs(a) / 2


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
        for i in range(stride):
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
    return [[tuple(body[(r * w + c) * 3:(r * w + c) * 3 + 3]) for c in range(w)] for r in range(h)]


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


def main():
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


main()
