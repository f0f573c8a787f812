# Lane order: process sort index (a negative one first; metadata after the
# events still counts), then pid numerically (9 before 10, not as text),
# then thread sort index, then tid numerically (-5, 20, 100).
from lib import *
m = model()
expect_sane()
first = {}
for b in m["bars"]:
    first.setdefault(b["lane"], b["name"])
got = [first.get(i) for i in range(len(m["lanes"]))]
want = ["p100t1", "p2t2", "p2t1", "p9t-5", "p9t20", "p9t100", "p10t3"]
expect(got == want, "lane order %r, want %r" % (got, want))
done()
