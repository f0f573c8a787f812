"""Several traces in one figure (tests/multi/run.sh): each case makes its
inputs with gentrace.py, runs tracefig, and checks the JSON model (traces,
offsets, lane order, titles, the window, the statistics), the --stats
columns, the figures' bytes, or the message of a bad input.

    checks.py TRACEFIG GENTRACE EXAMPLES TMPDIR

Expected numbers come from the traces themselves (read here with the json
module), not from tracefig.  Standard library only.
"""
import csv
import decimal
import io
import json
import os
import re
import subprocess
import sys

BIN, GEN, EXAMPLES, TMP = sys.argv[1:5]
PY = sys.executable
passed = 0
failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL multi: " + what)
    return cond


def run(args, cwd=TMP, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, env=e)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def model(args, **kw):
    rc, out, err = run(args + ["--format", "json", "-o", "-"], **kw)
    if rc != 0:
        print("  tracefig %s: exit %d: %s" % (" ".join(args), rc, err.strip()))
        return None
    return json.loads(out, parse_float=decimal.Decimal)


def gen(*args):
    subprocess.run([PY, GEN] + list(args), check=True, cwd=TMP)


def trace_json(path):
    with open(os.path.join(TMP, path)) as f:
        return json.load(f, parse_float=decimal.Decimal)


def host_steps(doc):
    """ProfilerStep#N of the host (user_annotation): name -> (ts, ts + dur)."""
    out = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") == "user_annotation" and \
                e.get("name", "").startswith("ProfilerStep#"):
            out[e["name"]] = (e["ts"], e["ts"] + e["dur"])
    return out


def D(x):
    return x if isinstance(x, decimal.Decimal) else decimal.Decimal(str(x))


def near(a, b, eps=0.0015):
    """Times and numbers as the files write them (decimals, exactly)."""
    return abs(D(a) - D(b)) <= D(eps)


def bars_named(m, name):
    return [b for b in m["bars"] if b["name"] == name]


def lane_trace(m, b):
    return m["lanes"][b["lane"]]["trace"]


def unit_us(m):
    return {"µs": 1, "ms": 1000, "s": 1000000}[m["axis"]["unit"]]


# --- two ranks: one clock, union window, titles, lane order ---------------------------

def two_ranks():
    d = os.path.join(TMP, "two")
    gen("ranks", "--out-dir", d, "--world-size", "2", "--steps", "3")
    m = model(["two/rank0.json", "two/rank1.json", "--window-event", "ProfilerStep#4"])
    if not ok(m is not None, "two ranks: a figure"):
        return
    t = m["traces"]
    ok([x["title"] for x in t] == ["rank 0", "rank 1"], "two ranks: titled rank 0, rank 1")
    ok([x["file"] for x in t] == ["rank0.json", "rank1.json"], "two ranks: files by base name")
    ok([x["rank"] for x in t] == [0, 1], "two ranks: their ranks")
    ok(all(x["offset_us"] == 0 for x in t), "two ranks: one clock, no shift (offset_us 0)")
    traces = [l["trace"] for l in m["lanes"]]
    ok(traces == sorted(traces) and set(traces) == {0, 1}, "two ranks: rank 0's lanes, then rank 1's")
    s = [host_steps(trace_json("two/rank%d.json" % r))["ProfilerStep#4"] for r in (0, 1)]
    lo, hi = min(a for a, _ in s), max(b for _, b in s)
    w = m["window"]
    ok(near(w["start_us"], lo) and near(w["end_us"], hi),
       "two ranks: the window is the union of the two steps (%s..%s, got %s..%s)"
       % (lo, hi, w["start_us"], w["end_us"]))
    # each rank's step bar where its own clock puts it
    u = unit_us(m)
    for r in (0, 1):
        mine = [b for b in bars_named(m, "ProfilerStep#4") if lane_trace(m, b) == r]
        ok(mine and near(min(b["x0"] for b in mine) * u, s[r][0] - lo, 0.01),
           "two ranks: rank %d's step starts at its own time on the shared axis" % r)
    ok(len(m["stats"]) == 2 and [x["trace"] for x in m["stats"]] == [0, 1],
       "two ranks: \"stats\" has one entry per trace")
    for r in (0, 1):
        st = m["stats"][r]
        ok(near(st["window_ms"], (hi - lo) / 1000), "two ranks: rank %d's stats are of the window" % r)
        ok(len(st["lanes"]) == sum(1 for l in m["lanes"] if l["trace"] == r),
           "two ranks: rank %d's stats list its own lanes" % r)
    # the threads do not change a byte
    outs = []
    for th in ("1", "2", "3"):
        rc, out, _ = run(["two/rank0.json", "two/rank1.json", "--window-event", "ProfilerStep#4",
                          "-o", "-"], env={"TRACEFIG_THREADS": th})
        outs.append(out)
    ok(outs[0] == outs[1] == outs[2] and outs[0], "two ranks: the same bytes on 1, 2 and 3 threads")
    for fmt in ("svg", "tikz"):
        a = run(["two/rank0.json", "two/rank1.json", "--format", fmt, "-o", "-"])[1]
        b = run(["two/rank0.json", "two/rank1.json", "--format", fmt, "-o", "-"],
                env={"TRACEFIG_THREADS": "1"})[1]
        ok(a == b and a, "two ranks: %s the same on 1 and 2 threads" % fmt)
    # --stats: one column per trace and the difference
    rc, out, _ = run(["two/rank0.json", "two/rank1.json", "--window-event", "ProfilerStep#4",
                      "--stats=csv"])
    rows = list(csv.reader(io.StringIO(out.decode())))
    ok(rows and rows[0] == ["section", "row", "column", "key", "rank 0", "rank 1", "difference"],
       "two ranks: --stats=csv has a column per trace and a difference column")
    gb = {r[3]: r for r in rows[1:] if r[0] == "gpu_breakdown"}
    if ok("compute_ms" in gb, "two ranks: the GPU breakdown in the CSV"):
        a, b, diff = (D(x) for x in gb["compute_ms"][4:7])
        ok(near(diff, b - a, 0.0011), "two ranks: difference = second less first")
        ok(near(a, m["stats"][0]["gpu_breakdown"]["compute_ms"]) and
           near(b, m["stats"][1]["gpu_breakdown"]["compute_ms"]),
           "two ranks: the CSV's columns are the JSON's numbers")
    lanes = [r for r in rows[1:] if r[0] == "lane" and r[3] == "busy_ms"]
    ok(any(r[1] == "GPU * / stream 7" and r[4] and r[5] for r in lanes),
       "two ranks: GPU 0 / stream 7 and GPU 1 / stream 7 are one row")
    rc, out, _ = run(["two/rank0.json", "two/rank1.json", "--stats"])
    ok(rc == 0 and b"rank 0" in out and b"difference" in out, "two ranks: --stats table columns")


# --- skewed clocks --------------------------------------------------------------------

def skewed():
    d = os.path.join(TMP, "skew")
    gen("ranks", "--out-dir", d, "--world-size", "3", "--steps", "2", "--skew-us", "400")
    m = model(["skew/rank0.json", "skew/rank1.json", "skew/rank2.json",
               "--window-event", "ProfilerStep#3", "--lanes", "GPU*stream 7*"])
    if not ok(m is not None, "skewed clocks: a figure"):
        return
    ok(len(m["lanes"]) == 3 and [l["trace"] for l in m["lanes"]] == [0, 1, 2],
       "skewed clocks: --lanes within each trace: one lane per rank")
    steps = [host_steps(trace_json("skew/rank%d.json" % r))["ProfilerStep#3"] for r in range(3)]
    # the clocks run 400 us apart per rank: the shift shows, tracefig does not hide it
    ok(all(m["traces"][r]["offset_us"] == 0 for r in range(3)), "skewed clocks: kept (offset_us 0)")
    ok(near(m["window"]["start_us"], min(a for a, _ in steps)) and
       near(m["window"]["end_us"], max(b for _, b in steps)), "skewed clocks: the union window")
    ok(steps[2][0] - steps[0][0] > 700, "skewed clocks: the generator's skew is there")
    # --align event puts the steps at 0
    m = model(["skew/rank0.json", "skew/rank1.json", "skew/rank2.json",
               "--window-event", "ProfilerStep#3", "--align", "event"])
    if ok(m is not None, "skewed clocks, --align event: a figure"):
        ok(all(near(m["traces"][r]["offset_us"], -steps[r][0]) for r in range(3)),
           "skewed clocks, --align event: offset_us is minus each step's start")
        ok(near(m["window"]["start_us"], 0) and
           near(m["window"]["end_us"], max(b - a for a, b in steps)),
           "skewed clocks, --align event: the window is the longest step")
    m = model(["skew/rank0.json", "skew/rank1.json", "skew/rank2.json", "--align", "start"])
    if ok(m is not None, "skewed clocks, --align start: a figure"):
        ok(all(near(m["traces"][r]["offset_us"], -m["traces"][r]["span_us"][0]) for r in range(3)),
           "skewed clocks, --align start: each trace's first event at 0")
        ok(near(m["window"]["start_us"], 0), "skewed clocks, --align start: the window starts at 0")


# --- a missing rank, ranks of different lengths ----------------------------------------

def missing_and_lengths():
    d = os.path.join(TMP, "miss")
    gen("ranks", "--out-dir", d, "--world-size", "4", "--steps", "2", "--missing", "2",
        "--vary-steps")
    files = sorted(os.listdir(d))
    ok(files == ["rank0.json", "rank1.json", "rank3.json"], "missing rank: the generator left rank 2 out")
    m = model(["miss/" + f for f in files])
    if not ok(m is not None, "missing rank: a figure"):
        return
    ok([t["title"] for t in m["traces"]] == ["rank 0", "rank 1", "rank 3"],
       "missing rank: titled by the ranks there are")
    ok(all(t["world_size"] == 4 for t in m["traces"]), "missing rank: world_size 4")
    # default windows: each trace's main run; clock: their union
    spans = [t["span_us"] for t in m["traces"]]
    ok(len({round(b - a) for a, b in spans}) == 3, "different lengths: the ranks' spans differ")
    ok(near(m["window"]["start_us"], min(a for a, _ in spans)) and
       near(m["window"]["end_us"], max(b for _, b in spans)),
       "different lengths: the window is the union of the spans")
    # the shorter ranks show their end: no bar past their own last event
    u = unit_us(m)
    for i, t in enumerate(m["traces"]):
        xs = [b["x1"] for b in m["bars"] if lane_trace(m, b) == i]
        ok(xs and max(xs) * u <= t["span_us"][1] - m["window"]["start_us"] + D("0.01"),
           "different lengths: %s ends where its trace ends" % t["title"])
    # a step only the longest ranks have
    rc, out, err = run(["miss/rank0.json", "miss/rank1.json", "--window-event", "ProfilerStep#5",
                        "-o", "x.json"])
    ok(rc == 1 and "rank0.json" in err and "ProfilerStep#5" in err and "ProfilerStep#4" in err,
       "a trace without the window event: exit 1, names the file and the nearest names (%s)"
       % err.strip())


# --- 64 ranks -------------------------------------------------------------------------

def sixty_four():
    d = os.path.join(TMP, "r64")
    gen("ranks", "--out-dir", d, "--world-size", "64", "--steps", "1", "--layers", "1",
        "--skew-us", "2")
    files = sorted(os.listdir(d))  # rank0, rank1, rank10, ...: not rank order
    ok(len(files) == 64 and files[2] == "rank10.json", "64 ranks: 64 files, listed as a shell lists them")
    m = model(["r64/" + f for f in files] + ["--lanes", "GPU*stream 7*"])
    if not ok(m is not None, "64 ranks: a figure"):
        return
    ok([t["title"] for t in m["traces"]] == ["rank %d" % r for r in range(64)],
       "64 ranks: in rank order, titled rank 0 .. rank 63")
    ok([t["file"] for t in m["traces"]][:3] == ["rank0.json", "rank1.json", "rank2.json"],
       "64 ranks: each trace's file")
    ok(len(m["lanes"]) == 64 and [l["trace"] for l in m["lanes"]] == list(range(64)),
       "64 ranks: one lane per rank, in order")
    ok(len(m["stats"]) == 64, "64 ranks: 64 stats entries")
    lay = m.get("layout")
    if lay:
        ok(lay["lanes_drawn"] == 64, "64 ranks: every lane drawn in a column-wide figure")
        ok(lay["height_pt"] <= 400, "64 ranks: within the height budget (%s pt)" % lay["height_pt"])
        labels = [x for x in lay["lane_labels"] if x]
        ok(labels and labels[0] == "rank 0" and len(labels) < 64,
           "64 ranks: labelled every k-th lane (%d labels)" % len(labels))
    rc, out, _ = run(["r64/" + f for f in files] + ["--lanes", "GPU*stream 7*", "--format", "tikz",
                                                     "-o", "-"])
    ok(rc == 0 and out.count(b"\n\\tracefiglane{") == 64, "64 ranks: TikZ has the 64 lanes")
    one = ["--lanes", "GPU*stream 7*"]
    rc, out, _ = run(["r64/" + f for f in files] + one + ["--stats=csv"])
    ok(rc == 0 and out.split(b"\n")[0].count(b",") == 4 + 63, "64 ranks: 64 columns of statistics")
    rc, out, _ = run(["r64/" + f for f in files] + one + ["--stats"])
    ok(rc == 0 and b"rank 63" in out.split(b"\n")[0], "64 ranks: the --stats table has 64 columns")
    # every lane of 64 ranks is more than a column holds: the overview, and its spread
    rc, out, _ = run(["r64/" + f for f in files] + ["--stats"])
    ok(rc == 0 and out.startswith(b"ranks              64\n") and b"busy %" in out,
       "64 ranks, every lane: the overview's --stats gives the spread (%r)" % out[:60])


def svg_bar_rows(svg, category):
    """The tops (y of the first point) of the SVG's bars of a category, by tooltip."""
    tops = []
    for g in re.finditer(rb'<g class="tf-bar[^"]*"[^>]*>\s*<title>([^<]*)</title>\s*<path d="M[-0-9.]+ ([-0-9.]+)',
                         svg):
        tip = g.group(1).decode("utf-8")
        if (" \u00b7 %s \u00b7 " % category) in tip or tip.split(" \u00b7 ")[0].endswith(
                " %s slices" % category):
            tops.append(float(g.group(2)))
    return tops


def sixty_four_column():
    """64 ranks' GPU stream in a column: one row per lane, and that row the kernels, not
    Kineto's gpu_user_annotation copy of the step that nests them."""
    d = os.path.join(TMP, "c64")
    gen("ranks", "--out-dir", d, "--world-size", "64", "--steps", "3", "--slow-rank", "17")
    files = ["c64/rank%d.json" % r for r in range(64)]
    args = files + ["--lanes", "GPU*stream 7*", "--window-event", "ProfilerStep#*",
                    "--occurrence", "2", "--width", "229.5pt"]
    m = model(args)
    if not ok(m is not None, "64 ranks in a column: a figure"):
        return
    lay = m["layout"]
    ok(lay["lanes_drawn"] == 64 and lay["depth"] == 1,
       "64 ranks in a column: 64 lanes of one row (%s, depth %s)" % (lay["lanes_drawn"], lay["depth"]))
    ok(all(l["rows"] == 2 for l in m["lanes"]), "64 ranks in a column: each lane nests two rows")
    ok(any("annotations of GPU work first" in n for n in m["notes"]),
       "64 ranks in a column: the note says the annotations gave way")
    # memcpy, kernel, and the memsets whose time the kernels' busy shares hold,
    # then the key to the share bars
    leg = lay["legend"]
    # (at this width three entries a row: 1 x 3 without the key, 2 x 3 with it)
    ok(leg == {"cols": 3, "rows": 2, "share_key": True},
       "64 ranks in a column: the legend lists what is drawn (memcpy, kernel, memset) and "
       "the share key: %s %s" % ([e["label"] for e in m["legend"]], leg))
    # the slow rank's GPU work starts late (it arrives late at the step)
    first = {}
    for b in m["bars"]:
        if b["category"] == "kernel":
            t = lane_trace(m, b)
            first[t] = min(first.get(t, b["x0"]), b["x0"])
    others = [first[t] for t in first if t != 17]
    ok(len(first) == 64 and first[17] > max(others),
       "64 ranks in a column: rank 17's first kernel after every other rank's")
    rc, svg, err = run(args + ["-o", "-", "--format", "svg"])
    tops = sorted(set(svg_bar_rows(svg, "kernel")))
    # a row's bars start at its bottom, within a point (a share box the
    # floor high rests on the line under its row, 0.4 pt up)
    rows = [t for i, t in enumerate(tops) if i == 0 or t - tops[i - 1] > 1.0]
    ok(rc == 0 and len(rows) == 64,
       "64 ranks in a column: SVG kernels in 64 lanes (%d rows with kernels)" % len(rows))
    ok(rc == 0 and not svg_bar_rows(svg, "gpu_user_annotation"),
       "64 ranks in a column: SVG draws no annotation bar")
    rc, tex, _ = run(args + ["--format", "tikz", "-o", "-"])
    # each class's options are declared once (\tracefigclass{N}{...}),
    # then drawn in runs (\tracefigrun{N}{...}) inside the lanes' scopes
    classes = dict(re.findall(rb"\\tracefigclass\{(\d+)\}\{([^}]*)\}", tex))
    def runs_of(text, cat):
        return [n for n in re.findall(rb"\\tracefigrun\{(\d+)\}", text)
                if b"tracefig/cat/" + cat in classes.get(n, b"").split(b",")]
    scopes = tex.split(b"\\tracefiglanescope{")[1:]
    with_k = [sc for sc in scopes if runs_of(sc.split(b"\\end{scope}")[0], b"kernel")]
    ok(rc == 0 and len(scopes) == 64 and len(with_k) == 64,
       "64 ranks in a column: TikZ, each of the 64 lanes draws kernels (%d of %d)"
       % (len(with_k), len(scopes)))
    ok(rc == 0 and classes and not runs_of(tex, b"gpu_user_annotation"),
       "64 ranks in a column: TikZ draws no annotation bar")
    # with room (a tall figure), both rows as the trace nests them: the step on top
    m2 = model(args + ["--height", "1200pt"])
    ok(m2 is not None and m2["layout"]["depth"] == 2 and
       not any("fit the figure's height" in n for n in m2["notes"]),
       "64 ranks in a column: with --height 1200pt both rows, nothing cut")


# --- before and after ------------------------------------------------------------------

def before_after():
    gen("kineto", "--steps", "3", "--layers", "8", "--seed", "11", "--out", "before.json")
    gen("kineto", "--steps", "3", "--layers", "3", "--seed", "12", "--out", "after.json")
    b, a = host_steps(trace_json("before.json")), host_steps(trace_json("after.json"))
    for args, what in ((["--window-event", "ProfilerStep#4"], "by name"),
                       (["--window-event", "ProfilerStep#*", "--occurrence", "2"], "by glob")):
        m = model(["before.json", "after.json", "--titles", "before,after"] + args)
        if not ok(m is not None, "before/after %s: a figure" % what):
            continue
        t = m["traces"]
        ok([x["title"] for x in t] == ["before", "after"], "before/after %s: --titles" % what)
        ok(near(t[0]["offset_us"], -b["ProfilerStep#4"][0]) and
           near(t[1]["offset_us"], -a["ProfilerStep#4"][0]),
           "before/after %s: by default each step starts at 0 (offset_us)" % what)
        lb = b["ProfilerStep#4"][1] - b["ProfilerStep#4"][0]
        la = a["ProfilerStep#4"][1] - a["ProfilerStep#4"][0]
        ok(lb > la * D("1.3"), "before/after %s: the after's step is shorter" % what)
        ok(near(m["window"]["start_us"], 0) and near(m["window"]["end_us"], lb),
           "before/after %s: the window is the longest step" % what)
        ok(near(t[1]["window_us"][1] - t[1]["window_us"][0], la),
           "before/after %s: the after draws its own step" % what)
        u = unit_us(m)
        xs = [x["x1"] for x in m["bars"] if lane_trace(m, x) == 1]
        ok(xs and max(xs) * u <= la + D("0.01"), "before/after %s: the after ends earlier" % what)
        rc, out, _ = run(["before.json", "after.json", "--titles", "before,after", "--stats=csv"] + args)
        rows = list(csv.reader(io.StringIO(out.decode())))
        win = [r for r in rows if r and r[0] == "window"]
        ok(win and near(win[0][4], lb / 1000) and near(win[0][5], la / 1000) and
           near(win[0][6], (la - lb) / 1000, 0.002),
           "before/after %s: --stats window column per trace and the saving" % what)
    rc, _, err = run(["before.json", "after.json", "--align", "clock", "-o", "x.json"])
    ok(rc == 0 and "do not overlap on one clock" in err and " s apart" in err,
       "before/after --align clock: a warning naming the spread (%s)" % err.strip())
    m = model(["before.json", "after.json"])
    ok(m and [t["title"] for t in m["traces"]] == ["before", "after"],
       "before/after: titled by their files (not ranks of one job)")


# --- Kineto's base time -----------------------------------------------------------------

def base_time():
    d = os.path.join(TMP, "base")
    gen("ranks", "--out-dir", d, "--world-size", "2", "--steps", "2", "--split-base", "1")
    r0, r1 = trace_json("base/rank0.json"), trace_json("base/rank1.json")
    ok(r1["baseTimeNanoseconds"] - r0["baseTimeNanoseconds"] == 7889238 * 10**9,
       "base time: the ranks' bases a quarter apart")
    m = model(["base/rank0.json", "base/rank1.json", "--window-event", "ProfilerStep#3"])
    if not ok(m is not None, "base time: a figure"):
        return
    ok(near(m["traces"][1]["offset_us"], 7889238 * 10**6) and m["traces"][0]["offset_us"] == 0,
       "base time: rank 1 shifted by the quarter its base is later")
    s0, s1 = host_steps(r0)["ProfilerStep#3"], host_steps(r1)["ProfilerStep#3"]
    ok(m["window"]["end_us"] - m["window"]["start_us"] < 2 * (s0[1] - s0[0]),
       "base time: the two steps on one clock (the window one step long, not a quarter)")


def rank_facts():
    """distributedInfo read in place: its own rank and world_size, not those
    of the objects inside it; a rank that is no integer is no rank."""
    d = os.path.join(TMP, "facts")
    os.makedirs(d, exist_ok=True)
    ev = '[{"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]'
    nccl = '{"rank": 7, "world_size": 9, "ranks": [%s]}' % ", ".join(str(i) for i in range(2000))
    cases = [
        ('{"pg": %s, "rank": 3, "world_size": 4}' % nccl, 3, 4),
        ('{"world_size": 4, "rank": 0}', 0, 4),
        ('{"rank": 1.5, "world_size": "4"}', None, None),
    ]
    for i, (info, rank, ws) in enumerate(cases):
        with open(os.path.join(d, "t%d.json" % i), "w") as f:
            f.write('{"distributedInfo": %s, "traceEvents": %s}' % (info, ev))
        m = model(["facts/t%d.json" % i])
        t = (m.get("traces") or [{}])[0] if m else None
        ok(t is not None and t.get("rank") == rank and t.get("world_size") == ws,
           "rank facts %d: rank %r, world size %r (%r)" % (i, rank, ws, t))


# --- pipelined timelines and mixed kinds ----------------------------------------------------

def timelines():
    v1, v2 = os.path.join(EXAMPLES, "overlap_timeline_v1.json"), os.path.join(EXAMPLES, "overlap_timeline_v2.json")
    m = model([v1, v2])
    if not ok(m is not None, "timelines: a figure"):
        return
    ok(m["schema"] == "tracefig-figure-1" and len(m["traces"]) == 2, "timelines: schema 1, two traces")
    ok([t["title"] for t in m["traces"]] == ["overlap_timeline_v1", "overlap_timeline_v2"],
       "timelines: titled by their files")
    ok(all(near(t["offset_us"], -t["window_us"][0]) for t in m["traces"]),
       "timelines: each window starts at 0 (their clocks are their own)")
    ok(all("trace" in b for b in m["bars"]), "timelines: schema 1 bars name their trace")
    one = [model([v]) for v in (v1, v2)]
    ok(near(m["window"]["end_us"] / 1000, max(o["window"]["end_ms"] - o["window"]["start_ms"] for o in one), 0.01),
       "timelines: one scale, the longer window")
    for fmt in ("svg", "tikz", "png"):
        rc, out, _ = run([v1, v2, "--format", fmt, "-o", "-"])
        ok(rc == 0 and len(out) > 1000, "timelines: %s" % fmt)
    gen("ranks", "--out-dir", os.path.join(TMP, "mix"), "--world-size", "1", "--steps", "1")
    m = model([v1, "mix/rank0.json"])
    ok(m and m["schema"] == "tracefig-figure-2" and len(m["traces"]) == 2,
       "a timeline and a Chrome trace: one figure, schema 2")


# --- models ----------------------------------------------------------------------------------

def models():
    d = os.path.join(TMP, "mod")
    gen("ranks", "--out-dir", d, "--world-size", "3", "--steps", "2", "--skew-us", "100")
    direct = model(["mod/rank0.json", "mod/rank1.json", "mod/rank2.json",
                    "--window-event", "ProfilerStep#3"])
    for r in range(3):
        rc, _, err = run(["mod/rank%d.json" % r, "--window-event", "ProfilerStep#3", "--format",
                          "json", "-o", "mod/r%d.model.json" % r])
        ok(rc == 0, "models: rank %d's model (%s)" % (r, err.strip()))
    m = model(["mod/r0.model.json", "mod/r1.model.json", "mod/r2.model.json"])
    if not ok(m is not None and direct is not None, "models: a figure from the models"):
        return
    ok([t["title"] for t in m["traces"]] == ["rank 0", "rank 1", "rank 2"],
       "models: titled by the ranks they hold")
    ok(near(m["window"]["start_us"], direct["window"]["start_us"]) and
       near(m["window"]["end_us"], direct["window"]["end_us"]),
       "models: the same union window as from the traces")
    ok(all(t["offset_us"] == 0 for t in m["traces"]), "models: on one clock (their spans overlap)")
    ok(len(m["lanes"]) == len(direct["lanes"]) and
       [l["label"] for l in m["lanes"]] == [l["label"] for l in direct["lanes"]],
       "models: the same lanes in the same order")
    ok([s["window_ms"] for s in m["stats"]] != [] and len(m["stats"]) == 3, "models: their statistics")
    # a model drawn again alone: the same model
    with open(os.path.join(d, "r1.model.json"), "rb") as f:
        orig = f.read()
    rc, out, _ = run(["mod/r1.model.json", "-o", "-"])
    ok(rc == 0 and out == orig, "models: a model drawn alone gives the same model, byte for byte")
    for fmt in ("svg", "tikz", "pdf"):
        rc, out, _ = run(["mod/r1.model.json", "--format", fmt, "-o", "-"])
        ok(rc == 0 and len(out) > 1000, "models: a model drawn again as %s" % fmt)
    # a figure of several, itself read back
    rc, _, _ = run(["mod/r0.model.json", "mod/r1.model.json", "mod/r2.model.json", "--titles",
                    "a,b,c", "-o", "mod/all.json"])
    again = model(["mod/all.json"])
    ok(again and [t["title"] for t in again["traces"]] == ["a", "b", "c"] and
       len(again["lanes"]) == len(m["lanes"]) and near(again["window"]["start_us"], m["window"]["start_us"]),
       "models: a model of several traces read back as those traces")
    # seed models
    v2 = os.path.join(EXAMPLES, "overlap_timeline_v2.json")
    rc, _, _ = run([v2, "-o", "mod/v2.model.json"])
    rc, out, err = run(["mod/v2.model.json", "mod/v2.model.json", "--titles", "x,y", "-o", "-"])
    ok(rc == 0 and json.loads(out)["schema"] == "tracefig-figure-1", "models: seed models combine (%s)" % err.strip())
    with open(os.path.join(d, "v2.model.json"), "rb") as f:
        orig = f.read()
    rc, out, _ = run(["mod/v2.model.json", "-o", "-"])
    ok(rc == 0 and out == orig, "models: a seed model drawn alone gives the same model")


def models_of_ranks():
    """Per-rank models combine as the ranks do: a rank's one-trace model carries its
    entry (rank, world size, base time, window, event, span), so the figure of the models
    has the traces' titles, rank order, offsets and window."""
    d = os.path.join(TMP, "mrk")
    # ranks 2 and 3 have the next quarter's base; clocks skewed 50 us per rank
    gen("ranks", "--out-dir", d, "--world-size", "4", "--steps", "3", "--split-base", "2",
        "--skew-us", "50")
    order = [3, 1, 0, 2]  # not rank order
    win = ["--window-event", "ProfilerStep#*", "--occurrence", "2"]
    for r in range(4):
        rc, _, err = run(["mrk/rank%d.json" % r] + win + ["--format", "json", "-o",
                                                          "mrk/m%d.json" % r])
        ok(rc == 0, "rank models: rank %d's model (%s)" % (r, err.strip()))
    one = trace_json("mrk/m1.json")
    e = one.get("traces")
    doc = trace_json("mrk/rank1.json")
    ok(e and len(e) == 1 and e[0]["rank"] == 1 and e[0]["world_size"] == 4 and
       e[0]["title"] is None and e[0]["offset_us"] == 0 and
       e[0]["base_time_ns"] == doc["baseTimeNanoseconds"] and e[0]["file"] == "rank1.json",
       "rank models: a rank's model carries its entry (%s)" % (e and e[0]))
    ok("trace" not in one["lanes"][0] and isinstance(one["stats"], dict),
       "rank models: its lanes and stats as a one-trace model's")
    with open(os.path.join(d, "m1.json"), "rb") as f:
        orig = f.read()
    rc, out, _ = run(["mrk/m1.json", "--format", "json", "-o", "-"])
    ok(rc == 0 and out.split(b'"stats"')[0] == orig.split(b'"stats"')[0],
       "rank models: a rank's model drawn alone gives its model again")
    rc, svg_model, _ = run(["mrk/m1.json", "--format", "svg", "-o", "-"])
    rc2, svg_two, _ = run(["mrk/m1.json", "mrk/m0.json", "--format", "svg", "-o", "-"])
    ok(rc == 0 and b"rank 1" not in svg_model and rc2 == 0 and b"rank 1" in svg_two,
       "rank models: alone, no title; with another, titled rank 1")
    for align in ([], ["--align", "event"], ["--align", "start"]):
        what = "rank models%s" % (" " + " ".join(align) if align else "")
        t = model(["mrk/rank%d.json" % r for r in order] + win + align)
        m = model(["mrk/m%d.json" % r for r in order] + align)
        if not ok(t is not None and m is not None, what + ": figures"):
            continue
        for k in ("title", "rank", "offset_us", "base_time_ns", "event_us", "span_us", "file"):
            a, b = [x[k] for x in t["traces"]], [x[k] for x in m["traces"]]
            ok(a == b, "%s: the traces' %s (%s, models %s)" % (what, k, a, b))
        ok([x["title"] for x in m["traces"]] == ["rank 0", "rank 1", "rank 2", "rank 3"],
           what + ": titled rank 0 .. rank 3, in rank order")
        ok(t["window"] == m["window"], "%s: the window (%s, models %s)" % (what, t["window"], m["window"]))
        ok([l["label"] for l in t["lanes"]] == [l["label"] for l in m["lanes"]] and
           [l["trace"] for l in t["lanes"]] == [l["trace"] for l in m["lanes"]],
           what + ": the same lanes, in the same order")
        if align == ["--align", "event"]:
            a, b = [x["window_us"] for x in t["traces"]], [x["window_us"] for x in m["traces"]]
            ok(a == b, "%s: each trace's window (%s, models %s)" % (what, a, b))
    # with the default clock: ranks 2, 3 of the next base are shifted by the quarter
    m = model(["mrk/m%d.json" % r for r in order])
    if m:
        bases = [x["base_time_ns"] for x in m["traces"]]
        ok(bases[0] == bases[1] and bases[2] == bases[3] and bases[2] > bases[0],
           "rank models: two bases, a quarter apart")
    # a model of a trace without those facts: as ever (no entry, titled by its file)
    chrome = os.path.join(os.path.dirname(EXAMPLES), "tests", "golden", "chrome_labels", "trace.json")
    rc, _, _ = run([chrome, "--format", "json", "-o", "mrk/plain.model.json"])
    plain = trace_json("mrk/plain.model.json")
    ok(rc == 0 and "traces" not in plain, "rank models: a trace without ranks: no entry")
    m = model(["mrk/plain.model.json", "mrk/m0.json"])
    ok(m and [x["title"] for x in m["traces"]] == ["plain", "rank0"],
       "rank models: with a model without a rank, titled by file names: the model's, the "
       "rank's trace's (%s)"
       % (m and [x["title"] for x in m["traces"]]))


# --- counters: traces with counter tracks -------------------------------------------------

def svg_counters(svg):
    """The SVG's counter tracks in order: [(title, first x, last x)] of each
    one's line (pt)."""
    out = []
    for part in svg.split('<g class="tf-counter">')[1:]:
        title = re.search(r"<title>([^<]*)</title>", part)
        line = re.search(r'class="tf-counter-line" d="M([-0-9.]+) [^"]*H([-0-9.]+)"', part)
        out.append((title.group(1) if title else "", D(line.group(1)) if line else None,
                    D(line.group(2)) if line else None))
    return out


def counters():
    d = os.path.join(TMP, "cnt")
    os.makedirs(d, exist_ok=True)
    gen("counters", "--seed", "3", "--processes", "1", "--samples", "120", "--out", "cnt/a.json")
    gen("counters", "--seed", "4", "--processes", "1", "--samples", "150", "--out", "cnt/b.json")
    args = ["cnt/a.json", "cnt/b.json", "--height", "900pt"]
    m = model(args)
    if not ok(m is not None, "counters: a figure of two traces with counter tracks"):
        return
    ctr = [(i, l) for i, l in enumerate(m["lanes"]) if l["kind"] == "counter"]
    ok([l["trace"] for _, l in ctr] == [0] * 8 + [1] * 8,
       "counters: 8 tracks per trace, each of its own trace (%r)" % [l["trace"] for _, l in ctr])
    for t in (0, 1):
        got = [k["lane"] for k in m["stats"][t]["counters"]]
        ok(got == [i for i, l in ctr if l["trace"] == t],
           "counters: trace %d's stats list its own tracks (lanes %r)" % (t, got))
    # --stats=csv: a row per series and key, a column per trace, the difference
    rc, out, _ = run(args + ["--stats=csv"])
    rows = list(csv.reader(io.StringIO(out.decode())))
    crow = {(r[1], r[3]): r for r in rows[1:] if r[0] == "counter"}
    ok(rc == 0 and len(crow) == 8 * 3, "counters: --stats=csv has min, max, mean of each series (%d)"
       % len(crow))
    same = True
    for t in (0, 1):
        for k in m["stats"][t]["counters"]:
            for key in ("min", "max", "mean"):
                r = crow.get((m["lanes"][k["lane"]]["label"], key))
                same = same and r is not None and D(r[4 + t]) == D(k[key])
    ok(same, "counters: each trace's CSV column holds its JSON statistics")
    ok(all(len(r) == 7 and D(r[6]) == D(r[5]) - D(r[4]) for r in crow.values()),
       "counters: the difference column is the second less the first, exactly")
    ok(not any(r[0] == "lane" and r[1].endswith(("memory allocated", "fps value")) for r in rows),
       "counters: no busy-time rows for counter tracks")
    rc, out, _ = run(args + ["--stats"])
    text = out.decode()
    block = text[text.find("\ncounter "):].split("\n\n")[0].strip().split("\n")
    ok(rc == 0 and block[0].split() == ["counter", "a", "b", "difference"] and len(block) == 1 + 24,
       "counters: the --stats table's counter block: a row per series and key (%r)" % block[:2])
    mean = crow.get(("app 0 / memory allocated", "mean"))
    ok(mean and any(l.split()[-4:] == ["mean"] + mean[4:7] for l in block),
       "counters: the table's mean row is the CSV's")
    # every back-end draws them
    rc, svg, _ = run(args + ["--format", "svg", "-o", "-"])
    tracks = svg_counters(svg.decode())
    ok(rc == 0 and len(tracks) == 16 and all(x is not None for _, x, _ in tracks),
       "counters: the SVG draws the 16 tracks (%d)" % len(tracks))
    rc, tex, _ = run(args + ["--format", "tikz", "-o", "-"])
    ok(rc == 0 and tex.count(b"\\tracefigcounterscope{") == 16, "counters: TikZ draws the 16 tracks")
    for fmt, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
        rc, out, _ = run(args + ["--format", fmt, "-o", "-"])
        ok(rc == 0 and out.startswith(magic) and len(out) > 5000, "counters: %s" % fmt)
    for fmt in ("json", "svg", "tikz"):
        a = run(args + ["--format", fmt, "-o", "-"], env={"TRACEFIG_THREADS": "1"})[1]
        b = run(args + ["--format", fmt, "-o", "-"], env={"TRACEFIG_THREADS": "2"})[1]
        ok(a == b and a, "counters: %s the same on 1 and 2 threads" % fmt)
    # models: read back with their counter tracks and statistics
    for n in ("a", "b"):
        rc, _, err = run(["cnt/%s.json" % n, "-o", "cnt/%s.model.json" % n])
        ok(rc == 0, "counters: %s's model (%s)" % (n, err.strip()))
    with open(os.path.join(d, "a.model.json"), "rb") as f:
        orig = f.read()
    rc, out, err = run(["cnt/a.model.json", "-o", "-"])
    ok(rc == 0 and out == orig, "counters: a model with counter tracks drawn alone gives the same "
       "model, byte for byte (%s)" % err.strip())
    mm = model(["cnt/a.model.json", "cnt/b.model.json", "--height", "900pt"])
    if ok(mm is not None, "counters: a figure of two models with counter tracks"):
        ok([(l["label"], l["kind"], l["trace"]) for l in mm["lanes"]] ==
           [(l["label"], l["kind"], l["trace"]) for l in m["lanes"]],
           "counters: the models' lanes are the traces' (kinds and traces too)")
        alone = json.loads(orig, parse_float=decimal.Decimal)
        ok([l["samples"] for l in mm["lanes"] if l["trace"] == 0 and l["kind"] == "counter"] ==
           [l["samples"] for l in alone["lanes"] if l["kind"] == "counter"],
           "counters: a model's tracks keep their samples in a figure of several")
        ok(mm["stats"][0]["counters"] == [dict(k, lane=k["lane"]) for k in alone["stats"]["counters"]]
           and all(mm["lanes"][k["lane"]]["trace"] == 1 for k in mm["stats"][1]["counters"]),
           "counters: the models' counter statistics, lanes the figure's")
        rc, out, _ = run(["cnt/a.model.json", "cnt/b.model.json", "--stats=csv"])
        ok(rc == 0 and sum(1 for r in csv.reader(io.StringIO(out.decode())) if r[0] == "counter") == 24,
           "counters: --stats=csv of the models has the counter rows")
    rc, _, _ = run(args[:2] + ["-o", "cnt/ab.model.json"])
    with open(os.path.join(d, "ab.model.json"), "rb") as f:
        orig = f.read()
    first = json.loads(orig, parse_float=decimal.Decimal)
    again = model(["cnt/ab.model.json"])
    keys = ("label", "kind", "trace", "range", "samples")
    ok(again and [[l.get(k) for k in keys] for l in again["lanes"]] ==
       [[l.get(k) for k in keys] for l in first["lanes"]] and
       [e["counters"] for e in again["stats"]] == [e["counters"] for e in first["stats"]],
       "counters: a model of two traces read back with their tracks and counter statistics")
    bad = json.loads(orig)
    bad["stats"][1]["counters"][0]["lane"] = [i for i, l in enumerate(bad["lanes"])
                                              if l["trace"] == 1 and l["kind"] == "slices"][0]
    with open(os.path.join(d, "bad.model.json"), "w") as f:
        json.dump(bad, f)
    rc, _, err = run(["cnt/bad.model.json", "-o", "cnt/bad.svg"])
    ok(rc == 1 and "bad.model.json" in err and "stats.counters[0].lane" in err and
       not os.path.exists(os.path.join(d, "bad.svg")),
       "counters: a model whose counter statistics name a slices lane: exit 1, named (%s)" % err.strip())
    # a trace aligned by its step with less padding: its tracks start right of the other's
    gen("kineto", "--seed", "5", "--steps", "3", "--layers", "4", "--memory", "current",
        "--out", "cnt/k4.json")
    gen("kineto", "--seed", "6", "--steps", "3", "--layers", "8", "--memory", "current",
        "--out", "cnt/k8.json")
    ka = ["cnt/k4.json", "cnt/k8.json", "--window-event", "ProfilerStep#4", "--pad", "20",
          "--height", "600pt"]
    km = model(ka)
    rc, svg, _ = run(ka + ["--format", "svg", "-o", "-"])
    tracks = svg_counters(svg.decode())
    kc = [l for l in km["lanes"] if l["kind"] == "counter"] if km else []
    if ok(km and len(tracks) == len(kc) == 8, "counters: two Kineto traces' memory tracks drawn"):
        tr, u = km["traces"], unit_us(km)
        span = [D(t["window_us"][1]) - D(t["window_us"][0]) for t in tr]
        big = 0 if span[0] > span[1] else 1
        held = [i for i, l in enumerate(kc)
                if l["samples"] and D(l["samples"][0][0]) == D(tr[l["trace"]]["window_us"][0])]
        lb = [i for i in held if kc[i]["trace"] == big]
        ls = [i for i in held if kc[i]["trace"] != big]
        if ok(lb and ls, "counters: tracks with a value at their window's start"):
            left, right = tracks[lb[0]][1], tracks[lb[0]][2]
            t = tr[1 - big]
            xf = (D(t["window_us"][0]) + D(t["offset_us"]) - D(km["window"]["start_us"])) / u
            want = left + (right - left) * xf / D(km["axis"]["span"])
            ok(xf / D(km["axis"]["span"]) > D("0.01") and abs(tracks[ls[0]][1] - want) <= D("0.02"),
               "counters: the less padded trace's track starts at its window's start on the "
               "figure's axis (x %s pt, want %s)" % (tracks[ls[0]][1], want))
    # ranks, each with memory on its own GPU: one CSV row for both
    gen("ranks", "--out-dir", os.path.join(d, "rk"), "--world-size", "2", "--steps", "3",
        "--memory", "current")
    ra = ["cnt/rk/rank0.json", "cnt/rk/rank1.json", "--window-event", "ProfilerStep#4"]
    rm = model(ra)
    ok(rm and any(l["label"].endswith("memory CUDA 1 allocated") and l["trace"] == 1
                  for l in rm["lanes"]), "counters: rank 1's memory is on its GPU 1")
    rc, out, _ = run(ra + ["--stats=csv"])
    r = [x for x in csv.reader(io.StringIO(out.decode())) if x[0] == "counter" and x[3] == "max"
         and "CUDA" in x[1] and x[1].endswith("allocated")]
    ok(rc == 0 and len(r) == 1 and r[0][1] == "python3 / memory CUDA * allocated" and r[0][4] and r[0][5],
       "counters: ranks' memory on their own GPUs is one row (%r)" % r)


# --- bad input -------------------------------------------------------------------------------

def bad_input():
    d = os.path.join(TMP, "bad")
    gen("ranks", "--out-dir", d, "--world-size", "2", "--steps", "1")
    with open(os.path.join(d, "keep.svg"), "w") as f:
        f.write("old")
    rc, out, err = run(["bad/rank0.json", "bad/nope.json", "bad/rank1.json", "-o", "bad/keep.svg"])
    ok(rc == 1 and "nope.json" in err and open(os.path.join(d, "keep.svg")).read() == "old",
       "a missing file: exit 1, named, the output untouched (%s)" % err.strip())
    os.chmod(os.path.join(d, "rank1.json"), 0)
    if os.getuid() != 0:
        rc, _, err = run(["bad/rank0.json", "bad/rank1.json", "-o", "bad/x.svg"])
        ok(rc == 1 and "rank1.json" in err and not os.path.exists(os.path.join(d, "x.svg")),
           "an unreadable file: exit 1, named, nothing written")
    os.chmod(os.path.join(d, "rank1.json"), 0o644)
    with open(os.path.join(d, "future.json"), "w") as f:
        f.write('{\n  "schema": "tracefig-figure-9",\n  "mode": "chrome"\n}\n')
    rc, _, err = run(["bad/rank0.json", "bad/future.json", "-o", "bad/y.svg"])
    ok(rc == 1 and "future.json" in err and "tracefig-figure-9" in err and
       "tracefig-figure-2" in err and not os.path.exists(os.path.join(d, "y.svg")),
       "a model of another schema: a clear message (%s)" % err.strip())
    rc, _, err = run(["bad/future.json", "-o", "bad/y.svg"])
    ok(rc == 1 and "tracefig-figure-9" in err, "a model of another schema alone: the same message")
    rc, _, err = run(["bad/rank0.json", "-", "-o", "bad/z.svg"])
    ok(rc == 2 and "standard input" in err, "'-' among several traces: a usage error")
    rc, _, err = run(["bad/rank0.json", "bad/rank1.json", "--titles", "a,b,c", "-o", "bad/z.svg"])
    ok(rc == 2 and "--titles" in err and "3 titles for 2 traces" in err, "--titles count: a usage error")
    rc, _, err = run(["bad/rank0.json", "bad/rank1.json", "--align", "wall", "-o", "bad/z.svg"])
    ok(rc == 2 and "--align" in err, "--align: a usage error for another word")
    bd = os.path.join(EXAMPLES, "candidate_breakdown.json")
    rc, _, err = run(["bad/rank0.json", "bad/rank1.json", "--breakdown", bd, "-o", "bad/z.svg"])
    ok(rc == 2 and "--breakdown" in err, "--breakdown with several traces: a usage error")
    rc, out, err = run(["bad/rank0.json", "--titles", "x", "-o", "-"])
    ok(rc == 0 and "for several traces" in err and b'"title": "x"' not in out and
       b'"traces": [\n    {"file": "rank0.json", "title": null, "rank": 0,' in out,
       "--titles with one trace: a warning, the figure as ever (its entry untitled)")
    ok(not any(n.startswith(".") for n in os.listdir(d)), "bad input: no temporary files left")


for case in (two_ranks, skewed, missing_and_lengths, sixty_four, sixty_four_column, before_after, base_time,
             rank_facts, timelines, models, models_of_ranks, counters, bad_input):
    try:
        case()
    except Exception as e:  # a crash is a failure of that case, not of the suite
        ok(False, "%s: %s: %s" % (case.__name__, type(e).__name__, e))
print("multi: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
