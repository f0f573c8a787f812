#!/usr/bin/env python3
"""Checks of --zoom for tests/zoom/run.sh (stdlib only).

  check.py equal BIN TRACE OUTDIR ARGS...
      each zoom's lanes are the main figure's, in its order and labels;
      its bars equal, event for event, those of a figure of its range alone
      given the same lanes (--from/--to and --lanes with the main figure's
      labels): the JSON model's bars (their lanes by label) against that
      figure's, the SVG's bars (drawn at the panel's width: share bars too,
      geometry relative to the plot; x only when a main lane is idle in the
      range, which that figure leaves out) against it at the width, labels
      and font the layout names, and --stats' busy times per lane against
      its (an idle lane's: 0)
  check.py joins MODEL.json SVG
      the connectors join the band's lower corners to the panel's upper
      ones (JSON layout and SVG), no two connectors cross, panels in time
      order side by side in one row under the main panel
  check.py words PDF WORD...
      no two words of the PDF overlap, none leaves the page, each WORD drawn
  check.py below PDF WORD
      WORD (a legend entry) is drawn under every axis title "Time" (the
      zoom row's too): the legend is under the row
"""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def die(msg):
    print("check.py: " + msg)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        die("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


def path_xy(d):
    """The x and y values of an SVG path's d (M, L, H, V, Z)."""
    xs, ys = [], []
    for cmd, args in re.findall(r"([MLHVZ])([^MLHVZ]*)", d):
        v = [float(t) for t in args.replace(",", " ").split()]
        if cmd in "ML":
            xs += v[0::2]
            ys += v[1::2]
        elif cmd == "H":
            xs += v
        elif cmd == "V":
            ys += v
    return xs, ys


def svg_bars(g, ox, oy):
    """The bars in element g: (class, start, dur, x0, x1, y0, y1) relative to (ox, oy)."""
    out = []
    for b in g.iter(NS + "g"):
        cls = b.get("class") or ""
        if not cls.startswith("tf-bar") and "tf-share" not in cls:
            continue
        xs, ys = [], []
        for p in b.iter(NS + "path"):
            a, c = path_xy(p.get("d") or "")
            xs += a
            ys += c
        for r in b.iter(NS + "rect"):
            x, y = float(r.get("x")), float(r.get("y"))
            xs += [x, x + float(r.get("width"))]
            ys += [y, y + float(r.get("height"))]
        if not xs:
            continue
        out.append((cls, b.get("data-start-ms"), b.get("data-dur-ms"),
                    round(min(xs) - ox, 2), round(max(xs) - ox, 2),
                    round(min(ys) - oy, 2), round(max(ys) - oy, 2)))
    return sorted(out)


def groups(svg, cls):
    root = ET.parse(svg).getroot()
    return [g for g in root.iter(NS + "g") if cls in (g.get("class") or "").split()]


def busy(table):
    """lane label -> busy ms from a --stats table's lane block."""
    out = {}
    for line in table.splitlines():
        m = re.match(r"^(.*\S)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", line)
        if m:
            out[m.group(1)] = float(m.group(3))
    return out


def by_label(bars, labels):
    """bars with their lane given by its label."""
    return [dict(b, lane=labels[b["lane"]]) for b in bars]


def no_zoom(args):
    """args without --zoom and --zoom-pad and their values."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("--zoom", "--zoom-pad"):
            skip = True
        else:
            out.append(a)
    return out


def equal(bin_, trace, out, args):
    model = "%s/main.json" % out
    svg = "%s/main.svg" % out
    run([bin_, trace] + args + ["-o", model, "-o", svg])
    m = json.load(open(model, encoding="utf-8"))
    zooms, lay = m["zooms"], m["layout"]["zooms"]
    panels = groups(svg, "tf-zoom")
    if len(panels) != len(zooms) or len(lay) != len(zooms):
        die("%d zooms, %d panels, %d in the layout" % (len(zooms), len(panels), len(lay)))
    labels = [ln["label"] for ln in m["lanes"]]
    if any(c in ln for ln in labels for c in "=,"):
        die("a lane label with = or , cannot be given to --lanes: %r" % labels)
    sel = []
    for ln in labels:
        sel += ["--lanes", re.sub(r"([][*?])", r"[\1]", ln)]
    stats = run([bin_, trace] + args + ["--stats"]).split("\nZoom ")
    if len(stats) != len(zooms) + 1:
        die("--stats: %d zoom headings for %d zooms" % (len(stats) - 1, len(zooms)))
    for k, pl in enumerate(lay):
        i = pl["zoom"]
        z = zooms[i]
        if z["lanes"] != labels:
            die("zoom %d: lanes %r, the main figure's %r" % (i, z["lanes"], labels))
        rng = ["--from", z["from"], "--to", z["to"]] + sel
        alone = "%s/alone%d" % (out, i)
        run([bin_, trace] + no_zoom(args) + rng +
            ["--width", "%.6gbp" % pl["width_pt"], "--labels", pl["labels"],
             "--font-size", "%.6g" % pl["font_pt"], "-o", alone + ".json", "-o", alone + ".svg"])
        a = json.load(open(alone + ".json", encoding="utf-8"))
        theirs_lanes = [ln["label"] for ln in a["lanes"]]
        if by_label(a["bars"], theirs_lanes) != by_label(z["bars"], z["lanes"]):
            die("zoom %d: its model's bars differ from --from %s --to %s's (%d and %d bars)"
                % (i, z["from"], z["to"], len(z["bars"]), len(a["bars"])))
        if a["axis"] != z["axis"]:
            die("zoom %d: its axis %r, alone %r" % (i, z["axis"], a["axis"]))
        ap = a["layout"]["plot"]
        if abs(ap["w"] - pl["plot"]["w"]) > 0.01:
            die("zoom %d: its plot is %.3f pt wide, alone %.3f" % (i, pl["plot"]["w"], ap["w"]))
        mine = svg_bars(panels[k], pl["plot"]["x"], pl["plot"]["y"])
        theirs = svg_bars(groups(alone + ".svg", "tf-timeline")[0], ap["x"], ap["y"])
        n = 7 if theirs_lanes == z["lanes"] else 5
        mine, theirs = sorted(b[:n] for b in mine), sorted(b[:n] for b in theirs)
        same = len(mine) == len(theirs) and all(
            a[:3] == b[:3] and all(abs(u - v) <= 0.15 for u, v in zip(a[3:], b[3:]))
            for a, b in zip(mine, theirs))
        if not same:
            diff = [b for b in mine if b not in theirs][:3] + [b for b in theirs if b not in mine][:3]
            die("zoom %d: the panel's bars differ from the figure alone's at %.3fpt "
                "(%d and %d): %r" % (i, pl["width_pt"], len(mine), len(theirs), diff))
        own = run([bin_, trace] + no_zoom(args) + rng + ["--stats"])
        head, _, table = stats[i + 1].partition("\n")
        got, want = busy(table), busy(own)
        if not want or any(got.get(ln) != want.get(ln, 0.0) for ln in labels):
            die("zoom %d: busy per lane %r, alone %r" % (i, busy(table), busy(own)))
        print("zoom %d: %d bars, %d drawn, %d lanes' busy times equal the figure alone's"
              % (i, len(z["bars"]), len(mine), len(busy(own))))


def cross(p, q):
    """Whether segments p and q (x0, y0, x1, y1) cross."""
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    a, b, c, d = (p[0], p[1]), (p[2], p[3]), (q[0], q[1]), (q[2], q[3])
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def joins(model, svg):
    m = json.load(open(model, encoding="utf-8"))
    lay = m["layout"]
    segs = []
    last_x1 = -1e9
    for z in lay["zooms"]:
        b, p, c = z["band"], z["plot"], z["connectors"]
        want = [(b["x0"], b["y1"], p["x"], z["top"]), (b["x1"], b["y1"], p["x"] + p["w"], z["top"])]
        got = [(s["x0"], s["y0"], s["x1"], s["y1"]) for s in c]
        if any(abs(u - v) > 3e-3 for w, g in zip(want, got) for u, v in zip(w, g)):
            die("connectors %r, not the band's and panel's corners %r" % (got, want))
        if abs(b["y1"] - lay["plot"]["y"] - lay["plot"]["h"]) > 1e-3:
            die("the band ends at %.3f, the main plot at %.3f" % (b["y1"], lay["plot"]["y"] + lay["plot"]["h"]))
        if z["top"] <= b["y1"] or p["x"] < last_x1:
            die("panel %d is not under the main plot, right of the one before" % z["zoom"])
        last_x1 = p["x"] + p["w"]
        segs += got
    for i in range(len(segs)):
        for j in range(i + 1, len(segs)):
            if cross(segs[i], segs[j]):
                die("connectors %r and %r cross" % (segs[i], segs[j]))
    # the SVG draws the same lines
    lines = []
    for g in groups(svg, "tf-zoom-connector"):
        for p in g.iter(NS + "path"):
            xs, ys = path_xy(p.get("d") or "")
            lines.append((round(xs[0], 1), round(ys[0], 1), round(xs[-1], 1), round(ys[-1], 1)))
    want = sorted((round(s[0], 1), round(s[1], 1), round(s[2], 1), round(s[3], 1)) for s in segs)
    if len(lines) != len(want) or any(abs(u - v) > 0.15 for a, b in zip(sorted(lines), want)
                                      for u, v in zip(a, b)):
        die("SVG connectors %r, JSON %r" % (sorted(lines), want))
    bands = groups(svg, "tf-zoom-band")
    if len(bands) != len(lay["zooms"]) or len(groups(svg, "tf-panel")) != len(lay["zooms"]) + 1:
        die("%d bands and %d panels for %d zooms" % (len(bands), len(groups(svg, "tf-panel")),
                                                   len(lay["zooms"])))
    print("%d zooms: connectors join band and panel corners, none cross" % len(lay["zooms"]))


def words(pdf, want):
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True,
                         check=True).stdout
    out = re.sub(r"<!DOCTYPE[^>]*>", "", out)
    root = ET.fromstring(out)
    ns = "{http://www.w3.org/1999/xhtml}"
    page = root.find(".//%spage" % ns)
    W, H = float(page.get("width")), float(page.get("height"))
    ws = [(w.text or "", float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")),
           float(w.get("yMax"))) for w in root.iter(ns + "word")]
    for t, x0, y0, x1, y1 in ws:
        if x0 < -0.5 or y0 < -0.5 or x1 > W + 0.5 or y1 > H + 0.5:
            die("%s: %r leaves the page" % (pdf, t))
    for i in range(len(ws)):
        for j in range(i + 1, len(ws)):
            a, b = ws[i], ws[j]
            ox = min(a[3], b[3]) - max(a[1], b[1])
            oy = min(a[4], b[4]) - max(a[2], b[2])
            if ox > 0.5 and oy > 0.25 * min(a[4] - a[2], b[4] - b[2]):
                die("%s: %r and %r overlap" % (pdf, a[0], b[0]))
    texts = " ".join(w[0] for w in ws)
    for w in want:
        if w not in texts:
            die("%s: %r not drawn" % (pdf, w))


def below(pdf, word):
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True,
                         check=True).stdout
    got = [(w.group(3), float(w.group(1)), float(w.group(2))) for w in re.finditer(
        r'<word xMin="[^"]*" yMin="([^"]*)" xMax="[^"]*" yMax="([^"]*)">([^<]*)</word>', out)]
    times = [y1 for t, _, y1 in got if t == "Time"]
    mine = [y0 for t, y0, _ in got if t == word]
    if len(times) < 2 or not mine:
        die("%s: %d axis titles, %d %r" % (pdf, len(times), len(mine), word))
    if min(mine) <= max(times):
        die("%s: %r at %.1f, above an axis title at %.1f" % (pdf, word, min(mine), max(times)))


def main():
    cmd = sys.argv[1]
    if cmd == "equal":
        equal(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif cmd == "joins":
        joins(sys.argv[2], sys.argv[3])
    elif cmd == "below":
        below(sys.argv[2], sys.argv[3])
    elif cmd == "words":
        words(sys.argv[2], sys.argv[3:])
    else:
        die("unknown command " + cmd)


if __name__ == "__main__":
    main()
