# NVTX colours when the export records them (ARGB 0xFF76B900 ...); the
# others in the palette's nvtx colour; kernels in Kineto's kernel colour.
from lib import *
m = model()
cat = {}
for c in m["categories"]:  # the first "kernel" (the second is the NCCL one)
    cat.setdefault(c["name"], c["color"].upper())
expect(svg_fill("train_step") == "#76B900", "train_step %r" % svg_fill("train_step"))
expect(svg_fill("forward") == "#1F77B4", "forward %r" % svg_fill("forward"))
expect(svg_fill("load_batch") == "#FF7F0E", "load_batch %r" % svg_fill("load_batch"))
expect(svg_fill("layer_0") == cat["nvtx"] == "#AA4499", "layer_0 %r, nvtx %r" % (svg_fill("layer_0"), cat.get("nvtx")))
expect(cat.get("kernel") == "#332288" and cat.get("cuda_runtime") == "#DDCC77", "palette %r" % cat)
done()
