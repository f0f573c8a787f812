# Counter tracks are capped apart from the lanes of slices: 8 by default,
# with a note; the lanes of slices are all drawn.
from lib import *
m = model()
expect_sane()
expect(len(counters()) == 8, "counter lanes %d" % len(counters()))
expect("app 0 / main" in labels() and "app 1 / main" in labels(), "lanes %r" % labels())
expect(any("5 more counter tracks not drawn (at most 8)" in n for n in m["notes"]), "notes %r" % m["notes"])
done()
