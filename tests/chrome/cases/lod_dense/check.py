# Level of detail: 5000 slices of 1 us in a 1 s window cannot be drawn
# apart; they go to the fine busy histogram (TF_LOD_FINE_BINS bins across
# the axis): dense bars whose merged counts (the slices that start in each)
# add up to the slices they stand for, whose busy shares add up to the
# slices' time, and which never reach beyond their bin.
from lib import *
m = model()
expect_sane()
expect_window(0, 1000000)
k = unit_us()
ticks = [b for b in m["bars"] if b["lane"] == 1]
dense = [b for b in ticks if b["shape"] == "dense"]
single = [b for b in ticks if b["shape"] == "slice"]
expect(dense, "dense spans on the tick lane")
expect(sum(b["merged"] for b in dense) + len(single) == 5000,
       "merged counts %d + %d single = 5000" % (sum(b["merged"] for b in dense), len(single)))
busy = sum((b["x1"] - b["x0"]) * k * b["busy"]["tick"] for b in dense)
busy += sum((b["x1"] - b["x0"]) * k for b in single)
expect(abs(busy - 5000) < 1, "the shares cover the slices' time: %.3f us of 5000" % busy)
expect(all((b["x1"] - b["x0"]) * k <= 1e6 / 2048 + 1e-3 for b in dense),
       "a dense bar is one fine bin wide at most")
expect(len(m["bars"]) <= 2048 + 10, "at most one bar per fine bin, got %d" % len(m["bars"]))
expect(min(b["x0"] for b in ticks) * k <= 100 + 1e-6 and max(b["x1"] for b in ticks) * k >= 999901 - 1e-6,
       "the spans cover the first to the last tick")
done()
