# Kineto: the profiler's own span ("PyTorch Profiler (0)", cat Trace, in the
# string pid "Spans") starts long before the first event; it neither sets
# the default window nor gets a lane by default.
from lib import *
m = model()
expect_sane()
expect_window(800000, 850000)
expect(not any("Spans" in l or "Profiler" in l for l in labels()), "no Spans lane: %r" % labels())
expect(labels() == ["GPU 0 / stream 7", "python"], "lanes %r" % labels())
# A [memory] instant is a memory sample, never a tick (this one has no
# values, so it draws no memory track either).
expect(not bars("[memory]"), "no [memory] tick")
expect(not counters(), "no counter lanes: %r" % labels())
done()
