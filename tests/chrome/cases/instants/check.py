# Instants i, I and R of thread scope are drawn on their thread's lane with
# shape "instant" (x0 == x1); a global-scope instant ("s": "g") makes no
# lane of its own.
from lib import *
m = model()
expect_sane()
expect_window(0, 100)
for n, t, lane in (("mark i", 20, 0), ("mark I", 50, 0), ("mark R", 70, 1)):
    b = one_bar(n)
    if b:
        expect(b["shape"] == "instant" and b["lane"] == lane, "%s: %r" % (n, b))
        expect(near(bar_us(b)[0], t) and b["x0"] == b["x1"], "%s at %g: %r" % (n, t, b))
expect(labels() == ["pid 1 / main", "pid 1 / tid 2"], "no lane for the global instant: %r" % labels())
expect(all(m["lanes"][b["lane"]]["pid"] != 5 for b in m["bars"]), "nothing on pid 5")
done()
