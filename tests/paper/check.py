"""check.py OUT "NAME ...": the paper suite's checks (see run.sh).

OUT holds, per figure NAME: NAME.tex (TikZ), NAME-229.5pt.pdf/.json and
NAME-110pt.pdf/.json (the PDF back-end and its model), and paper.log/.pdf
(the article: page 2k is figure k at \\columnwidth, page 2k+1 its
0.48\\columnwidth pair), browser.txt (tests/svg/browser.sh on the SVGs).
Prints one line per figure and size, then "paper: N passed, N failed";
exits 1 on a failure.
"""
import json
import re
import subprocess
import sys

MAX_H = 400.0          # TeX pt
MIN_TEXT = 5.0         # pt
SHARE = {"col": 0.60, "sub": 0.50, "sub2": 0.50, "229.5pt": 0.60, "110pt": 0.50}
ROOM_BP = {"229.5pt": 229.5 * 72 / 72.27, "110pt": 110 * 72 / 72.27}
# Word box height / font size, as pdftotext reports it: Computer Modern
# (the article's fonts) and DejaVu Sans (tracefig's PDF).
K_CM = 0.885
K_DEJAVU = 1.164

passed = 0
failed = 0


def result(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL paper: " + what)


def pt(s):
    return float(s[:-2]) if s.endswith("pt") else float(s)


def log_lines(path):
    """The log with TeX's 79-column wrapping undone."""
    out, cur = [], ""
    for line in open(path, encoding="latin-1").read().split("\n"):
        cur += line
        if len(line) != 79:
            out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out


def words(pdf):
    """Per page: (x0, y0, x1, y1, text) of every word."""
    xml = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True,
                         text=True).stdout
    pages = []
    for page in xml.split("<page ")[1:]:
        ws = []
        for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                             r'yMax="([\d.]+)">(.*?)</word>', page):
            ws.append((float(m.group(1)), float(m.group(2)), float(m.group(3)),
                       float(m.group(4)), m.group(5)))
        pages.append(ws)
    return pages


def text_checks(ws, k):
    """The smallest text (pt) and the overlapping word pairs."""
    small = min(((w[3] - w[1]) / k for w in ws), default=0.0)
    overlaps = []
    for i in range(len(ws)):
        a = ws[i]
        for j in range(i + 1, len(ws)):
            b = ws[j]
            ix = min(a[2], b[2]) - max(a[0], b[0])
            iy = min(a[3], b[3]) - max(a[1], b[1])
            if ix > 0.1 and iy > 0.1:
                overlaps.append("%r/%r" % (a[4], b[4]))
    return small, overlaps


def braces(s, i, n):
    """n brace groups of s from i."""
    out = []
    while len(out) < n:
        while s[i] != "{":
            i += 1
        depth, j = 0, i
        while True:
            if s[j] == "\\":
                j += 2
                continue
            depth += s[j] == "{"
            depth -= s[j] == "}"
            j += 1
            if depth == 0:
                break
        out.append(s[i + 1:j - 1])
        i = j
    return out


def tikz_labels(tex, level):
    """(header, label) of each lane at a label level, from the figure's file."""
    labs = []
    for m in re.finditer(r"^\\tracefiglane(?=\{)", tex, re.M):
        g = braces(tex, m.end(), 7)
        labs.append((g[1] if level >= 1 else "-1", g[2 + min(level, 4)]))
    return labs


def alike(labels):
    seen, dup = set(), []
    for lab in labels:
        if not lab[1]:
            continue  # a lane left unlabelled among many thin ones (ranks)
        if lab in seen:
            dup.append(lab[1])
        seen.add(lab)
    return dup


def strays(labels):
    """Lanes of two-part labels ("process / thread") right after a header's
    lanes but under none: they would read as members of that group."""
    return [lab[1] for i, lab in enumerate(labels)
            if i and lab[0] == "-1" and labels[i - 1][0] != "-1" and " / " in lab[1]]


def main():
    out, names = sys.argv[1], sys.argv[2].split()
    log = log_lines(out + "/paper.log")
    boxes, plans, overfull = {}, {}, set()
    cur = None
    for line in log:
        m = re.match(r"TFFIG (\S+) (\S+)", line)
        if m:
            cur = (m.group(1), m.group(2))
        m = re.match(r"TFBOX (\S+) (\S+) (\S+) (\S+) (\S+) (\S+)", line)
        if m:
            boxes[(m.group(1), m.group(2))] = [pt(m.group(i)) for i in range(3, 7)]
        m = re.match(r"tracefig-plan: (.*)", line)
        if m and cur:
            plans[cur] = dict(kv.split("=", 1) for kv in m.group(1).split())
        if line.startswith("Overfull") and cur:
            overfull.add(cur)
    pages = words(out + "/paper.pdf")
    browser = open(out + "/browser.txt").read()
    print("paper: figure        size      plot   height  smallest text  labels")
    for k, name in enumerate(names):
        tex = open("%s/%s.tex" % (out, name), encoding="utf-8").read()
        for kind in ("col", "sub", "sub2"):
            key = (name, kind)
            if key not in boxes or key not in plans:
                result(False, "%s %s: not measured (no box or no plan in the log)" % key)
                continue
            wd, ht, dp, room = boxes[key]
            plan = plans[key]
            share = pt(plan["plot"]) / wd if wd > 0 else 0
            ws = pages[2 * k + (kind != "col")] if 2 * k + 1 < len(pages) else []
            if kind != "col":
                # The pair: the left figure's words are left of the middle.
                mid = (min(w[0] for w in ws) + max(w[2] for w in ws)) / 2 if ws else 0
                ws = [w for w in ws if (w[0] < mid) == (kind == "sub")]
            small, over = text_checks(ws, K_CM)
            level = int(plan["level"])
            dup = alike(tikz_labels(tex, level)) if plan["labels"] != "none" else []
            result(wd <= room + 0.01, "%s tikz %s: %.2fpt wide in %.2fpt" % (name, kind, wd, room))
            result(key not in overfull, "%s tikz %s: an overfull box" % (name, kind))
            result(ht + dp <= MAX_H, "%s tikz %s: %.1fpt tall" % (name, kind, ht + dp))
            result(share >= SHARE[kind], "%s tikz %s: the plot is %.0f %% of the width"
                   % (name, kind, 100 * share))
            result(small >= MIN_TEXT - 0.05, "%s tikz %s: text of %.2fpt" % (name, kind, small))
            result(not over, "%s tikz %s: words overlap: %s" % (name, kind, ", ".join(over[:4])))
            result(not dup, "%s tikz %s: lane labels alike: %s" % (name, kind, dup[:4]))
            stray = strays(tikz_labels(tex, level)) if level >= 1 else []
            result(not stray, "%s tikz %s: a lane after a header, under none: %s"
                   % (name, kind, stray[:4]))
            if name.startswith("seed") and kind != "col":
                # The seed's v2 + breakdown in a 0.48\columnwidth subfigure
                # (issue 26): labels short or above, the breakdown under the
                # timeline.
                result(plan["labels"] == "above" or level >= 1,
                       "%s tikz %s: full lane labels left of the plot" % (name, kind))
                result(plan["panel"] == "below",
                       "%s tikz %s: the breakdown is %s, not below" % (name, kind, plan["panel"]))
            if kind != "sub2":
                print("paper: %-18s tikz %-4s %3.0f %%  %5.1fpt  %5.2fpt  %s" %
                      (name, kind, 100 * share, ht + dp, small, plan["labels"]))
        for w in ("229.5pt", "110pt"):
            pdf = "%s/%s-%s.pdf" % (out, name, w)
            model = json.load(open("%s/%s-%s.json" % (out, name, w), encoding="utf-8"))
            lay = model["layout"]
            info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
            m = re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info)
            pw, ph = (float(m.group(1)), float(m.group(2))) if m else (1e9, 1e9)
            share = lay["plot"]["w"] / lay["width_pt"]
            ws = words(pdf)
            small, over = text_checks(ws[0] if ws else [], K_DEJAVU)
            hdr = ["-1"] * len(lay["lane_labels"])
            for h in lay["headers"]:
                for i in range(h["first"], h["first"] + h["lanes"]):
                    hdr[i] = h["text"]
            dup = alike([(hdr[i], t) for i, t in enumerate(lay["lane_labels"]) if t is not None])
            hpt = ph * 72.27 / 72
            result(pw <= ROOM_BP[w] + 0.01, "%s pdf %s: %.2fbp wide" % (name, w, pw))
            result(hpt <= MAX_H, "%s pdf %s: %.1fpt tall" % (name, w, hpt))
            result(share >= SHARE[w], "%s pdf %s: the plot is %.0f %% of the width"
                   % (name, w, 100 * share))
            result(small >= MIN_TEXT - 0.05, "%s pdf %s: text of %.2fpt" % (name, w, small))
            result(not over, "%s pdf %s: words overlap: %s" % (name, w, ", ".join(over[:4])))
            result(not dup, "%s pdf %s: lane labels alike: %s" % (name, w, dup[:4]))
            stray = strays([(hdr[i], t) for i, t in enumerate(lay["lane_labels"]) if t is not None])
            result(not stray, "%s pdf %s: a lane after a header, under none: %s" % (name, w, stray[:4]))
            print("paper: %-18s pdf  %-7s %3.0f %%  %5.1fpt  %5.2fpt  %s" %
                  (name, w, 100 * share, hpt, small, lay["labels"]))
        if "SKIP" not in browser:
            bad = [l for l in browser.splitlines() if l.startswith("FAIL") and
                   ("/%s.svg" % name) in l]
            result(not bad, "%s svg 3.3in: %s" % (name, " ".join(bad)[:300]))
    if "SKIP" in browser:
        print("paper: " + browser.strip().splitlines()[0])
    print("paper: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
