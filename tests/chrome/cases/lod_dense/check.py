# Level of detail: 5000 slices of 1 us in a 1 s window cannot be drawn
# apart; they become a few dense spans whose merged counts add up to the
# slices they stand for (with any slice still drawn alone), and the figure
# stays small.
from lib import *
m = model()
expect_sane()
expect_window(0, 1000000)
ticks = [b for b in m["bars"] if b["lane"] == 1]
dense = [b for b in ticks if b["shape"] == "dense"]
single = [b for b in ticks if b["shape"] == "slice"]
expect(dense, "dense spans on the tick lane")
expect(sum(b["merged"] for b in dense) + len(single) == 5000,
       "merged counts %d + %d single = 5000" % (sum(b["merged"] for b in dense), len(single)))
expect(all(b["merged"] >= 2 for b in dense), "a dense span stands for 2 or more slices")
expect(len(m["bars"]) <= 200, "at most 200 bars, got %d" % len(m["bars"]))
if dense:
    k = unit_us()
    expect(min(b["x0"] for b in ticks) * k <= 100 + 1e-6 and max(b["x1"] for b in ticks) * k >= 999901 - 1e-6,
           "the spans cover the first to the last tick")
done()
