# [memory] instants are a memory track per device and total, never ticks:
# "memory CPU allocated", "... reserved", "memory CUDA 0 ...", in bytes,
# first among their process's lanes; each holds the trace's totals,
# clipped to the window.
from lib import *
import json
m = model()
expect_sane()
expect(not bars("[memory]"), "[memory] drawn as ticks")
mem = [l for _, l in counters()]
expect([l["label"] for l in mem] == ["python3 / memory CPU allocated", "python3 / memory CPU reserved",
                                     "python3 / memory CUDA 0 allocated",
                                     "python3 / memory CUDA 0 reserved"], "memory lanes %r" % labels())
expect(all(l["unit"] == "B" for l in mem), "units")
expect(labels()[:4] == [l["label"] for l in mem], "memory first in its process: %r" % labels())
import decimal
evs = json.load(open("trace.json"), parse_float=decimal.Decimal)["traceEvents"]
step = min((e for e in evs if e.get("ph") == "X" and e.get("name") == "ProfilerStep#4"),
           key=lambda e: e["ts"])
w0, w1 = step["ts"], step["ts"] + step["dur"]
want = {}
for i, e in enumerate(evs):
    if e.get("name") == "[memory]":
        a = e["args"]
        dev = "CPU" if a["Device Type"] == 0 else "CUDA 0"
        want.setdefault("memory %s allocated" % dev, []).append((e["ts"], i, float(a["Total Allocated"])))
        want.setdefault("memory %s reserved" % dev, []).append((e["ts"], i, float(a["Total Reserved"])))
pid = mem[0]["pid"] if mem else None
for name, s in want.items():
    expect_counter_exact(pid, name, s, w0, w1)
expect(not any("no totals" in n for n in m["notes"]), "notes %r" % m["notes"])
done()
