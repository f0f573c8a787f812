# Events without pid, without tid, or without either are still drawn, on
# lanes with a label.  No tid means the process's main thread (tid = pid),
# as Perfetto reads it: "notid" shares the lane of pid 3 / tid 3.
from lib import *
m = model()
expect_sane()
expect_window(0, 25)
for n, t0 in (("nopid", 0), ("notid", 5), ("neither", 10), ("both", 15)):
    expect_span(n, t0, t0 + 10)
nt, both = one_bar("notid"), one_bar("both")
expect(nt and both and nt["lane"] == both["lane"], "notid on pid 3's main thread: %r" % labels())
if both:
    l = m["lanes"][both["lane"]]
    expect(l["pid"] == 3 and l["tid"] == 3, "ids of that lane: %r" % l)
expect(len(m["lanes"]) == 3, "three lanes: %r" % labels())
done()
