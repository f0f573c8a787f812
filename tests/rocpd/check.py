#!/usr/bin/env python3
"""check.py - what must hold of tracefig's figure of a rocpd database (its
JSON model), against what the database holds: the generator's account of
it (genrocpd.py --truth) or sqlite3 queries on its views.  Standard
library only.

    check.py lanes MODEL TRUTH          GPU lanes, their kernels and busy time, host lanes
    check.py flows MODEL N              N launch -> GPU arrows, host to GPU, forward
    check.py window MODEL LO_NS HI_NS   the window, in the database's ns
    check.py breakdown MODEL DB         the GPU breakdown of the whole run, from the views
    check.py views MODEL DB             every kernel on its GPU lane: the counts and busy
                                        time per lane of `kernels`, by agent and queue/stream
    check.py ranks MODEL R0 R1 ...      a figure of the ranks' databases, in rank order

Each prints what failed, and exits 1 when something did.
"""
import json
import re
import sqlite3
import sys

failures = []


def expect(cond, msg):
    if not cond:
        failures.append(msg)
    return cond


def model(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def labels(m):
    return [l["label"] for l in m["lanes"]]


def gpu_lanes(m):
    return {i: l["label"] for i, l in enumerate(m["lanes"]) if l["label"].startswith("GPU ")}


def counts(m, cats=("kernel", "NCCL kernel")):
    """Kernels per lane: a bar is one, a dense span as many as start in it."""
    n = {}
    for b in m["bars"]:
        if b.get("category") in cats:
            k = b.get("merged", 0) if b.get("shape") == "dense" else 1
            n[b["lane"]] = n.get(b["lane"], 0) + k
    return n


def only_kernels(m, lane):
    return all(b.get("category") in ("kernel", "NCCL kernel") for b in m["bars"] if b["lane"] == lane)


def busy_ms(m, lane):
    return m["stats"]["lanes"][lane]["busy_ms"]


def close(a, b, rel=1e-3, abs_=0.0015):
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def db_open(path):
    return sqlite3.connect("file:%s?immutable=1" % path, uri=True)


def check_lanes(mpath, tpath):
    m = model(mpath)
    with open(tpath) as f:
        t = json.load(f)
    want = t["gpu_lanes"]
    got = gpu_lanes(m)
    expect(sorted(got.values()) == sorted(want),
           "GPU lanes %r, not %r" % (sorted(got.values()), sorted(want)))
    n = counts(m, ("kernel", "NCCL kernel"))
    for i, label in got.items():
        w = want.get(label)
        if not w:
            continue
        expect(n.get(i, 0) == w["kernels"],
               "%s: %d kernels drawn, the database has %d" % (label, n.get(i, 0), w["kernels"]))
        expect(close(busy_ms(m, i), w["busy_ns"] / 1e6),
               "%s: busy %s ms, the database %s ms" % (label, busy_ms(m, i), w["busy_ns"] / 1e6))
    hosts = [l for l in labels(m) if not l.startswith("GPU ")]
    if "host_threads" in t:
        expect(len(hosts) == len(t["host_threads"]),
               "host lanes %r, the database has %d threads with events"
               % (hosts, len(t["host_threads"])))


def check_flows(mpath, n):
    m = model(mpath)
    a = m["arrows"]
    gpu = gpu_lanes(m)
    expect(len(a) == n, "%d arrows, not %d" % (len(a), n))
    for x in a:
        expect(x["from"]["lane"] not in gpu and x["to"]["lane"] in gpu,
               "an arrow not from a host lane to a GPU lane: %r" % x)
        expect(x["to"]["x"] >= x["from"]["x"], "an arrow backwards in time: %r" % x)


def check_window(mpath, lo, hi):
    m = model(mpath)
    w = m["window"]
    expect(abs(w["start_us"] * 1000 - lo) < 1.5 and abs(w["end_us"] * 1000 - hi) < 1.5,
           "window %r us, not [%s, %s] ns" % (w, lo, hi))


def union(iv):
    iv = sorted(iv)
    out = []
    for s, e in iv:
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(iv):
    return sum(e - s for s, e in iv)


def check_breakdown(mpath, dbpath):
    """tracefig's definitions (man page, STATISTICS), computed again from the views:
    kernels and copies are GPU work; nccl* kernels communication, Memcpy/Memset
    memory, the others compute."""
    m = model(mpath)
    g = m["stats"].get("gpu_breakdown")
    if not expect(g is not None, "no gpu_breakdown in the model"):
        return
    db = db_open(dbpath)
    comp, comm, work = [], [], []
    for name, s, e in db.execute("SELECT name, start, end FROM kernels"):
        work.append((s, e))
        if name.lower().startswith(("nccl", "hccl")) or name.startswith("hip") or "ncclKernel" in name:
            comm.append((s, e))
        elif not re.search("Memcpy|Memset|dma|Sync", name.split("\n")[0]):
            comp.append((s, e))
    for s, e in db.execute("SELECT start, end FROM memory_copies"):
        work.append((s, e))
    w = union(work)
    span = (w[-1][1] - w[0][0]) / 1e6
    idle = span - length(w) / 1e6
    compute = length(union(comp)) / 1e6
    for key, want in (("kernel_span_ms", span), ("idle_ms", idle), ("compute_ms", compute),
                      ("non_compute_ms", span - compute - idle),
                      ("comm_ms", length(union(comm)) / 1e6)):
        expect(close(g[key], want), "gpu_breakdown %s = %s, the views give %.6f" % (key, g[key], want))


def lane_word(name, word):
    if not name:
        return None
    if name == "Default " + word.capitalize():
        return "default " + word
    mm = re.match(r"%s (\d+)$" % word.capitalize(), name)
    return "%s %s" % (word, mm.group(1)) if mm else name


def check_views(mpath, dbpath):
    """Every kernel of the `kernels` view on its lane "GPU <agent_type_index> /
    queue Q" (or stream), counted once, and each lane's busy time within 1 % of
    the sum of its kernels' durations (their union: back-to-back kernels overlap
    by nanoseconds)."""
    m = model(mpath)
    db = db_open(dbpath)
    want = {}
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'kernels'").fetchone():
        streams = db.execute("SELECT count(*) FROM rocpd_info_stream "
                             "WHERE name IS NOT 'Default Stream'").fetchone()[0] > 0
        col, word = ("stream", "stream") if streams else ("queue", "queue")
        hosts = dict(db.execute("SELECT id, hostname FROM rocpd_info_node"))
        several = db.execute("SELECT count(DISTINCT nid) FROM kernels").fetchone()[0] > 1
        for ti, nid, lane, n, busy in db.execute(
                "SELECT agent_type_index, nid, %s, count(*), sum(duration) FROM kernels "
                "GROUP BY 1, 2, 3" % col):
            host = " (%s)" % hosts.get(nid) if several else ""
            want["GPU %d%s / %s" % (ti, host, lane_word(lane, word))] = (n, busy)
        total = db.execute("SELECT count(*) FROM kernels").fetchone()[0]
    else:
        # rocprof (v1)'s results.db: the GPU work of OPS
        streams = db.execute('SELECT count(*) FROM OPS WHERE "stream-id" != 0').fetchone()[0]
        col, word = ('"stream-id"', "stream") if streams else ('"queue-id"', "queue")
        for dev, lane, n, busy in db.execute(
                'SELECT "dev-id", %s, count(*), sum(EndNs - BeginNs) FROM OPS GROUP BY 1, 2'
                % col):
            want["GPU %d / %s %d" % (dev, word, lane)] = (n, busy)
        total = db.execute("SELECT count(*) FROM OPS").fetchone()[0]
    got = gpu_lanes(m)
    n = counts(m)
    expect(sum(n.get(i, 0) for i in got) == total,
           "%d kernels drawn on GPU lanes, the view has %d" % (sum(n.values()), total))
    for label, (cnt, busy) in sorted(want.items()):
        ids = [i for i, l in got.items() if l == label or l.startswith(label + " (pid")]
        if not expect(ids, "no lane %r (lanes: %r)" % (label, sorted(got.values()))):
            continue
        drawn = sum(n.get(i, 0) for i in ids)
        expect(drawn == cnt, "%s: %d kernels drawn, the view has %d" % (label, drawn, cnt))
        if not all(only_kernels(m, i) for i in ids):
            continue  # copies share the lane (by stream)
        b = sum(busy_ms(m, i) for i in ids)
        expect(abs(b - busy / 1e6) <= 0.01 * busy / 1e6 + 0.0015,
               "%s: busy %s ms, the view's kernels %.6f ms" % (label, b, busy / 1e6))


def check_ranks(mpath, ranks):
    m = model(mpath)
    tr = m.get("traces") or []
    expect([t.get("rank") for t in tr] == [int(r) for r in ranks],
           "traces %r, not ranks %r" % ([t.get("rank") for t in tr], ranks))
    expect([t.get("title") for t in tr] == ["rank %s" % r for r in ranks],
           "titles %r" % [t.get("title") for t in tr])
    expect(all(t.get("offset_us") == 0 for t in tr), "not on one clock: %r" % tr)


def main():
    a = sys.argv[1:]
    cmd = a[0] if a else ""
    if cmd == "lanes":
        check_lanes(a[1], a[2])
    elif cmd == "flows":
        check_flows(a[1], int(a[2]))
    elif cmd == "window":
        check_window(a[1], int(a[2]), int(a[3]))
    elif cmd == "breakdown":
        check_breakdown(a[1], a[2])
    elif cmd == "views":
        check_views(a[1], a[2])
    elif cmd == "ranks":
        check_ranks(a[1], a[2:])
    else:
        print(__doc__)
        return 2
    for f in failures:
        print("  - " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
