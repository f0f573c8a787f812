"""A job of many ranks in one figure (tests/ranks/run.sh): each case makes a
job with gentrace.py job (or genotf2job), runs tracefig, and checks the
overview: rows that cover every rank once, named "rank 17" or "ranks
16–19"; each row's ink the mean of its ranks' busy time (the JSON model's
dense bars, and the PNG's pixels); --order-ranks; --ranks; the spread of
--stats and of the model's "stats"; every back-end; models against traces.

    checks.py TRACEFIG GENTRACE GENOTF2JOB|"" TMPDIR

Expected numbers come from the generators' own truth files (each rank's
busy time and end, as written), not from tracefig.  Standard library only.
"""
import csv
import io
import json
import os
import re
import struct
import subprocess
import sys
import zlib

BIN, GEN, GENOTF2, TMP = sys.argv[1:5]
PY = sys.executable
passed = 0
failed = 0
DASH = "\u2013"
STRAGGLER = 123


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL ranks: " + what)
    return cond


def run(args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([BIN] + args, cwd=TMP, capture_output=True, env=e)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def model(args, **kw):
    rc, out, err = run(args + ["--format", "json", "-o", "-"], **kw)
    if rc != 0:
        print("  tracefig %s: exit %d: %s" % (" ".join(args[-6:]), rc, err.strip()))
        return None
    return json.loads(out)


def gen(*args):
    subprocess.run([PY, GEN] + list(args), check=True, cwd=TMP)


def unit_us(m):
    return {"\u00b5s": 1.0, "ms": 1000.0, "s": 1e6}[m["axis"]["unit"]]


def row_ranks(lane):
    """The ranks a row holds, from its label ("rank 17", "ranks 16–19",
    "ranks 3, 5–7"), checked against its "ranks" range and count."""
    lab = lane["label"]
    m = re.fullmatch(r"ranks? (.*)", lab)
    if not m:
        return None
    out = []
    for part in m.group(1).split(", "):
        a, _, b = part.partition(DASH)
        out.extend(range(int(a), int(b or a) + 1))
    return out


def row_ink_us(m):
    """Each row's inked time (its dense bars' width times their shares), us."""
    u = unit_us(m)
    ink = [0.0] * len(m["lanes"])
    for b in m["bars"]:
        ink[b["lane"]] += (b["x1"] - b["x0"]) * u * sum(b.get("busy", {}).values())
    return ink


def check_rows(m, ranks, what):
    """Every rank in exactly one row, each row's label and range agreeing."""
    seen = []
    good = True
    for lane in m["lanes"]:
        rr = row_ranks(lane)
        good = good and rr is not None and lane["n_ranks"] == len(rr) and \
            lane["ranks"] == [min(rr), max(rr)] and \
            (len(rr) > 1 or lane["label"] == "rank %d" % rr[0]) and \
            (len(rr) == 1 or lane["label"].startswith("ranks "))
        seen.extend(rr or [])
    ok(good, "%s: each row named \"rank N\" or \"ranks A%sB\", as its range says" % (what, DASH))
    ok(sorted(seen) == sorted(ranks) and len(seen) == len(set(seen)),
       "%s: every rank in exactly one row (%d ranks, %d rows)" % (what, len(seen), len(m["lanes"])))


def check_ink(m, busy_us, what, tol=0.02):
    """Each row inks the mean of its ranks' busy time (busy_us: rank -> us)."""
    ink = row_ink_us(m)
    worst = 0.0
    for i, lane in enumerate(m["lanes"]):
        rr = row_ranks(lane) or []
        want = sum(busy_us[r] for r in rr) / max(1, len(rr))
        if want > 0:
            worst = max(worst, abs(ink[i] - want) / want)
    ok(worst <= tol, "%s: each row inks its ranks' mean busy time (worst %.4f, at most %.2f)"
       % (what, worst, tol))


# --- PNG ---------------------------------------------------------------------------

def png_rgb(data):
    """cairo's PNG (8-bit RGB or RGBA, every row unfiltered): (width,
    height, rows of (r, g, b) bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w, h, ctype = 8, b"", 0, 0, 2
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", data[pos + 8:pos + 18])
            assert depth == 8 and ctype in (2, 6)
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp + 1
    assert all(raw[y * stride] == 0 for y in range(h)), "a filtered row: not cairo's PNG"
    rows = [raw[y * stride + 1:(y + 1) * stride] for y in range(h)]
    if bpp == 4:
        rows = [bytes(v for i, v in enumerate(r) if i % 4 != 3) for r in rows]
    return w, h, rows


INK = {}


def ink_cached(px, colors):
    key = (px, colors)
    v = INK.get(key)
    if v is None:
        v = INK[key] = ink_of(px, colors)
    return v


def ink_of(px, colors):
    """How much of a class colour a pixel holds (0 .. 1): its place on the line
    from white to the nearest colour, if it lies near that line."""
    best = 0.0
    for c in colors:
        d = [255 - c[k] for k in range(3)]
        dd = sum(v * v for v in d)
        if not dd:
            continue
        t = sum((255 - px[k]) * d[k] for k in range(3)) / dd
        t = min(1.0, max(0.0, t))
        off = sum((255 - t * d[k] - px[k]) ** 2 for k in range(3))
        if off < 15 * 15 and t > best:
            best = t
    return best


def check_png_ink(png, m, busy_us, window_us, what, tol=0.15):
    """Each row's inked pixels are its ranks' mean busy share of the window."""
    w, h, rows = png_rgb(png)
    lay = m["layout"]
    s = w / lay["width_pt"]
    colors = tuple(tuple(int(e["color"][i:i + 2], 16) for i in (1, 3, 5)) for e in m["legend"])
    x0, x1 = int(round(lay["plot"]["x"] * s)) + 1, int((lay["plot"]["x"] + lay["plot"]["w"]) * s)
    worst, n = 0.0, 0
    for i, lane in enumerate(m["lanes"]):
        rr = row_ranks(lane) or []
        want = sum(busy_us[r] for r in rr) / max(1, len(rr)) / window_us
        top = (lay["plot"]["y"] + i * lay["row_pt"]) * s
        bot = top + lay["row_pt"] * s
        ink = 0.0
        for y in range(int(top), int(bot) + 1):
            cover = min(bot, y + 1) - max(top, y)  # the row's part of this pixel row
            if cover <= 0 or y >= h:
                continue
            line = rows[y]
            ink += cover * sum(ink_cached(line[3 * x:3 * x + 3], colors) for x in range(x0, x1))
        got = ink / ((bot - top) * (x1 - x0))
        if want > 0.05:
            worst = max(worst, abs(got - want) / want)
            n += 1
    ok(n > 0 and worst <= tol, "%s: the PNG inks each row with its ranks' mean busy share "
       "(worst %.3f of %d rows, at most %.2f)" % (what, worst, n, tol))


# --- the jobs ------------------------------------------------------------------------

def kineto_job(name, n, extra=()):
    d = os.path.join(TMP, name)
    gen("job", "--out-dir", d, "--world-size", str(n), "--kernels", "24", "--straggler",
        str(STRAGGLER), "--truth", d + ".truth", *extra)
    truth = {}
    for line in open(d + ".truth"):
        t = json.loads(line)
        if t["step"] == 2:
            truth[t["rank"]] = t
    return ["%s/rank%d.json" % (name, r) for r in range(n)], truth


STEP = ["--window-event", "ProfilerStep#*", "--occurrence", "2"]


def traces_direct():
    files, truth = kineto_job("job300", 300)
    busy = {r: t["busy_us"] for r, t in truth.items()}
    # one load, every back-end (backends() reads them)
    rc, _, err = run(files + STEP + ["-o", "ov.json", "-o", "ov.svg", "-o", "ov.tex", "-o",
                                     "ov.pdf", "-o", "ov.png"])
    ok(rc == 0, "300 ranks' traces: every back-end in one run (%s)" % err.strip())
    m = json.load(open(os.path.join(TMP, "ov.json"))) if rc == 0 else None
    if not ok(m is not None and "overview" in m, "300 ranks' traces: an overview"):
        return None
    ok(m["overview"]["ranks"] == 300 and m["overview"]["rows"] == len(m["lanes"]) and
       m["overview"]["per_row"] >= 2, "300 ranks' traces: rows shared (%s)" % m["overview"])
    check_rows(m, range(300), "300 ranks' traces")
    check_ink(m, busy, "300 ranks' traces")
    ok(any("share" in n and "rows" in n for n in m["notes"]),
       "300 ranks' traces: a note says the rows are shared (%s)" % m["notes"])
    lay = m["layout"]
    labels = [x for x in lay["lane_labels"] if x]
    ok(labels and len(labels) < len(m["lanes"]) and lay["headers"] and
       lay["headers"][0]["text"].startswith("300 ranks"),
       "300 ranks' traces: labels on every few rows under the rank axis (%d labels, %s)"
       % (len(labels), lay["headers"]))
    ok(lay["height_pt"] <= 400, "300 ranks' traces: within the height budget (%s pt)" % lay["height_pt"])
    # the straggler's row ends last, and is labelled
    u = unit_us(m)
    ends = {}
    for b in m["bars"]:
        ends[b["lane"]] = max(ends.get(b["lane"], 0), b["x1"])
    srow = [i for i, l in enumerate(m["lanes"]) if STRAGGLER in (row_ranks(l) or [])][0]
    ok(max(ends, key=lambda k: (ends[k], -k)) == srow,
       "300 ranks' traces: the straggler's row ends last")
    ok(lay["lane_labels"][srow], "300 ranks' traces: the straggler's row is labelled")
    # the spread
    st = m["stats"]["ranks"]
    win_us = m["window"]["end_us"] - m["window"]["start_us"]
    pcts = sorted(100 * truth[r]["busy_us"] / win_us for r in range(300))
    med = (pcts[149] + pcts[150]) / 2
    ok(abs(st["busy_pct"]["min"] - pcts[0]) < 0.2 and abs(st["busy_pct"]["max"] - pcts[-1]) < 0.2
       and abs(st["busy_pct"]["median"] - med) < 0.2,
       "300 ranks' traces: the spread of busy shares is the ranks' (%s; want %.2f %.2f %.2f)"
       % (st["busy_pct"], pcts[0], med, pcts[-1]))
    ends_us = sorted(truth[r]["gpu_end_us"] for r in range(300))
    ok(st["last_rank"] == STRAGGLER and
       abs(st["last_end_ms"] - (ends_us[-1] - m["window"]["start_us"]) / 1000) < 0.005 and
       abs(st["after_next_ms"] - (ends_us[-1] - ends_us[-2]) / 1000) < 0.005 and
       abs(st["after_median_ms"] - (ends_us[-1] - (ends_us[149] + ends_us[150]) / 2) / 1000) < 0.005,
       "300 ranks' traces: the last to end is the straggler, by how much (%s)" % st)
    pr = m["stats"]["per_rank"]
    ok(len(pr) == 300 and all(abs(p["busy_ms"] * 1000 - truth[p["rank"]]["busy_us"]) <
                              0.01 * truth[p["rank"]]["busy_us"] for p in pr),
       "300 ranks' traces: each rank's busy time in \"per_rank\"")
    # --stats and its CSV say the same
    rc, out, _ = run(files + STEP + ["--stats"])
    text = out.decode()
    ok(rc == 0 and text.startswith("ranks") and ("rank %d at" % STRAGGLER) in text and
       ("least %s" % fmt(st["busy_pct"]["min"])) in text,
       "300 ranks' traces: --stats gives the spread (%r)" % text[:200])
    rc, out, _ = run(files + STEP + ["--stats=csv"])
    rows = list(csv.reader(io.StringIO(out.decode())))
    kv = {r[3]: r[4] for r in rows[1:] if r[0] == "ranks"}
    ok(rc == 0 and rows[0] == ["section", "row", "column", "key", "value"] and
       kv.get("last_rank") == str(STRAGGLER) and float(kv["busy_pct_median"]) == st["busy_pct"]["median"]
       and sum(1 for r in rows if r[0] == "rank" and r[3] == "busy_pct") == 300,
       "300 ranks' traces: --stats=csv has the spread and each rank")
    # the same bytes on 1 thread as on the default's 2
    a = run(files + STEP + ["--format", "json", "-o", "-"], env={"TRACEFIG_THREADS": "1"})[1]
    ok(a == open(os.path.join(TMP, "ov.json"), "rb").read(),
       "300 ranks' traces: the same model on 1 thread and on 2")
    # the PNG's ink, at a column's width and at a page's
    for width, dpi in (("3.3in", "200"), ("7in", "200")):
        rc, _, _ = run(files + STEP + ["--width", width, "--dpi", dpi, "-o", "w.json", "-o", "w.png"])
        if ok(rc == 0, "300 ranks' traces: PNG at %s" % width):
            mw = json.load(open(os.path.join(TMP, "w.json")))
            png = open(os.path.join(TMP, "w.png"), "rb").read()
            check_png_ink(png, mw, busy, win_us, "300 ranks' traces at %s" % width)
    return m, files


def fmt(v):
    s = ("%.2f" % v).rstrip("0").rstrip(".")
    return s


def order_and_select(files):
    m = model(files + STEP + ["--order-ranks", "finish"])
    if ok(m is not None and m["overview"]["order"] == "finish", "--order-ranks finish: an overview"):
        pr = m["stats"]["per_rank"]
        ok(pr[-1]["rank"] == STRAGGLER and STRAGGLER in row_ranks(m["lanes"][-1]),
           "--order-ranks finish: the straggler last, in the last row")
        ends = [p["end_ms"] for p in pr]
        ok(ends == sorted(ends), "--order-ranks finish: the rows by when each rank ends")
        ok("by finish" in m["overview"]["axis"], "--order-ranks finish: the rank axis says so")
        k = m["overview"]["per_row"]
        labels = [(i, t) for i, t in enumerate(m["layout"]["lane_labels"]) if t]
        ok(k > 1 and labels and all(t == "#%d%s%d" % (i * k + 1, DASH, i * k + len(row_ranks(m["lanes"][i])))
                                    for i, t in labels),
           "--order-ranks finish: shared rows labelled by their places in the order (%s)" % labels[:3])
        check_rows(m, range(300), "--order-ranks finish")
    m = model(files + STEP + ["--order-ranks", "busy"])
    if ok(m is not None, "--order-ranks busy: a figure"):
        p = [x["busy_pct"] for x in m["stats"]["per_rank"]]
        ok(p == sorted(p), "--order-ranks busy: the least busy first")
    pick = list(range(0, 8)) + [100] + list(range(200, 216)) + [299]
    m = model(files + STEP + ["--ranks", "0-7,100,200-215,299"])
    if ok(m is not None, "--ranks: a figure"):
        got = sorted({t["rank"] for t in m["traces"]})
        ok(got == pick, "--ranks 0-7,100,200-215,299: those ranks' traces, and no other (%s)" % got)
    m = model(files + STEP + ["--ranks", "0-199", "--lanes", "GPU*stream 7*"])
    if ok(m is not None and "overview" in m, "--ranks 0-199 --lanes: an overview"):
        check_rows(m, range(200), "--ranks 0-199")
        ok(m["overview"]["lane"].startswith("the first lane --lanes picks"),
           "--lanes picks each rank's lane (%s)" % m["overview"]["lane"])
    rc, _, err = run(files + STEP + ["--ranks", "5000-5010", "-o", "x.svg"])
    ok(rc == 2 and "--ranks" in err and "0-299" in err and not os.path.exists(os.path.join(TMP, "x.svg")),
       "--ranks of no trace: a usage error naming the ranks there are (%s)" % err.strip())
    rc, _, err = run(files[:2] + ["--ranks", "7-", "-o", "x.svg"])
    ok(rc == 2 and "--ranks" in err, "--ranks 7-: a usage error (%s)" % err.strip())
    rc, _, err = run(files[:2] + ["--order-ranks", "fast", "-o", "x.svg"])
    ok(rc == 2 and "--order-ranks" in err, "--order-ranks fast: a usage error (%s)" % err.strip())


def backends(files):
    def read(name):
        with open(os.path.join(TMP, name), "rb") as f:
            return f.read()
    orig = read("ov.json")
    m = json.loads(orig)
    names = set(re.findall(r"<title>(ranks? [0-9][^<]*?) \u00b7 busy", read("ov.svg").decode()))
    ok(names == {l["label"] for l in m["lanes"]},
       "SVG: the share bars' tooltips name every row (%d of %d)" % (len(names), len(m["lanes"])))
    t = read("ov.tex").decode()
    ok(t.count("\n\\tracefiglane{") == len(m["lanes"]) and
       "\\node[tracefig/header" in t and m["overview"]["axis"] in t,
       "TikZ: a lane per row, and the rank axis")
    for name, magic in (("ov.pdf", b"%PDF"), ("ov.png", b"\x89PNG")):
        out = read(name)
        ok(out.startswith(magic) and len(out) > 5000, "%s: drawn" % name)
    rc, again, err = run(["ov.json", "--format", "json", "-o", "-"])
    ok(rc == 0 and again == orig, "an overview's model drawn again: the same model (%s)" % err.strip())
    rc, out, _ = run(["ov.json", "--format", "svg", "-o", "-"])
    ok(rc == 0 and b"<svg" in out, "an overview's model drawn again as SVG")
    rc, _, err = run(["ov.json", files[0], "-o", "x.svg"])
    ok(rc == 2 and "overview" in err, "an overview's model among several traces: refused (%s)" % err.strip())


def models_of_ranks():
    files, truth = kineto_job("job160", 160)
    busy = {r: t["busy_us"] for r, t in truth.items()}
    os.makedirs(os.path.join(TMP, "m160"), exist_ok=True)
    procs = []
    for half in (0, 1):
        script = "; ".join("%s %s %s --format json -o m160/rank%d.model.json"
                           % (BIN, f, " ".join("'%s'" % a for a in STEP), r)
                           for r, f in enumerate(files) if r % 2 == half)
        procs.append(subprocess.Popen(["sh", "-c", script], cwd=TMP))
    ok(all(p.wait() == 0 for p in procs), "160 per-rank models: made")
    models = ["m160/rank%d.model.json" % r for r in range(160)]
    m = model(models)
    if not ok(m is not None and "overview" in m, "160 per-rank models: an overview"):
        return
    check_rows(m, range(160), "160 per-rank models")
    check_ink(m, busy, "160 per-rank models")
    direct = model(files + STEP)
    if ok(direct is not None, "160 ranks' traces: a figure"):
        ok([l["label"] for l in direct["lanes"]] == [l["label"] for l in m["lanes"]],
           "160 ranks: the models' rows are the traces'")
        a, b = row_ink_us(direct), row_ink_us(m)
        ok(all(abs(x - y) <= 0.01 * max(x, 1e-9) for x, y in zip(a, b)),
           "160 ranks: the models' rows ink what the traces' do")
    a = run(models + ["--format", "json", "-o", "-"], env={"TRACEFIG_THREADS": "1"})[1]
    b = run(models + ["--format", "json", "-o", "-"], env={"TRACEFIG_THREADS": "2"})[1]
    ok(a == b and a, "160 per-rank models: the same model on 1 and 2 threads")
    # shuffled as a shell lists them: the same rows, in rank order
    rc, out, _ = run(sorted(models) + ["--format", "json", "-o", "-"])
    ok(rc == 0 and out == a, "160 per-rank models in the shell's order: the same model")
    # a model of every lane: its busiest GPU stream, stream 7
    ok(m["overview"]["lane"].startswith("the busiest GPU stream"),
       "160 per-rank models: each rank's busiest GPU stream (%s)" % m["overview"]["lane"])


def few_ranks():
    files, _ = kineto_job("job8", 8)
    m = model(files + STEP + ["--lanes", "GPU*stream 7*"])
    ok(m is not None and "overview" not in m and len(m["lanes"]) == 8 and
       [t["title"] for t in m["traces"]] == ["rank %d" % r for r in range(8)],
       "8 ranks of one lane: the figure as ever, a lane per rank")
    m = model(files + STEP + ["--height", "1000pt"])
    ok(m is not None and "overview" not in m and len(m["lanes"]) == 8 * 3,
       "8 ranks of every lane, 1000 pt high: the figure as ever (%s lanes)" % (m and len(m["lanes"])))
    # a column of every lane would leave ranks out: each rank keeps the
    # lanes that say most (issue 52), not the overview's one
    m = model(files + STEP)
    ok(m is not None and "overview" not in m and len(m["traces"]) == 8 and
       all(sum(l.get("trace") == t for l in m["lanes"]) >= 2 for t in range(8)) and
       all(isinstance(l.get("trace"), int) for l in m["lanes"]),
       "8 ranks of every lane in a column: 2 lanes of each rank or more, each with its trace")
    # too low for 2 lanes a rank: the overview, each row of one rank with its trace
    m = model(files + STEP + ["--height", "90pt"])
    ok(m is not None and "overview" in m and m["overview"]["per_row"] == 1 and
       [l.get("trace") for l in m["lanes"]] ==
       [[t["title"] for t in m["traces"]].index(l["label"]) for l in m["lanes"]],
       "8 ranks at 90 pt: the overview, a row per rank carrying its trace (%s)" %
       (m and [(l["label"], l.get("trace")) for l in m["lanes"]]))


def rank_lanes():
    """Issue 52: 8 Kineto ranks (a main thread with ProfilerStep#N, an
    autograd thread, a compute and an NCCL stream, memory counters) on
    clocks 37 us apart: each rank keeps the same lanes that say most."""
    d = os.path.join(TMP, "kl8")
    gen("ranks", "--out-dir", d, "--world-size", "8", "--steps", "3", "--skew-us", "37",
        "--first-step", "9", "--memory", "current")
    files = ["kl8/rank%d.json" % r for r in range(8)]
    step = ["--window-event", "ProfilerStep#10"]

    def roles(m, t):
        """Each lane of trace t: main, thread, compute (stream 7), comm (NCCL's)."""
        out = []
        for i, l in enumerate(m["lanes"]):
            if l.get("trace") != t:
                continue
            lab = l["label"]
            names = {b["name"] for b in m["bars"] if b["lane"] == i}
            out.append("main" if "ProfilerStep#10" in names and not lab.startswith("GPU")
                       else "compute" if lab.endswith("stream 7")
                       else "comm" if lab.startswith("GPU") else "thread")
        return out

    # the default size holds all 4 lanes of slices of each rank at thin
    # rows; lower, the largest k that fits: the step, compute and NCCL
    # lanes before the autograd thread, then the step and compute lanes
    for size, want in (([], ["main", "thread", "compute", "comm"]),
                       (["--height", "230pt"], ["main", "compute", "comm"]),
                       (["--height", "215pt"], ["main", "compute"])):
        what = "8 Kineto ranks, %s" % (" ".join(size) or "default size")
        m = model(files + step + size)
        if not ok(m is not None and "overview" not in m and len(m["traces"]) == 8,
                  "%s: a figure of the ranks' lanes, no overview" % what):
            continue
        ok(all(isinstance(l.get("trace"), int) and 0 <= l["trace"] < 8 for l in m["lanes"]),
           "%s: every lane carries its trace" % what)
        r = [roles(m, t) for t in range(8)]
        ok(all(x == r[0] for x in r) and r[0] == want,
           "%s: every rank the same lanes in the same order, its step annotation first, "
           "then %s (%s)" % (what, " and ".join(want[1:]), r))
        ok(any(n.startswith("each rank draws %d of its lanes" % len(r[0])) for n in m["notes"]),
           "%s: a note says which lanes each rank keeps (%s)" % (what, m["notes"]))
        # each rank's ProfilerStep#10 where its clock puts it: rank r's clock
        # runs r * 37 us ahead, the figure aligns on the clock (start_ms)
        x0 = {}
        for b in m["bars"]:
            t = m["lanes"][b["lane"]].get("trace")
            if b["name"] == "ProfilerStep#10" and not m["lanes"][b["lane"]]["label"].startswith("GPU"):
                x0[t] = b["x0"]
        ok(sorted(x0) == list(range(8)) and all(x0[t + 1] > x0[t] for t in range(7)),
           "%s: each rank's ProfilerStep#10 drawn, later on each rank's later clock (%s)"
           % (what, x0))
    rc, png, _ = run(files + step + ["--format", "png", "-o", "-"])
    ok(rc == 0 and png.startswith(b"\x89PNG"), "8 Kineto ranks: PNG")


def otf2_job():
    if not GENOTF2:
        print("ranks: OTF2 cases SKIP (no libotf2 header to build genotf2job.c)")
        return
    arch = os.path.join(TMP, "oj300")
    subprocess.run([GENOTF2, arch, "300", "3", str(STRAGGLER), arch + ".truth"], check=True)
    truth = {}
    for line in open(arch + ".truth"):
        r, s, busy, end = (int(x) for x in line.split())
        if s == 1:
            truth[r] = (busy / 1000.0, end / 1000.0)
    busy = {r: t[0] for r, t in truth.items()}
    args = ["oj300", "--window-event", "step", "--occurrence", "2"]
    m = model(args)
    if not ok(m is not None and "overview" in m, "an OTF2 archive of 300 ranks: an overview"):
        return
    check_rows(m, range(300), "OTF2, 300 ranks")
    check_ink(m, busy, "OTF2, 300 ranks")
    st = m["stats"]["ranks"]
    ok(st["last_rank"] == STRAGGLER, "OTF2, 300 ranks: the straggler ends last (%s)" % st)
    m = model(args + ["--order-ranks", "finish"])
    ok(m is not None and m["stats"]["per_rank"][-1]["rank"] == STRAGGLER and
       STRAGGLER in row_ranks(m["lanes"][-1]), "OTF2, --order-ranks finish: the straggler last")
    m = model(args + ["--ranks", "0-9"])
    ok(m is not None and "overview" not in m and
       [l["label"] for l in m["lanes"]] == ["rank %d" % r for r in range(10)],
       "OTF2, --ranks 0-9: those ranks' lanes (%s)" % (m and [l["label"] for l in m["lanes"]][:12]))
    m = model(args + ["--ranks", "0-99", "--max-lanes", "16"])
    if ok(m is not None and "overview" in m, "OTF2, 100 ranks past --max-lanes 16: an overview"):
        check_rows(m, range(100), "OTF2, --ranks 0-99")
    rc, png, _ = run(args + ["--format", "png", "-o", "-"])
    mm = model(args)
    if ok(rc == 0 and png.startswith(b"\x89PNG") and mm, "OTF2, 300 ranks: PNG"):
        win = mm["window"]["end_us"] - mm["window"]["start_us"]
        check_png_ink(png, mm, busy, win, "OTF2, 300 ranks")


for case in (traces_direct, models_of_ranks, few_ranks, rank_lanes, otf2_job):
    try:
        r = case()
        if case is traces_direct and r:
            order_and_select(r[1])
            backends(r[1])
    except Exception as e:  # a crash is a failure of that case, not of the suite
        import traceback
        traceback.print_exc()
        ok(False, "%s: %s: %s" % (case.__name__, type(e).__name__, e))
print("ranks: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
