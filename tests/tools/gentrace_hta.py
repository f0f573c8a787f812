"""gentrace_hta.py - gentrace.py's small Kineto-style traces for the HTA
comparison (the hta sub-command, tests/hta).
"""

import json

from gentrace_base import Out, Rand, jstr, us3

# ---------------------------------------------------------------------------
# hta: small traces for the comparison with HTA itself (tests/hta)
# ---------------------------------------------------------------------------

HTA_CASES = ("kineto-frac", "kineto-int", "rocm", "mtia", "mtia-runfn", "nogpu", "strings",
             "err-corr", "err-noargs", "err-stream-inf", "err-noname", "err-step")


class HtaTrace:
    """Events with integer ns times, written as us (3 decimals, or whole)."""

    def __init__(self, rng, frac):
        self.rng = rng
        self.frac = frac
        self.ev = []
        self.corr = 1000

    def t(self, ns):
        return us3(ns) if self.frac else "%d" % (ns // 1000)

    def x(self, cat, name, pid, tid, ts, dur, args=None, **extra):
        e = [("ph", '"X"'), ("cat", jstr(cat) if cat is not None else None),
             ("name", jstr(name) if name is not None else None), ("pid", jstr(pid)),
             ("tid", jstr(tid)), ("ts", self.t(ts)), ("dur", self.t(dur))]
        if args is not None:
            e.append(("args", args if isinstance(args, str) else json.dumps(args)))
        for k, v in extra.items():
            e.append((k, v))
        self.ev.append("{" + ", ".join("%s: %s" % (jstr(k), v) for k, v in e if v is not None)
                       + "}")

    def meta(self, pid, tid, what, name):
        self.ev.append('{"ph": "M", "name": %s, "pid": %s, "tid": %s, "ts": 0, "args": {"name": %s}}'
                       % (jstr(what), jstr(pid), jstr(tid), jstr(name)))

    def next_corr(self):
        self.corr += 1
        return self.corr

    def write(self, out, top=""):
        out.write('{\n  "schemaVersion": 1,%s\n  "traceEvents": [\n    ' % top)
        out.write(",\n    ".join(self.ev))
        out.write('\n  ],\n  "displayTimeUnit": "ms"\n}\n')


COMPUTE_NAMES = ("ampere_sgemm_128x64_nn", "void at::native::vectorized_elementwise_kernel<4>",
                 "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm>", "triton_poi_fused_add_0",
                 "void at::native::reduce_kernel<512, 1>", "SyncBatchNormForward")


def hta_gpu_loop(k, a, kind):
    """ProfilerSteps of CPU ops launching kernels on compute, copy and
    communication streams; kind: nvidia, rocm or mtia."""
    r = k.rng
    cpu_pid, gpu_pid, main = 100, 0, 101
    stream = {"nvidia": (7, 13, 20), "rocm": (0, 3, 4), "mtia": (1, 2, 3)}[kind]
    launch = {"nvidia": "cudaLaunchKernel", "rocm": "hipLaunchKernel",
              "mtia": "runFunction - job_prep_and_submit_for_execution"}[kind]
    rt_cat = "mtia_runtime" if kind == "mtia" else "cuda_runtime"
    k_cat = "mtia_ccp_events" if kind == "mtia" else "kernel"
    t = 5000000 + r.below(999)
    gpu_free = {s: 0 for s in stream}
    for step in range(a.steps):
        step_t0 = t
        ops = []
        for i in range(a.ops):
            op_t0 = t
            t += 2000 + r.below(8000)
            corr = k.next_corr()
            rt_t0 = t
            t += 3000 + r.below(4000)
            rt_args = {"correlation": corr, "external id": corr}
            if kind == "rocm":
                rt_args["stream"] = "0x0"
            k.x(rt_cat, launch if r.chance(0.9) else "cudaMemcpyAsync", cpu_pid, main, rt_t0,
                t - rt_t0, rt_args)
            if kind == "nvidia" and r.chance(0.05):
                # a driver row under the launch, with the same correlation
                k.x("cuda_driver", "cuLaunchKernel", cpu_pid, main, rt_t0 + 100, 500,
                    {"correlation": corr})
            pick = r.r()
            if kind == "mtia":
                names = ("pe_exe", "job_exe_subgraph", "dma_request", "fused_gemm_kernel",
                         "packet_xfer", "mtia_fused_relu")
                name = names[r.below(len(names))]
                s = stream[r.below(len(stream))]
            elif pick < 0.15:
                name, s = ("ncclDevKernel_AllReduce_Sum_f32_RING_LL" if kind == "nvidia"
                           else "ncclDevKernel_Generic"), stream[2]
            elif pick < 0.25:
                name, s = "Memcpy DtoD (Device -> Device)", stream[1]
            elif pick < 0.3:
                name, s = "Memset (Device)", stream[0]
            else:
                name, s = COMPUTE_NAMES[r.below(len(COMPUTE_NAMES))], stream[0]
            cat = k_cat if not name.startswith("Mem") else (
                "gpu_memcpy" if name.startswith("Memcpy") else "gpu_memset")
            n_kern = 3 if (kind == "nvidia" and r.chance(0.05)) else 1  # a graph launch
            start = max(rt_t0 + 2000 + r.below(3000), gpu_free[s])
            for j in range(n_kern):
                if r.chance(0.25):
                    dur = 100 + r.below(900)          # under 1 us: negative once rounded
                elif r.chance(0.3):
                    dur = 1000 + r.below(9000)
                else:
                    dur = 10000 + r.below(200000)
                # same-microsecond starts across streams, now and then
                if r.chance(0.2):
                    start = start // 1000 * 1000 + r.below(1000)
                k.x(cat, name, gpu_pid, s, start, dur,
                    {"device": 0, "stream": s, "correlation": corr, "external id": corr})
                gpu_free[s] = start + dur + (0 if r.chance(0.3) else r.below(5000))
                start = gpu_free[s]
            if kind == "nvidia" and r.chance(0.08):
                sync = "Stream Sync" if r.chance(0.5) else "Event Sync"
                c2 = k.next_corr()
                k.x("cuda_runtime", "cudaStreamSynchronize", cpu_pid, main, t, 3000,
                    {"correlation": c2})
                k.x("cuda_sync", sync, gpu_pid, stream[0], t + 200, 2000 + r.below(30000),
                    {"device": 0, "stream": stream[0] if sync == "Stream Sync" else -1,
                     "correlation": c2})
                t += 3000
            if kind == "mtia" and r.chance(0.1):
                # a memory kernel with no stream nor correlation (HTA gives it its tid)
                k.x(k_cat, "dmaXferH2D", gpu_pid, 9, t + 500, 400 + r.below(20000), {"device": 0})
            t += 1000 + r.below(3000)
            k.x("cpu_op", "aten::op_%d" % (i % 7), cpu_pid, main, op_t0, t - op_t0,
                {"External id": corr, "Sequence number": i})
            ops.append(corr)
        t += 5000 + r.below(20000)
        k.x("user_annotation", "ProfilerStep#%d" % (a.first_step + step), cpu_pid, main, step_t0,
            t - step_t0, {"External id": 1})
        if kind == "nvidia":
            k.x("gpu_user_annotation", "ProfilerStep#%d" % (a.first_step + step), gpu_pid,
                stream[0], step_t0 + 4000, t - step_t0, {"device": 0, "stream": stream[0]})
        t += 1000 + r.below(5000)


def cmd_hta(a):
    rng = Rand(a.seed)
    out = Out(a.out)
    case = a.case
    frac = case not in ("kineto-int", "strings")
    k = HtaTrace(rng, frac)
    k.meta(100, 101, "thread_name", "python main")
    k.meta(0, 7, "thread_name", "stream 7")
    top = ""
    if case in ("kineto-frac", "kineto-int", "err-corr", "err-stream-inf", "err-noname",
                "err-step"):
        if case == "kineto-int":
            a.steps = 1
        hta_gpu_loop(k, a, "nvidia")
        top = '\n  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},'
    elif case == "rocm":
        hta_gpu_loop(k, a, "rocm")
    elif case == "mtia":
        hta_gpu_loop(k, a, "mtia")
        top = '\n  "distributedInfo": {"backend": "mtia:hccl", "rank": 0, "world_size": 1},'
    elif case == "mtia-runfn":
        hta_gpu_loop(k, a, "mtia")
    elif case == "nogpu":
        t = 1000000
        for step in range(a.steps):
            t0 = t
            for i in range(a.ops):
                d = 1000 + rng.below(50000)
                k.x("cpu_op", "aten::mm", 100, 101, t, d, {"External id": i})
                t += d + rng.below(3000)
            k.x("user_annotation", "ProfilerStep#%d" % step, 100, 101, t0, t - t0, {})
    elif case == "strings":
        values = ['"7"', '" 7 "', '"7.5"', '"abc"', 'true', '3.9', 'null', '"0x0"', '"-1"',
                  '7', '"1e1"', '[7]']
        t = 1000000
        for i in range(a.ops * a.steps):
            d = 2000 + rng.below(40000)
            v = values[rng.below(len(values))]
            how = rng.r()
            if how < 0.1:
                args = None
            elif how < 0.15:
                args = "[1, 2]"
            else:
                args = '{"stream": %s, "correlation": %d}' % (v, i)
            k.x("kernel", COMPUTE_NAMES[i % len(COMPUTE_NAMES)], 0, 7, t, d, args)
            t += d // 2 + rng.below(20000)
    elif case == "err-noargs":
        k = HtaTrace(rng, frac)
        for i in range(20):
            k.x("kernel", "gemm", 0, 7, 1000000 + i * 50000, 20000)
    if case == "err-corr":
        k.x("cpu_op", "aten::weird", 100, 101, 4000000, 1000, {"correlation": "12"})
    elif case == "err-stream-inf":
        k.x("kernel", "gemm", 0, 7, 4000000, 1000, {"stream": "inf", "correlation": 5})
    elif case == "err-noname":
        k.x("kernel", None, 0, 7, 4000000, 1000, {"stream": 7, "correlation": 5})
    elif case == "err-step":
        k.x("user_annotation", "ProfilerStep warmup", 100, 101, 4000000, 1000, {})
    k.write(out, top)
    out.close()
    return 0
