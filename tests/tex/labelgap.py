#!/usr/bin/env python3
"""labelgap.py FIGURE.tex WORDS: whether a TikZ figure's counter scale
labels keep the gap between text boxes (tests/tex/run.sh, part 5).

FIGURE.tex is the figure tracefig wrote (its \\tracefigcountervalues lines
give the labels' texts), WORDS what `pdftotext -bbox` made of the document
it was typeset in.  A label is the last words of a line (one yMin) that
spell one of those texts; two labels one over the other (their x ranges
overlapping) must be at least 2pt apart (tf_style.text_gap_pt), in the
PDF's big points.  Exits 1, naming the pairs, when some are closer, or when
fewer than MIN labels are found (default 6)."""
import re
import sys

GAP_PT = 2.0


def labels(tex):
    texts = set()
    for m in re.finditer(r"^\\tracefigcountervalues\{\d+\}\{([^}]*)\}\{([^}]*)\}", tex, re.M):
        texts.update(t for t in m.groups() if t)
    return texts


def boxes(bbox, texts):
    words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
        bbox)]
    lines = {}
    for w in words:
        lines.setdefault(round(w[1], 2), []).append(w)
    out = []
    for ws in lines.values():
        ws.sort()
        for k in range(len(ws)):
            text = " ".join(w[4] for w in ws[k:])
            if text in texts:
                part = ws[k:]
                out.append((min(w[0] for w in part), min(w[1] for w in part),
                            max(w[2] for w in part), max(w[3] for w in part), text))
                break
    return out


def main():
    texts = labels(open(sys.argv[1]).read())
    found = boxes(open(sys.argv[2]).read(), texts)
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    if len(found) < least:
        sys.exit("only %d scale labels found, of %s" % (len(found), sorted(texts)))
    gap_bp = GAP_PT / 1.00375
    bad = []
    for a in found:
        for b in found:
            if a is b or a[1] > b[1] or min(a[2], b[2]) <= max(a[0], b[0]):
                continue
            gap = b[1] - a[3]
            if gap < gap_bp - 1e-3:
                bad.append("%r over %r: %.2fbp apart" % (a[4], b[4], gap))
    if bad:
        sys.exit("; ".join(bad))
    print("%d scale labels, each pair at least %gpt apart" % (len(found), GAP_PT))


if __name__ == "__main__":
    main()
