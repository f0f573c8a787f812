# Counters (C), object snapshots (N/O/D), samples (P) and unknown phases are
# passed over quietly: no bars, no lanes, and they do not widen the window.
from lib import *
m = model()
expect_sane()
expect([b["name"] for b in m["bars"]] == ["work"], "bars %r" % m["bars"])
expect(len(m["lanes"]) == 1, "lanes %r" % labels())
expect_window(10, 60)
done()
