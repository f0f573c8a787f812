# Two series whose labels come out alike ("a b" + "c", "a" + "b c"; the CPU's
# memory by Device Id -1 and by 0, a mistyped Device Type read as 0) are
# still two tracks, each with its own samples and statistics (fuzz_chrome
# found them sharing one lane), and their labels are told apart (issue 18
# point 6: a count when nothing else differs).
from lib import *
m = model()
expect_sane()
c = [l for _, l in counters()]
expect([l["label"] for l in c] == ["pid 1 / a b c", "pid 1 / a b c #2", "pid 1 / memory CPU allocated",
                                   "pid 1 / memory CPU allocated #2"], "lanes %r" % labels())
expect(sorted(l["samples"][0][1] for l in c) == [1, 2, 100, 200], "samples %r" % [l["samples"] for l in c])
st = m["stats"]["counters"]
expect(sorted(k["lane"] for k in st) == [i for i, _ in counters()], "stats %r" % st)
done()
