# Flows v2 (Perfetto's JSON): bind_id with flow_out on the slice that sends
# and flow_in on the slice that receives; a slice may do both.  --flows
# draws producer -> relay -> consumer: two arrows, each leaving a slice and
# arriving at the next one (in time) of the same bind_id.
from lib import *
m = model()
expect_sane()
arrows = m["arrows"]
expect(len(arrows) == 2, "two arrows: %r" % arrows)
k = unit_us()
lane = {b["name"]: b["lane"] for b in m["bars"]}
def find(src, dst):
    for a in arrows:
        if a["from"]["lane"] == lane.get(src) and a["to"]["lane"] == lane.get(dst):
            return a
    expect(False, "no arrow %s -> %s: %r" % (src, dst, arrows))
a = find("producer", "relay")
if a:
    expect(0 <= a["from"]["x"] * k <= 100 and 200 <= a["to"]["x"] * k <= 300, "producer -> relay x: %r" % a)
a = find("relay", "consumer")
if a:
    expect(200 <= a["from"]["x"] * k <= 300 and 400 <= a["to"]["x"] * k <= 500, "relay -> consumer x: %r" % a)
for a in arrows:
    expect(a["from"]["x"] <= a["to"]["x"], "arrows go forward in time: %r" % a)
done()
