# The older Kineto format (PyTorch 1.8-1.10, gentrace.py --format 2021):
# - one lane per thread: the CPU slices under the tid "N" and the flows
#   under the number N share it, named by the thread_name record given
#   under the string; the [memory] instants (under the number) are the
#   process's memory track, not ticks;
# - GPU lanes read "GPU 0 / stream 7" (process_labels "GPU 0", tid
#   "stream 7", no thread_name);
# - the profiler's span (process "Traces", category Trace) is not drawn and
#   neither it nor its global instants stretch the window;
# - Kernel, Memcpy, Memset, Operator and Runtime get the palette colours of
#   kernel, gpu_memcpy, gpu_memset, cpu_op and cuda_runtime.
from lib import *
m = model()
expect_sane()
lb = labels()
expect(lb[0] == "GPU 0 / stream 7" and re.match(r"GPU 0 / stream \d+$", lb[1]), "GPU lanes %r" % lb)
cpu = [l for l in lb if l.startswith("python / thread")]
expect(len(cpu) == 2 and all(re.match(r"python / thread \d+ \(python\)$", l) for l in cpu),
       "two CPU lanes, one per thread: %r" % lb)
expect(len(lb) == 5, "nothing else: %r" % lb)
expect(not any("Trace" in l or "tid" in l for l in lb), "no profiler or tid lane: %r" % lb)
expect(not bars("[memory]", shape="instant"), "[memory] not drawn as ticks")
mem = [l for _, l in counters()]
expect(len(mem) == 1 and mem[0]["label"] == "python / memory CUDA 0 allocated" and len(mem[0]["samples"]) > 1,
       "one memory track: %r" % lb)
want = {"Kernel": "#332288", "Memcpy": "#88CCEE", "Memset": "#44AA99", "Operator": "#117733",
        "Runtime": "#DDCC77"}
drawn = set()
for c in m["categories"]:
    if c["name"] in want and c["color"].upper() != "#CC6677":  # NCCL kernels apart
        drawn.add(c["name"])
        expect(c["color"].upper() == want[c["name"]],
               "%s drawn %s, want %s (as today's name)" % (c["name"], c["color"], want[c["name"]]))
expect({"Kernel", "Memcpy", "Operator", "Runtime"} <= drawn, "categories drawn: %r" % drawn)
# The window: the warmup event to the last event drawn, not the span's end.
t0 = min(b["x0"] for b in m["bars"])
t1 = max(b["x1"] for b in m["bars"])
expect(near(t0, 0) and near(t1, m["axis"]["span"]), "drawn %g..%g of %g" % (t0, t1, m["axis"]["span"]))
expect(any(re.search(r"1 lane that repeats", n) for n in m["notes"]), "the span's lane hidden: %r" % m["notes"])
done()
