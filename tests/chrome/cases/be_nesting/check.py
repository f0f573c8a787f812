# B/E pairs nested five deep (E events with and without a name): each pair
# one slice, its row its depth; pairs on another thread do not interfere.
from lib import *
m = model()
expect_sane()
expect_window(0, 100)
want = {"L0": (0, 100, 0), "L1": (10, 90, 1), "L2": (20, 80, 2), "L3": (30, 60, 3),
        "L4": (40, 50, 4), "L3b": (65, 70, 3)}
for n, (t0, t1, row) in want.items():
    b = expect_span(n, t0, t1, lane=0)
    if b:
        expect(b["row"] == row and b["shape"] == "slice", "%s on row %d: %r" % (n, row, b))
expect(m["lanes"][0]["rows"] == 5, "lane 0 has 5 rows: %r" % m["lanes"][0])
expect_span("other thread", 35, 45, lane=1)
expect(not any(b["clip_left"] or b["clip_right"] for b in m["bars"]), "nothing clipped")
done()
