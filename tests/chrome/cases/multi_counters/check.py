# A figure of two traces with counters: each trace's C series are counter
# lanes of that trace ("trace" its index), holding exactly that trace's
# values over the window it draws (the shorter trace's stop where it ends,
# before the window does); each trace's "stats" entry lists its own
# counter lanes (the figure's lane indexes, as its groups), with null busy
# times for them, and the min, max and time-weighted mean of its own trace.
from lib import *
m = model()
expect_sane()
tr = m.get("traces") or []
expect([t["title"] for t in tr] == ["trace", "trace2"], "traces %r" % tr)
st = m.get("stats")
expect(isinstance(st, list) and len(st) == 2, "stats: one entry per trace")
for t, path in enumerate(["trace.json", "trace2.json"]):
    series = trace_series(path)
    mine = [(i, l) for i, l in counters() if l["trace"] == t]
    expect(len(series) == 8 and len(mine) == 8,
           "trace %d: %d series, %d counter lanes" % (t, len(series), len(mine)))
    end = exact_time(exact_model()["traces"][t]["span_us"][1]) if t < len(tr) else None
    for (pid, name), samples in sorted(series.items()):
        expect_counter_exact(pid, name, samples, trace=t, end=end)
    if not isinstance(st, list) or len(st) != 2:
        continue
    e = st[t]
    expect(e["trace"] == t, "stats[%d] is trace %r's" % (t, e["trace"]))
    lanes = [k["lane"] for k in e["counters"]]
    expect(lanes == [i for i, _ in mine], "trace %d: counters of lanes %r, want %r"
           % (t, lanes, [i for i, _ in mine]))
    first = min(i for i, l in enumerate(m["lanes"]) if l["trace"] == t)
    for i, l in mine:
        b = e["lanes"][i - first]
        expect(b["busy_ms"] is None and b["busy_pct"] is None,
               "trace %d: counter lane %d has busy %r" % (t, i, b))
    groups = [x for g in e["groups"] for x in g["lanes"]]
    expect(all(m["lanes"][x]["trace"] == t and m["lanes"][x]["kind"] == "slices" for x in groups),
           "trace %d: groups of lanes %r" % (t, groups))
# the shorter trace's tracks stop at its end, inside the window
e0 = exact_time(exact_model()["traces"][0]["span_us"][1]) if tr else None
expect(e0 is not None and e0 < exact_time(exact_model()["window"]["end_us"]),
       "the first trace ends before the window: %r" % tr)
# the two traces' tracks are told apart: same labels, other values
a = [l for _, l in counters() if l["trace"] == 0 and l["label"].endswith("memory allocated")]
b = [l for _, l in counters() if l["trace"] == 1 and l["label"].endswith("memory allocated")]
expect(a and b and a[0]["samples"] != b[0]["samples"], "both traces' memory tracks alike")
done()
