"""Several real traces in one figure (tests/real/run.sh): the two ranks of
HTA's distributed sample on one clock, and HTA's trace-diff pair as a before
and an after.  Prints "ok NAME" or "fail NAME: why" per check; expected
numbers come from the traces (read here with the json module).

    multi.py TRACEFIG TRACES_DIR TMPDIR
"""
import decimal
import gzip
import json
import os
import subprocess
import sys

BIN, TRACES, TMP = sys.argv[1:4]
D = decimal.Decimal


def check(name, cond, why=""):
    print(("ok %s" % name) if cond else ("fail %s: %s" % (name, why)))


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, cwd=TMP)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def model(args):
    rc, out, err = run(args + ["--format", "json", "-o", "-"])
    return json.loads(out, parse_float=D) if rc == 0 else None, err


def steps(name):
    with gzip.open(os.path.join(TRACES, name)) as f:
        doc = json.load(f, parse_float=D)
    return {e["name"]: (D(e["ts"]), D(e["ts"]) + D(e["dur"])) for e in doc["traceEvents"]
            if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")}


r0, r1 = (os.path.join(TRACES, "hta-dist-rank%d.json.gz" % r) for r in (0, 1))
ctl, tst = (os.path.join(TRACES, "hta-diff-%s.json.gz" % w) for w in ("control", "test"))
if not all(os.path.exists(p) for p in (r0, r1, ctl, tst)):
    print("skip several traces: a file is missing")
    sys.exit(0)
UNIT = {"µs": D(1), "ms": D(1000), "s": D(1000000)}

# The two ranks on one clock: ProfilerStep#551 starts 0.19 ms apart.
m, err = model([r0, r1, "--window-event", "ProfilerStep#551"])
check("multi/dist-clock", m is not None, err)
if m:
    s0, s1 = steps("hta-dist-rank0.json.gz")["ProfilerStep#551"], steps("hta-dist-rank1.json.gz")["ProfilerStep#551"]
    t = m["traces"]
    check("multi/dist-titles", [x["title"] for x in t] == ["rank 0", "rank 1"], [x["title"] for x in t])
    check("multi/dist-one-clock", all(x["offset_us"] == 0 for x in t), [x["offset_us"] for x in t])
    check("multi/dist-union", m["window"]["start_us"] == min(s0[0], s1[0]) and
          m["window"]["end_us"] == max(s0[1], s1[1]), m["window"])
    u = UNIT[m["axis"]["unit"]]
    x = {}
    for b in m["bars"]:
        if b["name"] == "ProfilerStep#551":
            tr = m["lanes"][b["lane"]]["trace"]
            x[tr] = min(x.get(tr, b["x0"]), b["x0"])
    apart = (x.get(1, 0) - x.get(0, 0)) * u
    check("multi/dist-apart", apart == s1[0] - s0[0] and abs(apart - 190) < 10,
          "rank 1's step starts %s us after rank 0's (traces: %s)" % (apart, s1[0] - s0[0]))
    print("note: ProfilerStep#551 of rank 1 starts %s us after rank 0's" % apart)

# The before and the after: one step of each at 0, by name and by glob.
c, e = steps("hta-diff-control.json.gz"), steps("hta-diff-test.json.gz")
for args, what in ((["--window-event", "ProfilerStep#1010"], "name"),
                   (["--window-event", "ProfilerStep#*", "--occurrence", "2"], "glob")):
    m, err = model([ctl, tst, "--align", "event", "--titles", "control,test"] + args)
    check("multi/diff-%s" % what, m is not None, err)
    if not m:
        continue
    t = m["traces"]
    sc, st = c["ProfilerStep#1010"], e["ProfilerStep#1010"]
    check("multi/diff-%s-offsets" % what, t[0]["offset_us"] == -sc[0] and t[1]["offset_us"] == -st[0],
          [x["offset_us"] for x in t])
    check("multi/diff-%s-window" % what, m["window"]["start_us"] == 0 and
          m["window"]["end_us"] == max(sc[1] - sc[0], st[1] - st[0]), m["window"])
    lens = [x["window_us"][1] - x["window_us"][0] for x in t]
    check("multi/diff-%s-lengths" % what, lens == [sc[1] - sc[0], st[1] - st[0]], lens)
    print("note: %s: control's step %s ms, test's %s ms" % (what, lens[0] / 1000, lens[1] / 1000))
m, err = model([ctl, tst, "--window-event", "ProfilerStep#1010"])
check("multi/diff-default-event", m is not None and all(x["offset_us"] != 0 for x in m["traces"]),
      err or "not aligned by their steps")
for fmt, ext in (("svg", "svg"), ("tikz", "tex"), ("png", "png")):
    rc, out, err = run([ctl, tst, "--window-event", "ProfilerStep#1010", "--format", fmt, "-o", "-"])
    check("multi/diff-%s" % fmt, rc == 0 and len(out) > 1000 and (fmt != "svg" or len(out) <= 300000),
          "exit %d, %d bytes: %s" % (rc, len(out), err.strip()))
