# Flow events s -> t -> f (numeric and string ids, bp "e") with --flows:
# one arrow per step, from the s (or t) to the next t or f of the same id;
# a start with no end draws nothing.
from lib import *
m = model()
expect_sane()
expect_window(0, 95)
arrows = m["arrows"]
expect(len(arrows) == 3, "three arrows: %r" % arrows)
k = unit_us()
def arrow(x0, x1):
    for a in arrows:
        if near(a["from"]["x"] * k, x0) and near(a["to"]["x"] * k, x1):
            return a
    expect(False, "no arrow %g -> %g us: %r" % (x0, x1, arrows))
a = arrow(10, 35)
if a:
    expect(labels()[a["from"]["lane"]].endswith("CrBrowserMain") and
           labels()[a["to"]["lane"]].endswith("Chrome_IOThread"), "s->t lanes %r" % a)
a = arrow(35, 60)
if a:
    expect(labels()[a["to"]["lane"]].endswith("CrRendererMain"), "t->f lanes %r" % a)
arrow(71, 80)
for a in arrows:
    for end in ("from", "to"):
        p = a[end]
        expect(0 <= p["lane"] < len(m["lanes"]) and 0 <= p["row"] < m["lanes"][p["lane"]]["rows"],
               "arrow end on a drawn lane and row: %r" % a)
expect(not bars("task") and not bars("ac2g"), "flow events are not bars")
done()
