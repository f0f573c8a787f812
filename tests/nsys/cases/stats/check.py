# The statistics of step 1 (110..128 ms), worked out by hand from the
# generator's program: per lane the union of its slices; per GPU the union
# of its streams; the GPU breakdown classifies kernels as for Kineto
# (ncclDevKernel_... is communication, Memcpy/Memset memory, the rest
# compute).
from lib import *
m = model()
s = m["stats"]
busy = {labels()[i]: l["busy_ms"] for i, l in enumerate(s["lanes"])}
want = {"GPU 0 / stream 7": 3.5, "GPU 0 / stream 13": 3.35, "GPU 1 / stream 21": 1.0,
        "train": 18.0, "train / tid 4262": 0.2}
for k, v in want.items():
    expect(near(busy.get(k, -1), v, 1e-9), "%s busy %r, want %r" % (k, busy.get(k), v))
g = {x["label"]: x["busy_ms"] for x in s["groups"]}
expect(near(g.get("GPU 0", -1), 4.86, 1e-9) and near(g.get("GPU 1", -1), 1.0, 1e-9), "groups %r" % g)
b = s["gpu_breakdown"]
for k, v in (("kernel_span_ms", 15.4), ("idle_ms", 10.54), ("compute_ms", 3.2),
             ("non_compute_ms", 1.66), ("comm_ms", 3.0)):
    expect(near(b[k], v, 1e-9), "%s %r, want %r" % (k, b[k], v))
expect(near(b["comm_comp_overlap_pct"], 66.33, 1e-9), "overlap %r" % b["comm_comp_overlap_pct"])
done()
