# An X event without dur (or with dur null) has no extent: it is dropped,
# as Perfetto drops it, and it moves neither end of the window.  One
# warning counts them.
from lib import *
m = model()
expect_sane()
expect([b["name"] for b in m["bars"]] == ["work"], "only work drawn: %r" % m["bars"])
expect_window(100, 150)
expect_stderr(r"3 X events without a dur dropped")
expect(len(stderr().strip().splitlines()) == 1, "one warning: %r" % stderr())
done()
