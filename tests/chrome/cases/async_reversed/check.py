# An async pair whose end comes before its begin, far after the window
# (fuzz_chrome's find): nothing of it is drawn, and every bar stays inside
# the axis.
from lib import *
m = model()
expect_sane()
expect(not bars("async op"), "the reversed pair is not drawn: %r" % bars("async op"))
expect(all(0 <= b["x0"] <= b["x1"] <= m["axis"]["span"] for b in m["bars"]), "bars inside the axis")
expect(len(bars("async other")) == 1, "the other pair is drawn")
done()
