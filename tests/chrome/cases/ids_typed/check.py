# pid and tid as numbers and as strings ("stream 7", "Spans"), and a
# negative tid.  With no metadata the labels come from the ids, and the
# model gives them back exactly as typed in the trace.
from lib import *
m = model()
expect_sane()
expect(len(m["lanes"]) == 5, "five lanes: %r" % labels())
def lane_of(name):
    b = one_bar(name)
    return m["lanes"][b["lane"]] if b else None
l = lane_of("kernelA")
if l:
    expect(l["pid"] == 0 and l["tid"] == "stream 7", "kernelA ids %r" % l)
    expect("stream 7" in l["label"], "kernelA label %r" % l["label"])
l = lane_of("kernelB")
if l:
    expect(l["tid"] == "stream 20" and "stream 20" in l["label"], "kernelB lane %r" % l)
l = lane_of("sync")
if l:
    expect(l["pid"] == 0 and l["tid"] == -1 and isinstance(l["tid"], int), "sync ids %r" % l)
    expect("-1" in l["label"], "sync label %r" % l["label"])
l = lane_of("host")
if l:
    expect(l["pid"] == 4242 and l["tid"] == 4243, "host ids %r" % l)
l = lane_of("span")
if l:
    expect(l["pid"] == "Spans" and l["tid"] == "Spans", "span ids %r" % l)
    expect("Spans" in l["label"], "span label %r" % l["label"])
# Order: pid numerically first (0 before 4242; numbers before strings),
# then tid: numbers (-1) before strings.
order = [m["bars"][i]["name"] for i in range(len(m["bars"]))]
first = {}
for b in m["bars"]:
    first.setdefault(b["lane"], b["name"])
got = [first[i] for i in range(len(m["lanes"]))]
expect(got[0] == "sync" and got[3] == "host" and got[4] == "span"
       and sorted(got[1:3]) == ["kernelA", "kernelB"], "lane order by pid, tid: %r" % got)
done()
