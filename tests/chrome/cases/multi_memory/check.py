# Two Kineto traces with [memory] instants, aligned by their steps: each
# trace has its own memory tracks (CPU and CUDA 0, allocated and reserved),
# first among its process's lanes, holding its own totals over its own
# step; each trace's statistics list its four tracks.
from lib import *
import decimal
import json
m = model()
expect_sane()
tr = m.get("traces") or []
expect(len(tr) == 2, "two traces: %r" % tr)
st = m.get("stats") if isinstance(m.get("stats"), list) else []
for t, path in enumerate(["trace.json", "trace2.json"]):
    evs = json.load(open(path), parse_float=decimal.Decimal)["traceEvents"]
    step = min((e for e in evs if e.get("ph") == "X" and e.get("name") == "ProfilerStep#4"),
               key=lambda e: e["ts"])
    w0, w1 = step["ts"], step["ts"] + step["dur"]
    w = tr[t]["window_us"] if t < len(tr) else None
    expect(w and exact_time(exact_model()["traces"][t]["window_us"][0]) == w0,
           "trace %d draws its own step: %r, want %s" % (t, w, w0))
    mine = [(i, l) for i, l in counters() if l["trace"] == t]
    expect([l["label"] for _, l in mine] ==
           ["python3 / memory CPU allocated", "python3 / memory CPU reserved",
            "python3 / memory CUDA 0 allocated", "python3 / memory CUDA 0 reserved"],
           "trace %d: memory lanes %r" % (t, [l["label"] for _, l in mine]))
    want = {}
    for i, e in enumerate(evs):
        if e.get("name") == "[memory]":
            a = e["args"]
            dev = "CPU" if a["Device Type"] == 0 else "CUDA 0"
            want.setdefault("memory %s allocated" % dev, []).append((e["ts"], i, float(a["Total Allocated"])))
            want.setdefault("memory %s reserved" % dev, []).append((e["ts"], i, float(a["Total Reserved"])))
    pid = mine[0][1]["pid"] if mine else None
    for name, s in want.items():
        expect_counter_exact(pid, name, s, w0, w1, trace=t)
    if t < len(st):
        expect(st[t]["trace"] == t and [k["lane"] for k in st[t]["counters"]] == [i for i, _ in mine],
               "trace %d: its stats' counters %r" % (t, st[t].get("counters")))
done()
