# Two kernels 1.6 s before the main run (16 times its span), as in an
# Nsight export whose first kernels come after a long idle lead-in: the
# default window holds every drawn lane's slices, from the first kernel to
# the last slice, and nothing is left out (no note, no warning).
from lib import *
m = model()
expect_sane()
expect_window(5840000, 7579980)
# x in ms from the window's start: the two kernels ink their 80 us there
first = [b for b in m["bars"] if b["x0"] < 0.2 and b["category"] == "kernel"]
ink = sum((b["x1"] - b["x0"]) * sum(b.get("busy", {"": 1}).values()) for b in first)
expect(first and abs(ink - 0.080) < 0.002, "the first kernels are drawn: %r" % first)
expect(not [n for n in m["notes"] if "far from" in n], "no event left out: %r" % m["notes"])
done()
