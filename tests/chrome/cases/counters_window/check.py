# Clipped to the window: the value at its start is the trace's last sample
# before it, wherever it lies in the file (the trace is not in time order),
# and every track and statistic is what the trace says of the window.
from lib import *
m = model()
expect_sane()
expect_window(123450, 201100)
series = trace_series()
for (pid, name), samples in sorted(series.items()):
    expect_counter_exact(pid, name, samples)
t = counter("sampler / temperature celsius")
expect(t and t["samples"][-1][1] is None, "temperature stops in the window")
# thinned: at most four samples per stretch of 1 pt, far fewer than the trace's
a = counter("app 0 / memory allocated")
expect(a and len(a["samples"]) < 800, "allocated: %d samples" % len(a["samples"]))
done()
