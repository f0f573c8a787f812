# args nested 5000 levels deep: args are opaque to the figure, so the trace
# loads and every event is drawn.
from lib import *
m = model()
expect_sane()
expect_window(0, 30)
expect_span("shallow", 0, 10)
expect_span("deep", 20, 30)
expect(len(bars("deep instant", shape="instant")) == 1, "the instant: %r" % m["bars"])
done()
