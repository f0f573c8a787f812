#!/usr/bin/python3
"""light.py SVG LIMIT [MODEL]: a dense figure's SVG stays light and keeps
what a reader of a web page uses (issue 40).  Checks, one line each
("ok ..." or "FAIL ..."), exit 1 when any fails:

  bytes    the file is at most LIMIT bytes
  slices   every whole slice's group (<g class="tf-bar ..."> without
           data-busy) has a <title>: "NAME · CATEGORY · at T UNIT · D UNIT"
           (CATEGORY left out when the slice has none; instants have no D)
  shares   every group of share bars (data-busy) has a <title> with its
           numbers ("busy P% of W UNIT") and a data-busy of class shares
           (JSON, each 0..1, summing to at most 1); there are at most 100
           such groups, each with at most one <path> per colour: a run of
           bins, not a group per 1 pt bin
  model    (with MODEL, the figure's JSON model) the share groups' class
           names are the model's categories' classes
Standard library only.
"""
import json
import re
import sys

DOT = " \u00b7 "
SLICE_TIP = re.compile(r"^.+" + DOT + r"at -?[0-9.]+ [a-zµ]+(" + DOT + r"|$)")
SHARE_TIP = re.compile(r"busy <?[0-9]+% of [0-9.]+ [a-zµ]+")


def unescape(s):
    return (s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&#39;", "'").replace("&amp;", "&"))


def main():
    path, limit = sys.argv[1], int(sys.argv[2])
    model = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
    data = open(path, "rb").read()
    text = data.decode("utf-8")
    fails = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            fails.append(what)

    check(len(data) <= limit, "bytes: %d (limit %d)" % (len(data), limit))

    groups = re.findall(r'<g class="tf-bar[ "]([^>]*)>\s*(?:<title>([^<]*)</title>)?(.*?)</g>',
                        text, re.S)
    slices = [(a, t, body) for a, t, body in groups if "data-busy=" not in a]
    shares = [(a, t, body) for a, t, body in groups if "data-busy=" in a]
    bad = [t for _, t, _ in slices if not SLICE_TIP.match(unescape(t or ""))]
    check(slices and not bad, "slices: %d whole slices, each with its tooltip%s" % (
        len(slices), (" (not: %r)" % bad[:2]) if bad else ""))

    problems = []
    names = set()
    for a, t, body in shares:
        tip = unescape(t or "")
        if not SHARE_TIP.search(tip) and not SLICE_TIP.match(tip):
            problems.append("tooltip %r" % tip)
        m = re.search(r'data-busy="([^"]*)"', a)
        try:
            busy = json.loads(unescape(m.group(1)))
        except ValueError:
            problems.append("data-busy %r" % m.group(1))
            continue
        if not busy or any(not 0 <= v <= 1 for v in busy.values()) or sum(busy.values()) > 1.0001:
            problems.append("data-busy %r" % busy)
        names.update(busy)
        fills = re.findall(r'<path [^>]*fill="(#[0-9A-F]{6})"', body)
        if len(fills) != len(set(fills)):
            problems.append("two paths of one colour in a run: %r" % fills)
    check(shares and len(shares) <= 100 and not problems,
          "shares: %d groups of share bars (at most 100), each a run with its numbers%s" % (
              len(shares), (": " + "; ".join(problems[:3])) if problems else ""))

    if model is not None:
        known = set()
        for c in model["categories"]:
            known.update(v for v in (c.get("class"), c.get("name"), c.get("key")) if v)
        unknown = sorted(names - known)
        check(not unknown, "model: the share groups' classes are the model's%s" % (
            (" (not: %r)" % unknown[:3]) if unknown else ""))
    return 1 if fails else 0


sys.exit(main())
