# Without totals, a device's memory is the running sum of the events' Bytes
# from the trace's start (a note says so), the value at the window's start
# included; no reserved track.
from lib import *
import json
m = model()
expect_sane()
mem = [l for _, l in counters()]
expect([l["label"] for l in mem] == ["python3 / memory CPU allocated",
                                     "python3 / memory CUDA 0 allocated"], "memory lanes %r" % labels())
expect(any("memory counted from the trace's start" in n for n in m["notes"]), "notes %r" % m["notes"])
import decimal
evs = json.load(open("trace.json"), parse_float=decimal.Decimal)["traceEvents"]
step = min((e for e in evs if e.get("ph") == "X" and e.get("name") == "ProfilerStep#4"),
           key=lambda e: e["ts"])
w0, w1 = step["ts"], step["ts"] + step["dur"]
mems = sorted(((e["ts"], i, e["args"]) for i, e in enumerate(evs) if e.get("name") == "[memory]"),
              key=lambda x: (x[0], x[1]))
run = {}
want = {}
for ts, i, a in mems:
    dev = "CPU" if a["Device Type"] == 0 else "CUDA 0"
    run[dev] = run.get(dev, 0) + a["Bytes"]
    want.setdefault("memory %s allocated" % dev, []).append((ts, i, float(run[dev])))
pid = mem[0]["pid"] if mem else None
for name, s in want.items():
    expect_counter_exact(pid, name, s, w0, w1)
done()
