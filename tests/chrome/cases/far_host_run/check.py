# 26 calls, 1.32 s of nothing, then 116 calls (82 % of the events): no part
# holds fewer than 1 % of the events, so nothing is left out: the window is
# the whole run, from the first call to the end of the last.
from lib import *
m = model()
expect_sane()
expect_window(0, 321 + 1320000 + 9000 + 22 * 12210 + 160 + 6)
expect(len(bars("hipGetDevice")) + len(bars("hipLaunchKernel")) >= 1, "bars drawn")
expect(not [n for n in m["notes"] if "far from the rest" in n], "notes: %r" % m["notes"])
expect_no_stderr(r"far from the rest")
done()
