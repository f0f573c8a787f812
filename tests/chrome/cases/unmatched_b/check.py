# A B event never closed is drawn from its start to the window's right edge,
# with clip_right set, and a warning says so; the window is set by the
# other events.
from lib import *
m = model()
expect_sane()
expect_window(100, 500)
b = expect_span("never closed", 0, 400, lane=0)
if b:
    expect(b["clip_right"] and not b["clip_left"] and b["row"] == 0, "clip flags: %r" % b)
b = expect_span("closed", 50, 100, lane=0)
if b:
    expect(b["row"] == 1 and not b["clip_right"], "closed nests: %r" % b)
expect_span("later", 200, 400, lane=1)
expect_stderr(r"never closed|unmatched|not closed|unclosed")
done()
