#!/usr/bin/env python3
"""Checks of the marks suite (tests/marks/run.sh), one per command:

  check.py times MODEL.json TIMES.tsv SPEC...   each mark's t0, t1, dur against
                                                 the generator's times (SPEC: KIND
                                                 A B, A and B "start:NAME@K",
                                                 "end:NAME@K"); text is {dur}
  check.py boxes FILE.pdf WORD...               no two words of the PDF's text
                                                 boxes overlap, every word inside
                                                 the page, and each WORD is drawn
  check.py red FILE.pdf N                       at least N strokes in pure red
"""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def die(msg):
    print(msg)
    sys.exit(1)


def times(model, tsv, specs):
    m = json.load(open(model))
    ev = {}
    for line in open(tsv):
        name, t0, t1 = line.rstrip("\n").split("\t")
        ev.setdefault(name, []).append((float(t0), float(t1)))
    for v in ev.values():
        v.sort()
    origin = min(t for v in ev.values() for t, _ in v)
    marks = m["marks"]
    if len(marks) != len(specs):
        die("%d marks, %d specs" % (len(marks), len(specs)))

    def edge(s, default):
        e = default
        if s.startswith("start:") or s.startswith("end:"):
            e, s = s.split(":", 1)
        name, k = (s.rsplit("@", 1) + ["1"])[:2] if "@" in s else (s, "1")
        t0, t1 = ev[name][int(k) - 1]
        return ((t0 if e == "start" else t1) - origin) / 1000.0  # us -> ms

    span = m["axis"]["span"]
    for mk, (kind, a, b) in zip(marks, specs):
        want0, want1 = edge(a, "start"), edge(b, "end")
        tol = 0.001 * span
        if mk["kind"] != kind:
            die("kind %s, want %s" % (mk["kind"], kind))
        for key, want in (("t0", want0), ("t1", want1), ("dur", want1 - want0)):
            if abs(mk[key] - want) > tol:
                die("%s %s: %s = %s, want %s" % (kind, a, key, mk[key], want))
        dur = want1 - want0
        if kind in ("span", "measure"):
            num = float(mk["text"].split()[0])
            if abs(num - dur) > max(0.006 * abs(dur), 1e-9) or not mk["text"].endswith(" ms"):
                die("text %r for %.6f ms" % (mk["text"], dur))


def words(pdf):
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True,
                         check=True).stdout
    out = re.sub(r"<!DOCTYPE[^>]*>", "", out)
    root = ET.fromstring(out)
    ns = "{http://www.w3.org/1999/xhtml}"
    page = root.find(".//%spage" % ns)
    W, H = float(page.get("width")), float(page.get("height"))
    ws = []
    for w in root.iter(ns + "word"):
        ws.append((w.text or "", float(w.get("xMin")), float(w.get("yMin")),
                   float(w.get("xMax")), float(w.get("yMax"))))
    return W, H, ws


def boxes(pdf, want):
    W, H, ws = words(pdf)
    for t, x0, y0, x1, y1 in ws:
        if x0 < -0.5 or y0 < -0.5 or x1 > W + 0.5 or y1 > H + 0.5:
            die("%s: %r leaves the page (%.1f %.1f %.1f %.1f in %.1f x %.1f)"
                % (pdf, t, x0, y0, x1, y1, W, H))
    # overlap: boxes that intersect by more than a hair (poppler's boxes are
    # the font's whole line, so words on adjacent lines may touch)
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
            die("%s: %r not drawn (words: %s)" % (pdf, w, texts[:300]))


def red(pdf, n):
    raw = open(pdf, "rb").read()
    count = len(re.findall(rb"(?<![\d.])1 0 0 RG", raw))
    if count < n:
        die("%s: %d red strokes, want %d" % (pdf, count, n))


def main():
    cmd = sys.argv[1]
    if cmd == "times":
        specs = [tuple(s.split(" ")) for s in sys.argv[4:]]
        times(sys.argv[2], sys.argv[3], specs)
    elif cmd == "boxes":
        boxes(sys.argv[2], sys.argv[3:])
    elif cmd == "red":
        red(sys.argv[2], int(sys.argv[3]))
    else:
        die("unknown check " + cmd)


if __name__ == "__main__":
    main()
