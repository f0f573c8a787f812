# The same program exported by nsys 2022.1 (schema 2.9: EXPORT_META_DATA,
# no TARGET_INFO_CUDA_STREAM, no ENUM_* tables, fewer columns): the same
# lanes, bars and names; the memset, whose memKind column that layout
# lacks, is just "Memset".
from lib import *
m = model()
expect_sane()
expect(labels() == ["train", "train / loader", "train / tid 4262", "GPU 0 / stream 7", "GPU 0 / stream 13", "GPU 1 / stream 21"], "lanes: %r" % labels())
expect_window(100000, 168000)
expect(len(bars("Memset")) == 3, "memset without its kind: %r" % [b["name"] for b in m["bars"] if b["category"] == "gpu_memset"])
expect(len(bars("forward")) == 3, "NVTX text inline in 2.9")
done()
