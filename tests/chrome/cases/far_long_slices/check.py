# A part of fewer than 1 % of the events (5 of 1005) but more than 1 % of
# the drawn time (500 ms of 501) is never left out, however far it lies.
from lib import *
m = model()
expect_sane()
expect_window(0, 2001000 + 600000 + 100000)
expect(len(bars("long")) == 5, "the long slices drawn: %d" % len(bars("long")))
expect_no_stderr(r"far from the rest")
done()
