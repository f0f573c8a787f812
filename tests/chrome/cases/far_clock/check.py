# 400 events within 40 ms and 3 stamped on another clock, 3 days later: the
# default window is the main run of events, the far ones are left out of
# it, and a warning says so.
from lib import *
m = model()
expect_sane()
expect_window(1000000, 1039950)
expect(not bars("late1") and not bars("late2") and not bars("late3"), "far events not drawn")
expect(not lane_matching("tid 3"), "no lane for the far event's thread: %r" % labels())
expect_stderr(r"warning.*\b3\b.*(far|clock|left out)")
done()
