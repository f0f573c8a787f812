#!/usr/bin/env python3
"""gentrace_critpath.py - small Kineto-style traces for --critical-path
(tests/critpath), each a case whose critical path is known:

  gentrace_critpath.py CASE OUT.json

Times are whole microseconds.  Thread 1 of process 1 runs the step; GPU 0
(pid 0) runs the kernels on stream 7 (and 20).
"""

import json
import sys


class T:
    def __init__(self):
        self.ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1,
                    "tid": 1, "ts": 0, "dur": 2000}]

    def cpu(self, name, ts, dur, cat="cpu_op", **args):
        e = {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur}
        if args:
            e["args"] = args
        self.ev.append(e)

    def rt(self, name, ts, dur, corr):
        self.cpu(name, ts, dur, "cuda_runtime", correlation=corr)

    def gpu(self, name, ts, dur, corr, stream=7, cat="kernel", **args):
        a = {"device": 0, "stream": stream, "correlation": corr}
        a.update(args)
        self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream,
                        "ts": ts, "dur": dur, "args": a})

    def sync(self, name, ts, dur, corr, stream=-1, **args):
        a = {"device": 0, "stream": stream, "correlation": corr}
        a.update(args)
        self.ev.append({"ph": "X", "cat": "cuda_sync", "name": name, "pid": 0,
                        "tid": stream if stream >= 0 else 7, "ts": ts, "dur": dur, "args": a})

    def dump(self, path):
        with open(path, "w") as f:
            json.dump({"schemaVersion": 1, "traceEvents": self.ev}, f, indent=0)


def cpu_bound(t):
    """A long operator that launches one short kernel: the CPU bounds."""
    t.cpu("aten::big", 10, 1000)
    t.rt("cudaLaunchKernel", 900, 10, 1)
    t.gpu("k_small", 920, 10, 1)
    t.rt("cudaDeviceSynchronize", 1020, 20, 2)
    t.sync("Context Sync", 1020, 20, 2)


def gpu_bound(t):
    """A long kernel the CPU waits for (context synchronisation)."""
    t.cpu("aten::mm", 10, 20)
    t.rt("cudaLaunchKernel", 15, 5, 1)
    t.gpu("gemm", 25, 1000, 1)
    t.rt("cudaDeviceSynchronize", 40, 990, 2)
    t.sync("Context Sync", 40, 990, 2)


def comm_bound(t):
    """An NCCL collective the CPU waits for (stream synchronisation)."""
    t.cpu("c10d::allreduce_", 10, 20)
    t.rt("cudaLaunchKernel", 15, 5, 1)
    t.gpu("ncclDevKernel_AllReduce_Sum_f32", 25, 800, 1, stream=20)
    t.rt("cudaStreamSynchronize", 40, 790, 2)
    t.sync("Stream Sync", 40, 790, 2, stream=20)


def gaps(t):
    """Launch overhead, then a kernel-to-kernel gap on one stream."""
    t.cpu("aten::two", 10, 20)
    t.rt("cudaLaunchKernel", 12, 5, 1)
    t.rt("cudaLaunchKernel", 20, 5, 2)
    t.gpu("k1", 100, 100, 1)
    t.gpu("k2", 205, 95, 2)
    t.rt("cudaStreamSynchronize", 40, 270, 3)
    t.sync("Stream Sync", 40, 270, 3, stream=7)


def event_sync(t):
    """cudaEventSynchronize on an event recorded after k1: GPU -> CPU."""
    t.cpu("aten::one", 10, 25)
    t.rt("cudaLaunchKernel", 12, 5, 1)
    t.rt("cudaEventRecord", 20, 2, 3)
    t.gpu("k1", 30, 400, 1)
    t.rt("cudaEventSynchronize", 40, 400, 4)
    t.sync("Event Sync", 40, 400, 4, wait_on_stream=7, wait_on_cuda_event_record_corr_id=3)


def wait_event(t):
    """cudaStreamWaitEvent: k2 on stream 20 waits for k1 on stream 7."""
    t.cpu("aten::pair", 10, 30)
    t.rt("cudaLaunchKernel", 12, 4, 1)
    t.rt("cudaEventRecord", 17, 2, 2)
    t.rt("cudaStreamWaitEvent", 20, 2, 3)
    t.sync("Stream Wait Event", 22, 1, 3, stream=20, wait_on_stream=7,
           wait_on_cuda_event_record_corr_id=2)
    t.rt("cudaLaunchKernel", 24, 4, 5)
    t.gpu("k1", 40, 460, 1)
    t.gpu("k2", 500, 100, 5, stream=20)
    t.rt("cudaDeviceSynchronize", 50, 560, 6)
    t.sync("Context Sync", 50, 560, 6)


def dense(t):
    """A CPU-bound step of 150 launches 0.4 us long, each beside a Python
    function as short (not an operator: never on the path) and over a
    kernel as short: thinner than a fine bin, so merged into busy shares
    without --critical-path; a launch nested deeper (aten::deep in
    aten::mid) than --depth 3 draws."""
    t.cpu("aten::big", 10, 1000)
    for i in range(150):
        ts = 20 + 6 * i
        t.rt("cudaLaunchKernel", ts, 0.4, i + 1)
        t.cpu("py_tiny", ts + 2, 0.4, "python_function")
        t.gpu("k_tiny", ts + 4, 0.4, i + 1)
    t.cpu("aten::mid", 930, 40)
    t.cpu("aten::deep", 940, 20)
    t.rt("cudaLaunchKernel", 945, 0.4, 500)
    t.gpu("k_last", 950, 0.4, 500)
    t.rt("cudaDeviceSynchronize", 1012, 20, 501)
    t.sync("Context Sync", 1012, 20, 501)


def launches(t):
    """A GPU-bound loop: launch a kernel, wait for it (stream sync), again;
    30 rounds 8 us apart, then 10 rounds 46 us apart: a path that crosses
    between the thread and the stream 80 times, the close crossings drawn
    as one arrow (closer than 1/200 of the 2 ms window)."""
    corr = 0
    ts = 20
    for i in range(40):
        d = 3 if i < 30 else 40
        corr += 1
        t.rt("cudaLaunchKernel", ts, 1, corr)
        t.gpu("k_loop", ts + 2, d, corr)
        corr += 1
        t.rt("cudaStreamSynchronize", ts + 1.5, d + 1, corr)
        t.sync("Stream Sync", ts + 1.5, d + 1, corr, stream=7)
        ts += d + 5 if i < 30 else d + 6


def nocorr(t):
    """Kernels without correlation ids: nothing joins them to a launch."""
    t.cpu("aten::mm", 10, 20)
    t.cpu("cudaLaunchKernel", 15, 5, "cuda_runtime")
    t.ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 25,
                 "dur": 100, "args": {"stream": 7}})


def ac2g(t):
    """The GPU-bound step of gpu_bound, its kernel and sync joined to their
    launches by ac2g flows only (no correlation ids in the args, as MTIA's
    kernels have none)."""
    t.cpu("aten::mm", 10, 20)
    t.cpu("cudaLaunchKernel", 15, 5, "cuda_runtime")
    t.ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 25,
                 "dur": 1000, "args": {"device": 0, "stream": 7}})
    t.cpu("cudaDeviceSynchronize", 40, 990, "cuda_runtime")
    t.ev.append({"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": 7,
                 "ts": 40, "dur": 990, "args": {"device": 0, "stream": -1}})
    for fid, (cts, gts) in enumerate([(15, 25), (40, 40)], 1):
        t.ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": fid, "pid": 1, "tid": 1,
                     "ts": cts})
        t.ev.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": fid, "pid": 0, "tid": 7,
                     "ts": gts, "bp": "e"})


def nosync(t):
    """No cuda_sync events: one warning, as HTA's."""
    t.cpu("aten::mm", 10, 20)
    t.rt("cudaLaunchKernel", 15, 5, 1)
    t.gpu("gemm", 25, 100, 1)


def instances(t):
    """HTA's instance order: two steps (its load-time filter then drops the
    last step's rows) and the GPU's annotation of step 1 (no stream: a CPU
    row to HTA), last in the file.  HTA's instance 1 is that annotation,
    [25, 1125]; the second ProfilerStep in time is step 2."""
    t.cpu("aten::mm", 10, 20)
    t.rt("cudaLaunchKernel", 15, 5, 1)
    t.gpu("gemm", 25, 1000, 1)
    t.rt("cudaDeviceSynchronize", 40, 990, 2)
    t.sync("Context Sync", 40, 990, 2)
    t.cpu("aten::add", 1050, 40)
    t.rt("cudaLaunchKernel", 1060, 5, 3)
    t.gpu("k_add", 1070, 30, 3)
    t.cpu("aten::late", 1200, 700)
    t.cpu("ProfilerStep#2", 2100, 900, "user_annotation")
    t.cpu("aten::two", 2110, 90)
    t.rt("cudaLaunchKernel", 2120, 5, 4)
    t.gpu("k2", 2130, 370, 4)
    t.ev.append({"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0,
                 "tid": 7, "ts": 25, "dur": 1100, "args": {"External id": 1}})


def cpuwin(t):
    """A window without GPU work in a trace with some: HTA's path is the
    window's CPU operators ("## zero_grad ##": aten::zero_ alone); a window
    with nothing in it ("## empty ##"): HTA asserts, tracefig refuses; one
    of no length ("## instant ##", [1510, 1510]): aten::zero_ starts in it."""
    t.cpu("aten::mm", 10, 20)
    t.rt("cudaLaunchKernel", 15, 5, 1)
    t.gpu("gemm", 25, 1000, 1)
    t.rt("cudaDeviceSynchronize", 40, 990, 2)
    t.sync("Context Sync", 40, 990, 2)
    t.cpu("## zero_grad ##", 1500, 100, "user_annotation")
    t.cpu("aten::zero_", 1510, 80)
    t.cpu("aten::fill_", 1520, 60)
    t.cpu("## empty ##", 1700, 10, "user_annotation")
    t.cpu("## instant ##", 1510, 0, "user_annotation")


def old(t):
    """cpu_bound's step in PyTorch 1.8's Kineto categories (Operator,
    Runtime, Kernel; the step itself an Operator; no cuda_sync rows): HTA
    makes no node of an Operator (it asserts on such a trace); tracefig's
    own path takes them as cpu_op, the step aside."""
    t.ev[0]["cat"] = "Operator"
    t.cpu("aten::big", 10, 1000, "Operator")
    t.cpu("cudaLaunchKernel", 900, 10, "Runtime", correlation=1)
    t.gpu("k_small", 920, 10, 1, cat="Kernel")
    t.cpu("cudaDeviceSynchronize", 1020, 20, "Runtime", correlation=2)


CASES = {"cpu": cpu_bound, "gpu": gpu_bound, "comm": comm_bound, "gaps": gaps,
         "event-sync": event_sync, "wait-event": wait_event, "dense": dense, "launches": launches,
         "nocorr": nocorr, "ac2g": ac2g, "nosync": nosync, "instances": instances,
         "cpuwin": cpuwin, "old": old}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        sys.exit("usage: gentrace_critpath.py {%s} OUT.json" % ",".join(CASES))
    tr = T()
    CASES[sys.argv[1]](tr)
    tr.dump(sys.argv[2])
