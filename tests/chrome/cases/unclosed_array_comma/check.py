# Tracing cut off: a bare array never closed, ending after a complete event
# and its comma (and a newline).  The format allows it: every event is drawn.
from lib import *
m = model()
expect_sane()
expect(m["mode"] == "chrome", "mode %r" % m["mode"])
expect_window(0, 400)
expect_span("first", 0, 100, lane=0)
expect_span("second", 200, 300, lane=0)
expect_span("third", 250, 400, lane=1)
done()
