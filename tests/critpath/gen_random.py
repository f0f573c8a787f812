#!/usr/bin/env python3
"""gen_random.py SEED OUT.json [KNOBS]: a random Kineto-style trace for
--critical-path, the same for the same seed (tests/critpath/fuzz.py
compares tracefig with HTA on it).

A simulated program: one to three CPU threads run top-level operators
(cpu_op) nested up to three deep; the innermost call cudaLaunchKernel
(kernels, NCCL kernels on a communication stream), cudaMemcpyAsync /
cudaMemsetAsync, cudaStreamSynchronize, cudaDeviceSynchronize,
cudaEventRecord then cudaEventSynchronize, cudaEventRecord then
cudaStreamWaitEvent (and a launch onto the waiting stream), cudaHostAlloc.
The GPU runs each stream in launch order, a kernel no earlier than its
launch, the stream's previous kernel and any event it waits for; the sync
calls return when the GPU work they wait for ends, with their cuda_sync
rows (Context Sync, Stream Sync, Event Sync, Stream Wait Event).
Durations may be 0; times are whole microseconds on a grid (1, 5 or 10 us)
so that starts and ends tie; sometimes two kernels of one stream overlap
(a trace's artefact), sometimes a second step follows (HTA's filter drops
it; it has no cudaStreamWaitEvent, on which HTA would fail).  KNOBS: comma-separated key=value overriding the drawn ones
(threads, streams, ops, grid, steps, overlap, phases: user annotations
"## phase N ##" around some top-level operators and the GPU's annotation
of each step, for HTA's instance order).
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from gentrace_critpath import T  # noqa: E402  (its gpu() and sync() rows)

NAMES = ["aten::mm", "aten::add", "aten::relu", "aten::copy_", "aten::conv2d",
         "aten::linear", "aten::sum", "aten::mul"]
KERNELS = ["gemm_k", "elementwise_k", "reduce_k", "conv_k"]
NCCL = ["ncclDevKernel_AllReduce_Sum_f32", "ncclKernel_AllGather_RING_LL_Sum_int8_t"]


class Sim(T):
    def __init__(self, rnd, knobs):  # not T's: make() writes the steps
        self.r = rnd
        self.k = knobs
        self.ev = []
        self.corr = 0
        self.stream_free = {}    # stream -> end of its last GPU row
        self.last_launch = {}    # stream -> corr of its last launch (event record)
        self.events = {}         # event id -> (record corr, stream, end of what it waits for)
        self.pending_wait = {}   # (tid, stream) -> end time the next kernel must wait for
        self.streams = [7, 20, 24][:knobs["streams"]]
        self.comm = self.streams[-1] if len(self.streams) > 1 else None
        self.no_wait = False  # no cudaStreamWaitEvent (the last of two steps)

    def t(self, x):
        g = self.k["grid"]
        return int(round(x / g)) * g

    def dur(self, lo, hi, zero=0.05):
        if self.r.random() < zero:
            return 0
        return self.t(self.r.uniform(lo, hi))

    def next_corr(self):
        self.corr += 1
        return self.corr

    def cpu(self, tid, name, ts, dur, cat="cpu_op", **args):
        e = {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur}
        if args:
            e["args"] = args
        self.ev.append(e)

    def launch(self, tid, ts, kind, stream):
        """A launch at ts (a runtime call); returns its end."""
        r = self.r
        corr = self.next_corr()
        call = {"kernel": "cudaLaunchKernel", "memcpy": "cudaMemcpyAsync",
                "memset": "cudaMemsetAsync"}[kind]
        d = self.dur(2, 8)
        self.cpu(tid, call, ts, d, "cuda_runtime", correlation=corr)
        start = max(ts + self.t(r.uniform(2, 15)), self.stream_free.get(stream, 0))
        w = self.pending_wait.pop((tid, stream), None)
        if w is not None:
            start = max(start, w)
        if self.k["overlap"] and r.random() < 0.1 and stream in self.stream_free:
            start = max(ts + 1, self.stream_free[stream] - self.t(r.uniform(1, 10)))
        start = self.t(start)
        if kind == "kernel":
            name = r.choice(NCCL) if stream == self.comm else r.choice(KERNELS)
            gd = self.dur(5, 300 if stream != self.comm else 800)
            self.gpu(name, start, gd, corr, stream)
        elif kind == "memcpy":
            gd = self.dur(2, 50)
            self.gpu("Memcpy HtoD (Pageable -> Device)", start, gd, corr, stream, "gpu_memcpy")
        else:
            gd = self.dur(1, 20)
            self.gpu("Memset (Device)", start, gd, corr, stream, "gpu_memset")
        self.stream_free[stream] = max(self.stream_free.get(stream, 0), start + gd)
        self.last_launch[stream] = (corr, start + gd)
        return ts + d

    def leaf(self, tid, ts):
        """One runtime action in an operator; returns its end."""
        r = self.r
        x = r.random()
        s = r.choice(self.streams)
        if x < 0.45:
            return self.launch(tid, ts, "kernel", s)
        if x < 0.55:
            return self.launch(tid, ts, r.choice(["memcpy", "memset"]), s)
        if x < 0.63:  # stream sync
            corr = self.next_corr()
            end = self.t(max(ts + self.dur(1, 5, 0), self.stream_free.get(s, 0) + 1))
            self.cpu(tid, "cudaStreamSynchronize", ts, end - ts, "cuda_runtime", correlation=corr)
            self.sync("Stream Sync", ts, end - ts, corr, stream=s)
            return end
        if x < 0.70:  # device sync
            corr = self.next_corr()
            done = max(self.stream_free.values(), default=0)
            end = self.t(max(ts + self.dur(1, 5, 0), done + 1))
            self.cpu(tid, "cudaDeviceSynchronize", ts, end - ts, "cuda_runtime", correlation=corr)
            self.sync("Context Sync", ts, end - ts, corr)
            return end
        if x < 0.80 and s in self.last_launch:  # event record, then event sync
            rc = self.next_corr()
            d = self.dur(1, 3)
            self.cpu(tid, "cudaEventRecord", ts, d, "cuda_runtime", correlation=rc)
            _, done = self.last_launch[s]
            ts2 = self.t(ts + d + r.uniform(0, 10))
            corr = self.next_corr()
            end = self.t(max(ts2 + self.dur(1, 5, 0), done + 1))
            self.cpu(tid, "cudaEventSynchronize", ts2, end - ts2, "cuda_runtime", correlation=corr)
            self.sync("Event Sync", ts2, end - ts2, corr, wait_on_stream=s,
                          wait_on_cuda_event_record_corr_id=rc)
            return end
        if x < 0.90 and s in self.last_launch and len(self.streams) > 1 and not self.no_wait:
            rc = self.next_corr()
            d = self.dur(1, 3)
            self.cpu(tid, "cudaEventRecord", ts, d, "cuda_runtime", correlation=rc)
            _, done = self.last_launch[s]
            other = r.choice([x for x in self.streams if x != s])
            ts2 = self.t(ts + d + r.uniform(0, 5))
            corr = self.next_corr()
            d2 = self.dur(1, 3)
            self.cpu(tid, "cudaStreamWaitEvent", ts2, d2, "cuda_runtime", correlation=corr)
            self.sync("Stream Wait Event", self.t(ts2 + d2 / 2), 0, corr, stream=other,
                          wait_on_stream=s, wait_on_cuda_event_record_corr_id=rc)
            self.pending_wait[(tid, other)] = done
            ts3 = self.t(ts2 + d2 + r.uniform(0, 5))
            return self.launch(tid, ts3, "kernel", other)
        d = self.dur(2, 30)
        self.cpu(tid, "cudaHostAlloc", ts, d, "cuda_runtime", correlation=self.next_corr())
        return ts + d

    def op(self, tid, ts, depth):
        """An operator at ts with children; returns its end."""
        r = self.r
        name = r.choice(NAMES)
        at = ts + (0 if r.random() < 0.3 else self.t(r.uniform(1, 10)))
        for _ in range(r.randint(1, 3)):
            if depth < 3 and r.random() < 0.4:
                at = self.op(tid, at, depth + 1)
            else:
                at = self.leaf(tid, at)
            at += 0 if r.random() < 0.3 else self.t(r.uniform(1, 10))
        end = at + (0 if r.random() < 0.3 else self.t(r.uniform(1, 10)))
        if r.random() < 0.03:  # a zero-duration operator, alone
            self.cpu(tid, name, ts, 0)
            return end
        self.cpu(tid, name, ts, end - ts)
        return end


def make(seed, knobs=None):
    r = random.Random(seed)
    k = {"threads": r.choice([1, 1, 2, 3]), "streams": r.choice([1, 2, 2, 3]),
         "ops": r.randint(2, 8), "grid": r.choice([1, 5, 10]),
         "steps": r.choice([1, 1, 2]), "overlap": r.random() < 0.3,
         "phases": r.random() < 0.5}
    k.update(knobs or {})
    s = Sim(r, k)
    ends = []
    step_ends = 0
    for step in range(k["steps"]):
        # HTA fails ("No objects to concatenate") when its filter leaves no
        # cudaStreamWaitEvent of those the trace has: none in a last step
        s.no_wait = k["steps"] > 1 and step == k["steps"] - 1
        start = step_ends + (10 if step else 0)
        tends = []
        # the threads' ops interleaved in time: each thread's next op at
        # its own clock, taken in order of the clocks
        clocks = {tid: start + s.t(r.uniform(0, 20)) for tid in range(1, k["threads"] + 1)}
        left = {tid: max(1, k["ops"] // k["threads"] + r.randint(-1, 1)) for tid in clocks}
        while any(left.values()):
            tid = min((c, t) for t, c in clocks.items() if left[t])[1]
            t0 = clocks[tid]
            end = s.op(tid, t0, 0)
            if k["phases"] and r.random() < 0.5:  # a user annotation around it
                s.cpu(tid, "## phase %d ##" % r.randint(1, 3), t0, end - t0, "user_annotation")
            clocks[tid] = end + (0 if r.random() < 0.3 else s.t(r.uniform(1, 20)))
            left[tid] -= 1
        tends = max(clocks.values())
        last = max([tends] + list(s.stream_free.values()))
        step_end = s.t(last + 5)
        gk = [e for e in s.ev if e["pid"] == 0 and e["cat"] != "cuda_sync" and e["ts"] >= start]
        if k["phases"] and gk:  # the GPU's annotation of the step (no stream: a CPU row to HTA)
            g0 = min(e["ts"] for e in gk)
            s.ev.append({"ph": "X", "cat": "gpu_user_annotation",
                         "name": "ProfilerStep#%d" % (step + 1), "pid": 0, "tid": s.streams[0],
                         "ts": g0, "dur": max(e["ts"] + e["dur"] for e in gk) - g0,
                         "args": {"External id": step + 1}})
        s.ev.insert(0, {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (step + 1),
                        "pid": 1, "tid": 1, "ts": start, "dur": step_end - start})
        step_ends = step_end
        ends.append(step_end)
    # Kineto's order: by process, then roughly by time, the GPU's
    # annotations last
    s.ev.sort(key=lambda e: (e["pid"] == 0, e["cat"] == "gpu_user_annotation", e["ts"]))
    meta = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": t, "args": {"name": "thread %d" % t}}
            for t in range(1, k["threads"] + 1)]
    return {"schemaVersion": 1, "traceEvents": meta + s.ev}, k


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: gen_random.py SEED OUT.json [key=value,...]")
    kn = {}
    if len(sys.argv) > 3 and sys.argv[3]:
        for kv in sys.argv[3].split(","):
            key, v = kv.split("=")
            kn[key] = int(v)
    d, _ = make(int(sys.argv[1]), kn)
    with open(sys.argv[2], "w") as f:
        json.dump(d, f, indent=0)
