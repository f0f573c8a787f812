#!/usr/bin/env python3
"""A small distributed-step trace for the marks suite (tests/marks), with
known times: three ProfilerStep#N on the python thread, aten ops inside
them, GPU compute kernels and NCCL kernels on two streams, one NCCL kernel
exposed (no compute beside it).  Times in us (Chrome's ts/dur).

  gentrace_marks.py OUT.json [--times]   --times: print the events' times
"""
import json
import sys

PID_CPU, PID_GPU = 1, 0
TID_PY, TID_S7, TID_S20 = 11, 7, 20


def events():
    ev = []

    def x(name, cat, pid, tid, ts, dur):
        ev.append({"ph": "X", "name": name, "cat": cat, "pid": pid, "tid": tid,
                   "ts": ts, "dur": dur})

    t = 1000.0
    for step in range(1, 4):
        x("ProfilerStep#%d" % step, "user_annotation", PID_CPU, TID_PY, t, 4000.0)
        x("aten::copy_", "cpu_op", PID_CPU, TID_PY, t + 100, 400.0)
        x("aten::mm", "cpu_op", PID_CPU, TID_PY, t + 600, 900.0)
        x("aten::copy_", "cpu_op", PID_CPU, TID_PY, t + 1600, 300.0)
        x("gemm_kernel", "kernel", PID_GPU, TID_S7, t + 700, 1200.0)
        x("elementwise_kernel", "kernel", PID_GPU, TID_S7, t + 2000, 500.0)
        x("ncclDevKernel_AllReduce_Sum_f32", "kernel", PID_GPU, TID_S20, t + 2600, 1300.0)
        t += 4200.0
    # thin kernels, 1 us every 2 us, too thin to draw apart: the figure
    # merges them, the marks still name each
    for i in range(40):
        x("tiny_kernel", "kernel", PID_GPU, TID_S7, 3300.0 + 2.0 * i, 1.0)
    # two events whose names are one letter, on a worker thread: b before a
    x("b", "cpu_op", PID_CPU, 12, 1500.0, 500.0)
    x("a", "cpu_op", PID_CPU, 12, 6000.0, 500.0)
    ev.append({"ph": "M", "name": "process_name", "pid": PID_CPU, "args": {"name": "python"}})
    ev.append({"ph": "M", "name": "thread_name", "pid": PID_CPU, "tid": TID_PY,
               "args": {"name": "python3"}})
    ev.append({"ph": "M", "name": "thread_name", "pid": PID_CPU, "tid": 12,
               "args": {"name": "worker"}})
    ev.append({"ph": "M", "name": "process_name", "pid": PID_GPU, "args": {"name": "GPU 0"}})
    ev.append({"ph": "M", "name": "thread_name", "pid": PID_GPU, "tid": TID_S7,
               "args": {"name": "stream 7"}})
    ev.append({"ph": "M", "name": "thread_name", "pid": PID_GPU, "tid": TID_S20,
               "args": {"name": "stream 20"}})
    return ev


def main():
    out = sys.argv[1]
    ev = events()
    with open(out, "w") as f:
        json.dump({"traceEvents": ev, "displayTimeUnit": "ms"}, f)
    if "--times" in sys.argv[2:]:
        for e in ev:
            if e["ph"] == "X":
                print("%s\t%s\t%s" % (e["name"], e["ts"], e["ts"] + e["dur"]))


if __name__ == "__main__":
    main()
