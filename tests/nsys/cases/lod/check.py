# 20 000 kernels on 4 streams in the default window: merged into dense
# spans, the figure stays small.
from lib import *
m = model()
expect_sane()
expect(len(m["bars"]) <= 1500, "%d bars" % len(m["bars"]))
expect(any(b["shape"] == "dense" for b in m["bars"]), "dense spans")
expect([l for l in labels() if l.startswith("GPU")] ==
       ["GPU 0 / stream 7", "GPU 0 / stream 8", "GPU 0 / stream 9", "GPU 0 / stream 10"], "lanes %r" % labels())
done()
