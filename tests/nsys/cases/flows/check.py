# --flows: an arrow from each CUDA call to the GPU work of the same
# correlationId: 6 kernels, 3 memcpy and 1 memset in the first step, each
# from the main thread down to a GPU lane, never backwards in time.
from lib import *
m = model()
expect_sane()
a = m["arrows"]
expect(len(a) == 10, "ten arrows: %d" % len(a))
gpu = {i for i, l in enumerate(labels()) if l.startswith("GPU ")}
for x in a:
    expect(x["from"]["lane"] == 0 and x["to"]["lane"] in gpu, "call -> GPU: %r" % x)
    expect(x["to"]["x"] >= x["from"]["x"], "forward in time: %r" % x)
ends = sorted({labels()[x["to"]["lane"]] for x in a})
expect(ends == ["GPU 0 / stream 13", "GPU 0 / stream 7", "GPU 1 / stream 21"], "ends %r" % ends)
done()
