# Counters (C) are drawn, one track per series ("memory allocated", "memory
# reserved") under their process, and widen the window as slices do; object
# snapshots (N/O/D), samples (P) and unknown phases are passed over quietly.
from lib import *
m = model()
expect_sane()
expect([b["name"] for b in m["bars"]] == ["work"], "bars %r" % m["bars"])
expect(labels() == ["pid 1 / memory allocated", "pid 1 / memory reserved", "pid 1 / tid 1",
                    "pid 2 / memory allocated"], "lanes %r" % labels())
expect_window(0, 500)
expect(samples("pid 1 / memory allocated") == [(0, 100), (30, 150)],
       "allocated %r" % samples("pid 1 / memory allocated"))
# 200 all along: no step, one sample
expect(samples("pid 1 / memory reserved") == [(0, 200)],
       "reserved %r" % samples("pid 1 / memory reserved"))
expect(samples("pid 2 / memory allocated") == [(500, 0)],
       "pid 2 %r" % samples("pid 2 / memory allocated"))
k = counter_stats("pid 1 / memory allocated")
# 100 for 30 us, 150 for 470 us: (3000 + 70500) / 500
expect(k and k["min"] == 100 and k["max"] == 150 and near(k["mean"], 147), "stats %r" % k)
done()
