"""gentrace_job.py - gentrace.py's job of many ranks (the job sub-command):
one small Kineto trace per rank, as a data-parallel job's profiler writes
them (distributedInfo with the rank and the world size, times in us from
baseTimeNanoseconds), made to test and measure a figure of thousands of
ranks.

Each rank runs --steps profiler steps.  A step starts on every rank at
once (give or take --skew-us times the rank, and a few us): the host's
ProfilerStep#N on the main thread (tid = pid), and on the rank's GPU
(device rank % 8) stream 7: an HtoD memcpy, then --kernels kernels whose
busy share of the step differs from rank to rank (a pattern by node of 8
ranks and a per-rank part: between about 30 % and 85 %), Kineto's
gpu_user_annotation copy of the step over them, and an NCCL all-reduce on
stream 20 at the end.  The straggler (--straggler R) runs its kernels
--slow times as long, so its step, and its GPU work, end last; the next
step starts on every rank after it.  --truth FILE writes, per rank, the
busy time of stream 7's work (its kernels and memcpy, not the annotation)
in each step, and each step's end on the GPU, exactly as written (JSON
lines), for tests to check figures against.

Deterministic: the same arguments give the same bytes (gentrace.py's
notes).  Standard library only.
"""

import json
import os

from gentrace_base import Rand

STEP_US = 2000.0
NODE = 8


def busy_share(job, r, n):
    """The share of its step a rank's stream-7 work covers: a node-level
    pattern and a per-rank part, in [0.30, 0.85]."""
    node = (r // NODE * 37) % 16 / 15.0
    own = job[r]
    return 0.30 + 0.55 * (0.6 * node + 0.4 * own)


def fmt(us):
    return "%.3f" % us


def x_event(cat, name, pid, tid, ts, dur, extra=""):
    return ('{"ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": %d, "ts": %s, "dur": %s%s}'
            % (cat, json.dumps(name), pid, tid, fmt(ts), fmt(dur), extra))


KERNELS = ["void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
           "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_cublas",
           "void at::native::reduce_kernel<512, 1>",
           "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"]
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"


def rank_events(a, r, rng, share, starts, slow):
    """The events of rank r's steps, and its truth: [(step, busy_us, gpu_end_us)]."""
    pid, dev = 1000 + r, r % NODE
    ev, truth = [], []
    for n, t0 in enumerate(starts):
        step = a.first_step + n
        t = t0 + a.skew_us * r + rng.uniform(0.0, 4.0)
        length = STEP_US * slow
        # the memcpy, then the kernels in the compute phase
        mc0, mc = t + 0.01 * STEP_US, 0.04 * STEP_US
        phase0, phase = t + 0.06 * STEP_US, 0.84 * length
        work = share * length - mc  # the kernels' busy time
        if work < 0.05 * phase:
            work = 0.05 * phase
        weights = [rng.lognormal(1.0, 0.5) for _ in range(a.kernels)]
        gaps = [rng.lognormal(1.0, 0.7) for _ in range(a.kernels)]
        wsum, gsum = sum(weights), sum(gaps)
        idle = phase - work
        kev, x, busy = [], phase0, mc
        for k in range(a.kernels):
            x += idle * gaps[k] / gsum
            d = work * weights[k] / wsum
            kev.append(x_event("kernel", KERNELS[k % len(KERNELS)], dev, 7, x, d,
                               ', "args": {"stream": 7, "correlation": %d}' % (r * 100000 + n * 1000 + k)))
            x += d
            busy += d
        gpu_end = x
        nc0 = gpu_end + 0.01 * STEP_US
        ev.append(x_event("user_annotation", "ProfilerStep#%d" % step, pid, pid, t,
                          nc0 + 0.05 * STEP_US - t + 20.0))
        ev.append(x_event("cpu_op", "aten::copy_", pid, pid, t + 2.0, 0.02 * STEP_US))
        ev.append(x_event("gpu_user_annotation", "ProfilerStep#%d" % step, dev, 7, mc0,
                          gpu_end - mc0))
        ev.append(x_event("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", dev, 7, mc0, mc,
                          ', "args": {"stream": 7}'))
        ev.extend(kev)
        ev.append(x_event("kernel", NCCL, dev, 20, nc0, 0.05 * STEP_US, ', "args": {"stream": 20}'))
        truth.append((step, busy, gpu_end, t, nc0 + 0.05 * STEP_US + 20.0))
    return ev, truth


def metadata(r):
    pid, dev = 1000 + r, r % NODE
    m = '{"name": "%s", "ph": "M", "ts": 0, "pid": %d, "tid": %d, "args": {%s}}'
    return [m % ("process_name", pid, 0, '"name": "python3"'),
            m % ("process_labels", pid, 0, '"labels": "CPU"'),
            m % ("thread_name", pid, pid, '"name": "thread %d (python3)"' % pid),
            m % ("process_name", dev, 0, '"name": "python3"'),
            m % ("process_labels", dev, 0, '"labels": "GPU %d"' % dev),
            m % ("process_sort_index", dev, 0, '"sort_index": %d' % (16777216 + dev)),
            m % ("thread_name", dev, 7, '"name": "stream 7 "'),
            m % ("thread_name", dev, 20, '"name": "stream 20 "')]


def cmd_job(a):
    job_rng = Rand(a.seed)
    n = a.world_size
    own = [job_rng.r() for _ in range(n)]
    base = 1_700_000_000_000_000_000 // 7889238000000000 * 7889238000000000
    start = 3_600_000_000.0 + a.seed * 1000.0  # us from the base
    slow = [a.slow if r == a.straggler else 1.0 for r in range(n)]
    starts, t = [], start
    for _ in range(a.steps):
        starts.append(t)
        t += STEP_US * max(slow) + 300.0 + a.skew_us * n
    os.makedirs(a.out_dir, exist_ok=True)
    truth = open(a.truth, "w") if a.truth else None
    for r in range(n):
        rng = Rand(a.seed * 100003 + r + 1)
        ev, tr = rank_events(a, r, rng, busy_share(own, r, n), starts, slow[r])
        path = os.path.join(a.out_dir, "%s%d.json" % (a.prefix, r))
        with open(path, "w") as f:
            f.write('{"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": %d, '
                    '"world_size": %d},\n "traceEvents": [\n' % (r, n))
            f.write(",\n".join(metadata(r) + ev))
            f.write('\n ],\n "displayTimeUnit": "ms", "baseTimeNanoseconds": %d}\n' % base)
        if truth:
            for step, busy, gpu_end, h0, h1 in tr:
                truth.write(json.dumps({"rank": r, "step": step, "busy_us": round(busy, 3),
                                        "gpu_end_us": round(gpu_end, 3),
                                        "host_us": [round(h0, 3), round(h1, 3)]}) + "\n")
    if truth:
        truth.close()
    return 0


def add_parser(sub, positive, non_negative):
    p = sub.add_parser("job", help="a job of many ranks, one small Kineto trace each "
                                   "(DIR/rankN.json): varied busy shares, one straggler")
    p.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    p.add_argument("--out-dir", required=True, metavar="DIR", help="where the files go")
    p.add_argument("--prefix", default="rank", help="file names: PREFIXN.json (default rank)")
    p.add_argument("--world-size", type=positive, default=64, help="ranks (default 64)")
    p.add_argument("--steps", type=positive, default=2, help="profiler steps (default 2)")
    p.add_argument("--first-step", type=non_negative, default=1)
    p.add_argument("--kernels", type=positive, default=60,
                   help="kernels per step on stream 7 (default 60)")
    p.add_argument("--straggler", type=int, default=None, metavar="R",
                   help="the rank whose kernels run --slow times as long")
    p.add_argument("--slow", type=float, default=1.6, help="(default 1.6)")
    p.add_argument("--skew-us", type=float, default=0.0,
                   help="rank r starts its steps r times this late (default 0)")
    p.add_argument("--truth", metavar="FILE", default=None,
                   help="also write each rank's stream-7 busy time and GPU end per step")
    p.set_defaults(func=cmd_job, out="-")
