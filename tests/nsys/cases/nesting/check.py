# Push/pop ranges nest as flame rows, the calls they hold below them:
# train_step (row 0) > forward, backward (row 1) > layer_N (row 2) >
# cudaLaunchKernel (row 3); on the loader thread the start/end range
# load_batch above the read it holds.  The second step: 130..148 ms.
from lib import *
m = model()
expect_sane()
expect_window(130000, 148000)
def rows(name):
    return sorted({b["row"] for b in bars(name)})
expect(rows("train_step") == [0], "train_step %r" % rows("train_step"))
expect(rows("forward") == [1] and rows("backward") == [1], "forward/backward")
for k in range(3):
    expect(rows("layer_%d" % k) == [2], "layer_%d %r" % (k, rows("layer_%d" % k)))
lb = [b for b in bars("cudaLaunchKernel") if b["lane"] == 0]
# A launch is 3 us, thinner than a fine bin (18 ms / 2048): one across a
# bin's edge is held as the runtime's busy share of the two bins.
under = set()
for b in m["bars"]:
    if b["lane"] == 0 and b["row"] == 3 and (b["name"] == "cudaLaunchKernel" or
                                             "cuda_runtime" in b.get("busy", {})):
        under.add(int(b["x0"]) // 2)
expect(len(under) == 3, "a launch under each layer: %r" % sorted(under))
expect(any(b["row"] == 2 for b in lb), "launches under backward: %r" % lb)
expect_span("forward", 1000, 9000)
expect_span("layer_1", 4000, 5500)
lo = [b for b in m["bars"] if b["lane"] == 1 and b["name"] in ("load_batch", "epoch")]
expect(sorted(b["name"] for b in lo) == ["epoch", "load_batch"], "loader ranges %r" % lo)
expect(m["lanes"][0]["rows"] == 4, "the main thread is 4 rows deep: %r" % m["lanes"][0])
done()
