# CUDA calls only: the threads that made them.
from lib import *
m = model()
expect_sane()
expect(labels() == ["train", "train / tid 4262"], "lanes %r" % labels())
expect({b["category"] for b in m["bars"]} == {"cuda_runtime"}, "calls only")
done()
