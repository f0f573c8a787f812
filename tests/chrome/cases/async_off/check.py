# Async b/n/e events are not drawn by default (no bars, no lane of their
# own), and do not widen the window.
from lib import *
m = model()
expect_sane()
expect([b["name"] for b in m["bars"]] == ["sync work"], "bars %r" % m["bars"])
expect(len(m["lanes"]) == 1, "one lane %r" % labels())
expect_window(0, 100)
done()
