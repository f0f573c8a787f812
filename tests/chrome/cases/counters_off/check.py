# --no-counters (the last of the two given wins): no counter tracks, and the
# counters do not widen the window: it is the slices' extent.
from lib import *
import json
m = model()
expect_sane()
expect(not counters(), "counter lanes %r" % labels())
expect(labels() == ["app 0 / main", "app 1 / main"], "lanes %r" % labels())
evs = json.load(open("trace.json"))["traceEvents"]
xs = [e for e in evs if e.get("ph") == "X"]
expect_window(min(e["ts"] for e in xs), max(e["ts"] + e["dur"] for e in xs), tol=1e-9)
expect(m["stats"]["counters"] == [], "stats %r" % m["stats"]["counters"])
done()
