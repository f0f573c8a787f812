# A series whose every sample lies before the window holds its last value
# across it (one sample, at the window's start); one stopped before the
# window, or starting after it, has no track.
from lib import *
m = model()
expect_sane()
expect_window(100, 200)
expect(labels() == ["pid 1 / level v", "pid 1 / tid 1"], "lanes %r" % labels())
expect(samples("pid 1 / level v") == [(0, 9)], "level %r" % samples("pid 1 / level v"))
k = counter_stats("pid 1 / level v")
expect(k and k["min"] == k["max"] == k["mean"] == 9, "stats %r" % k)
done()
