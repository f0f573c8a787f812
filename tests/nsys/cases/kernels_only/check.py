# An export with kernels only: GPU lanes alone.
from lib import *
m = model()
expect_sane()
expect(labels() == ["GPU 0 / stream 7", "GPU 0 / stream 13", "GPU 1 / stream 21"], "lanes %r" % labels())
expect({b["category"] for b in m["bars"]} == {"kernel"}, "kernels only")
done()
