# E events with no open B (one before any B, one after the pair closed,
# one on a thread that never had a B) are dropped with one warning; the
# figure is drawn (exit 0) with the one real pair.
from lib import *
m = model()
expect_sane()
expect(len(m["bars"]) == 1 and m["bars"][0]["name"] == "ok", "only the pair: %r" % m["bars"])
expect(len(m["lanes"]) == 1, "one lane: %r" % labels())
expect_span("ok", 0, 10)
expect_stderr(r"3 E events")
done()
