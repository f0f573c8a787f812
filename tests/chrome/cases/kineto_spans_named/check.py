# As kineto_spans, with the "Spans" process also named by a process_name
# record: the profiler's own span (cat Trace, pid "Spans") is still not a
# lane by default, whatever its process is called.
from lib import *
m = model()
expect_sane()
expect_window(800000, 850000)
expect(not any("Spans" in l or "Profiler" in l for l in labels()), "no Spans lane: %r" % labels())
done()
