# The full export (schema 3.24), default window: one lane per thread with
# events ("process / thread" from PROCESSES and ThreadNames; the main thread
# of "/opt/app/train" is just "train"; a thread without a name keeps its
# tid), then one per GPU device and stream; the nsys process and the
# threads without events have none.  No OS runtime calls without --osrt.
from lib import *
m = model()
expect_sane()
expect(labels() == ["train", "train / loader", "train / tid 4262", "GPU 0 / stream 7", "GPU 0 / stream 13", "GPU 1 / stream 21"], "lanes: %r" % labels())
# the default window: the first event (cuInit at 100 ms) to the last
# (train_step of step 3 ends at 168 ms); ms from the session's start
expect_window(100000, 168000)
cats = sorted({c["name"] for c in m["categories"]})
expect(cats == ["cuda_runtime", "gpu_memcpy", "gpu_memset", "kernel", "nvtx"],
       "categories %r (no osrt without --osrt)" % cats)
expect(not bars("read") and not bars("open64"), "no OS runtime calls")
expect(len(bars("train_step")) == 3 and len(bars("cudaStreamSynchronize")) == 3,
       "three steps, the call named without _v3020")
expect(not [b for b in m["bars"] if "_v" in b["name"]], "no version suffix left")
# the range never closed runs to the window's end, torn there
e = one_bar("epoch")
if e:
    expect(e["lane"] == 1 and e["clip_right"] and near(e["x1"], m["axis"]["span"]),
           "epoch: open to the end: %r" % e)
# the GPU lanes come after the threads and hold only GPU work
gpu = {b["category"] for b in m["bars"] if b["lane"] >= 3}
expect(gpu <= {"kernel", "gpu_memcpy", "gpu_memset"}, "GPU lanes hold %r" % gpu)
done()
