# 20 000 kernels on 4 streams in the default window: kept as the fine busy
# histogram (at most a bar per fine bin and stream), drawn as share bars
# (at most a bar per point of the plot and stream).
from lib import *
m = model()
expect_sane()
expect(len(m["bars"]) <= 4 * 2048 + 1500, "%d bars" % len(m["bars"]))
svg = [f for _, f in svg_bars()]
expect(len(svg) <= 4 * 600 + 1500, "%d bars drawn" % len(svg))
expect(any(b["shape"] == "dense" for b in m["bars"]), "dense spans")
expect([l for l in labels() if l.startswith("GPU")] ==
       ["GPU 0 / stream 7", "GPU 0 / stream 8", "GPU 0 / stream 9", "GPU 0 / stream 10"], "lanes %r" % labels())
done()
