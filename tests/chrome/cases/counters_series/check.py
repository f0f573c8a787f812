# One track per series of every C event, labelled as Perfetto names them
# ("NAME KEY", "NAME id: ID KEY"), under its process and before its threads;
# a series stopped by null breaks and restarts; one that events leave out
# holds its value; numeric strings are numbers; each track holds exactly
# the trace's values, and the statistics are the window's.
from lib import *
m = model()
expect_sane()
want = []
for p in (0, 1):
    want += ["app %d / %s" % (p, s) for s in
             ("fps value", "memory allocated", "memory reserved", "queue id: 0 depth",
              "queue id: 1 depth")] + ["app %d / main" % p]
want += ["sampler / cpu system", "sampler / cpu user", "sampler / temperature celsius"]
expect(labels() == want, "lanes %r" % labels())
series = trace_series()
expect(len(series) == 13, "series in the trace: %d" % len(series))
for (pid, name), samples in sorted(series.items()):
    expect_counter_exact(pid, name, samples)
# the gap: queue id 1 stops (null) and restarts
q = samples_of = counter("app 0 / queue id: 1 depth")
if q:
    vals = [v for _, v in q["samples"]]
    k = vals.index(None) if None in vals else -1
    expect(k > 0 and any(v is not None for v in vals[k + 1:]), "queue 1: no stop and restart: %r" % vals[:5])
t = counter("sampler / temperature celsius")
if t:
    expect(t["samples"][-1][1] is None, "temperature: does not stop: %r" % t["samples"][-3:])
r, a = counter("app 1 / memory reserved"), counter("app 1 / memory allocated")
if r and a:
    expect(1 < len(r["samples"]) < len(a["samples"]), "reserved not held: %d vs %d samples"
           % (len(r["samples"]), len(a["samples"])))
f = counter("app 0 / fps value")
expect(f and all(v is not None and 55 <= v <= 60 for _, v in f["samples"]), "fps from strings")
expect(all(l["unit"] is None for _, l in counters()), "units")
done()
