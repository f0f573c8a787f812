# A process instant ("s": "p") is a marker across its process's lanes, a
# global one ("s": "g") across the plot: a tick on every row of those
# lanes.  Neither sets the default window (the slices and the thread
# instant do: 100..900 us), so the marks before and after are not drawn.
from lib import *
m = model()
expect_sane()
expect_window(100, 900)
lanes = m["lanes"]
expect([l["label"] for l in lanes] == ["browser / main", "browser / io", "renderer / main"],
       "lanes %r" % labels())
def ticks(name):
    return sorted((b["lane"], b["row"]) for b in bars(name, shape="instant"))
every = sorted((i, r) for i, l in enumerate(lanes) for r in range(l["rows"]))
expect(ticks("navigationStart") == every, "global: every row of every lane: %r" % ticks("navigationStart"))
browser = sorted((i, r) for i, l in enumerate(lanes) for r in range(l["rows"]) if l["pid"] == 1)
expect(ticks("processMark") == browser, "process: its lanes' rows: %r" % ticks("processMark"))
expect(ticks("threadMark") == [(2, 0)], "thread instant on its lane: %r" % ticks("threadMark"))
expect(not bars("before everything") and not bars("after everything"), "outside the window")
for b in bars("navigationStart"):
    expect(near(bar_us(b)[0], 300), "at 400 us: %r" % b)
done()
