#!/usr/bin/python3
"""gentrace.py - tracefig's own generator of test traces.

    /usr/bin/python3 tests/tools/gentrace.py SUBCOMMAND [options] [--out FILE]

Sub-commands (each takes --seed N and --out FILE, '-' or nothing for stdout):

  timeline   a pipelined_timeline_v1 / _v2 document: a simulated double-buffered
             pipeline (see PIPELINE below).  Any length: the events are written
             as they are produced, so --num-candidates 250000 (about 1e6 events)
             runs in a few MB of memory.
  breakdown  a candidate_breakdown_v1 document (io_ms, gpu_ms per op) from a
             small analytic cost model of one candidate on a chosen GPU.
  pytorch    a legacy torch.profiler Chrome trace of the same pipeline, the input
             of tracefig's PyTorch mode: Candidate_Eval_N windows, I/O blocks
             (POSIX_Lustre_Read..., IO_Wait_For_GPU), compute blocks
             (H2D_Transfer, Math_Operations), and the usual noise (cpu_op,
             cuda_runtime, kernels, ac2g flows, M metadata).  --size BYTES
             streams a file of about that size.
  kineto     a modern PyTorch profiler (Kineto) Chrome trace of a data-parallel
             training loop: ProfilerStep#N steps, nested cpu_op / python_function
             events on a main and an autograd thread, CUDA runtime calls, GPU
             kernels with long C++ template names, memcpy/memset, NCCL kernels
             on their own stream, ac2g and fwdbwd flows, Kineto's metadata
             records.  --size BYTES (e.g. 1e9) or --steps N; --gzip;
             --memory current|2021: also [memory] instants, with Kineto's
             totals or (2021) only the bytes of each allocation and free.
  counters   counter (C) events of several series beside slices, in the
             forms writers use: series left out of events (they hold), ids,
             numbers as strings, null stopping a series that restarts later;
             --bad-values, --shuffle (a trace out of time order).

  job        a job of many ranks, one small Kineto trace per rank (DIR/rankN.json):
             busy shares that differ by node and by rank, one straggler
             (--straggler R), --truth FILE: each rank's busy time and end
             (gentrace_job.py).
  hta        small Kineto-style traces for the HTA comparison (tests/hta):
             --case kineto-frac (fractional ns timestamps, several
             ProfilerSteps, NCCL on its own stream, sub-microsecond kernels
             that start in the same microsecond, sync rows with a stream,
             CUDA-graph launches), kineto-int (whole microseconds, one
             step), rocm (hip launches with string streams, stream 0),
             mtia and mtia-runfn (MTIA names, steps, memory kernels without a
             stream), nogpu (no GPU work), strings (string, float, bool
             and missing streams and args), and the traces HTA raises on:
             err-corr, err-noargs, err-stream-inf, err-noname, err-step.

Determinism: the same arguments give the same bytes on every machine.  All
randomness comes from one seeded random.Random, and only from its random()
method; normal deviates and exp() are computed here with + - * / only (libm's
functions may differ in the last bit between platforms); no dict or set is
iterated in hash order; nothing depends on the clock, the locale or the
environment.  (With --gzip the header carries no name and no time; the
compressed bytes still depend on the zlib build, the JSON inside does not.)

PIPELINE (timeline and pytorch).  The profiled program evaluates candidates
0, 1, ... in a loop.  Candidate 0 is read synchronously.  For candidate c the
main thread waits until the data of c is loaded (v2: main "wait_for_io"),
optionally runs a host-side triangular solve (v2: main "trsm_host") and
sometimes stalls on unrecorded host work (--stall-prob; --record-stalls writes
it as main "await_dispatch"), then dispatches the GPU work of c on stream
c % B (gpu "compute", from the dispatch until the GPU has finished it; the
GPU runs one candidate at a time, so the streams' bars overlap in wall-clock
time when the GPU is the bottleneck), and hands candidate c+1 to the I/O
thread.  That thread first waits until buffer (c+1) % B is free, i.e. until the
GPU is done with candidate c+1-B (v2: io "gpu_buffer_wait"), then reads
(io "hdf5_read", from the hand-over to the end of the read).  Read times are
log-normal around --read-ms with occasional slow reads and phases of a
contended file system; compute times are log-normal around --compute-ms.
Events are written in the order the profiler records them: when they end.

Run with /usr/bin/python3 (standard library only).  tests/tools/README.md has
examples.
"""

import argparse
import heapq
import json
import sys
import tempfile

from gentrace_base import (Durations, Out, Rand, epoch_ns, exp_, gpu_properties, jstr,
                           non_negative, parse_size, positive, positive_float, probability, us3)
from gentrace_hta import HTA_CASES, cmd_hta
from gentrace_job import add_parser as add_job_parser
from gentrace_kineto import cmd_kineto, cmd_ranks, parse_ranks

# ---------------------------------------------------------------------------
# timeline
# ---------------------------------------------------------------------------


class TimelineWriter:
    def __init__(self, out, version, indent, meta, metadata_last):
        self.out = out
        self.first = True
        fmt = "pipelined_timeline_v%d" % version
        if indent == 0:
            p1 = p2 = p3 = ""
            self.ev_fmt = ('{"lane": "%s", "name": "%s", "candidate": %d, '
                           '"start_ms": %r, "dur_ms": %r, "buffer": %d}')
        else:
            p1, p2, p3 = " " * indent, " " * (2 * indent), " " * (3 * indent)
            self.ev_fmt = (p2 + "{\n"
                           + p3 + '"lane": "%s",\n'
                           + p3 + '"name": "%s",\n'
                           + p3 + '"candidate": %d,\n'
                           + p3 + '"start_ms": %r,\n'
                           + p3 + '"dur_ms": %r,\n'
                           + p3 + '"buffer": %d\n'
                           + p2 + "}")
        meta_lines = [p1 + '"%s": %s' % (k, json.dumps(v)) for k, v in meta]
        head = [p1 + '"format": "%s"' % fmt]
        if not metadata_last:
            head += meta_lines
        self.head = "{\n" + ",\n".join(head) + ",\n" + p1 + '"events": [\n'
        tail = [p1 + "]"]
        if metadata_last:
            tail += meta_lines
        self.tail = "\n" + ",\n".join(tail) + "\n}\n"
        out.write(self.head)

    def event(self, lane, name, cand, start, dur, buf):
        if self.first:
            self.first = False
        else:
            self.out.write(",\n")
        self.out.write(self.ev_fmt % (lane, name, cand, start, dur, buf))

    def close(self):
        self.out.write(self.tail)


def cmd_timeline(a):
    n = a.num_candidates
    start = a.record_from if a.start_candidate is None else a.start_candidate
    if not 0 <= a.record_from < n:
        sys.exit("gentrace: --record-from must be in [0, %d]" % (n - 1))
    if a.version == 1 and (a.trsm_prob > 0 or a.record_stalls):
        sys.exit("gentrace: trsm_host and await_dispatch events exist only in v2")
    rng = Rand(a.seed)
    dur = Durations(rng, a.read_ms, a.compute_ms, a.jitter)
    v2 = a.version >= 2
    nbuf = a.buffers
    meta = [("start_candidate", start), ("focus_candidate", start),
            ("timeline_record_from", a.record_from), ("num_candidates", a.plot_candidates),
            ("max_evals", n)]
    out = Out(a.out)
    w = TimelineWriter(out, a.version, a.indent, meta, a.metadata_last)

    # Events wait in a heap until nothing recorded later can end before them.
    # Every event made from iteration c on starts at or after the main
    # thread's clock at the top of iteration c, so that clock bounds them.
    heap = []
    seq = 0
    capture = max(0, a.record_from - 1)   # x-1 is captured too
    t0 = None                              # the tracer's zero, set when capture starts

    def rec(lane, name, cand, s, e):
        nonlocal seq
        if cand < capture or t0 is None:
            return
        heapq.heappush(heap, (e, seq, lane, name, cand, s - t0, e - s, cand % nbuf))
        seq += 1

    def flush(bound):
        while heap and heap[0][0] < bound:
            _, _, lane, name, cand, s, d, b = heapq.heappop(heap)
            w.event(lane, name, cand, s, d, b)

    read_end = {}    # candidate -> when its data is in memory
    gpu_done = {}    # candidate -> when the GPU finished it (last nbuf kept)
    gpu_free = 0.0
    t = 0.0
    if capture == 0:
        t0 = 0.0
    # Candidate 0: read by the main thread itself before the loop.
    s = t + rng.uniform(0.01, 0.03)
    e = s + dur.read()
    rec("io", "hdf5_read", 0, s, e)
    read_end[0] = e
    t = e + rng.uniform(0.02, 0.09)
    for c in range(n):
        flush(t)
        if c > 0:
            woke = max(t, read_end.pop(c))
            woke += rng.uniform(0.1, 0.9) if rng.chance(0.08) else rng.uniform(0.004, 0.05)
            if v2:
                rec("main", "wait_for_io", c, t, woke)
            t = woke
        if v2 and a.trsm_prob > 0 and rng.chance(a.trsm_prob):
            e = t + rng.uniform(12.0, 55.0)
            rec("main", "trsm_host", c, t, e)
            t = e
        if a.stall_prob > 0 and rng.chance(a.stall_prob):
            e = t + rng.uniform(2.0, 24.0)
            if a.record_stalls:
                rec("main", "await_dispatch", c, t, e)
            t = e
        if c == capture and capture > 0:
            t0 = t   # capture starts with this dispatch (of x-1)
        t += rng.uniform(0.005, 0.03)
        ex0 = max(t + rng.uniform(0.02, 0.06), gpu_free)
        gpu_free = ex0 + dur.compute()
        gpu_done[c] = gpu_free
        gpu_done.pop(c - nbuf, None)
        rec("gpu", "compute", c, t, gpu_free + rng.uniform(0.01, 0.04))
        t += rng.uniform(0.6, 2.2)   # the host launches the kernels
        if c + 1 < n:
            # Hand-over to the I/O thread: wait for the buffer, then read.
            hs = t + rng.uniform(0.02, 0.12)
            free_at = gpu_done.get(c + 1 - nbuf, hs)
            we = max(hs, free_at) + rng.uniform(0.004, 0.02)
            if v2:
                rec("io", "gpu_buffer_wait", c + 1, hs, we)
            rs = we + rng.uniform(0.005, 0.03)
            re = rs + dur.read()
            rec("io", "hdf5_read", c + 1, hs, re)
            read_end[c + 1] = re
            t += rng.uniform(0.02, 0.06)
    flush(float("inf"))
    w.close()
    out.close()
    return 0


# ---------------------------------------------------------------------------
# breakdown
# ---------------------------------------------------------------------------

# name: (host-to-device GB/s, device memory GB/s, TRSM TFLOP/s, GEMM TFLOP/s,
#        Cholesky of the small block in ms) -- sustained rates, not peaks.
GPUS = {
    "a100": (24.0, 1500.0, 14.0, 17.0, 0.55),
    "a100-x8-shared-pcie": (6.5, 1500.0, 14.0, 17.0, 0.55),
    "h100": (48.0, 3000.0, 32.0, 48.0, 0.32),
    "h200": (52.0, 4300.0, 33.0, 52.0, 0.26),
    "l40s": (25.0, 800.0, 26.0, 40.0, 0.45),
    "v100": (11.5, 820.0, 9.0, 12.5, 0.85),
}


def cmd_breakdown(a):
    rng = Rand(a.seed)
    h2d, hbm, trsm_tf, gemm_tf, chol_ms = GPUS[a.gpu]
    rows = a.k * a.nt          # rows of the tall block
    nt = a.nt
    src = 8 if a.cast else 4   # bytes per stored element

    def jit(ms, sigma=0.04):
        return ms * exp_(sigma * rng.normal())

    gpu = {}
    gpu["h2d_si"] = jit(rows * nt * src / (h2d * 1e9) * 1e3)
    gpu["h2d_ii"] = jit(nt * nt * src / (h2d * 1e9) * 1e3 + 0.015, 0.1)
    if a.cast:
        gpu["cast_si"] = jit(rows * nt * 12.0 / (hbm * 1e9) * 1e3 + 0.008)
        gpu["cast_ii"] = jit(nt * nt * 12.0 / (hbm * 1e9) * 1e3 + 0.005, 0.1)
    gpu["scale_si"] = jit(rows * nt * 8.0 / (hbm * 1e9) * 1e3 + 0.006)
    gpu["trsm"] = jit(float(rows) * rows * nt / (trsm_tf * 1e12) * 1e3)
    gpu["scale_ii_diag"] = jit(nt * nt * 8.0 / (hbm * 1e9) * 1e3 + 0.009, 0.1)
    gpu["schur_gemm"] = jit(2.0 * nt * nt * rows / (gemm_tf * 1e12) * 1e3)
    gpu["chol"] = jit(chol_ms, 0.1)
    for item in a.extra:
        key, _, value = item.partition("=")
        gpu[key] = float(value)
    iob = {}
    if not a.no_io_wait:
        iob["gpu_buffer_wait"] = rng.uniform(0.02, 55.0)
    iob["hdf5_read_si"] = rng.lognormal(rows * nt * src / 0.9e9 * 1e3, 0.15)
    iob["hdf5_read_ii"] = rng.uniform(1.2, 5.5)
    doc = {"format": "candidate_breakdown_v1"}
    if not a.no_candidate:
        doc["candidate"] = a.candidate
    doc["io_ms"] = iob
    doc["gpu_ms"] = gpu
    doc["k"] = a.k
    doc["Nt"] = a.nt
    out = Out(a.out)
    out.write(json.dumps(doc, indent=a.indent if a.indent > 0 else None) + "\n")
    out.close()
    return 0


# ---------------------------------------------------------------------------
# pytorch: the legacy profiler trace of the pipeline
# ---------------------------------------------------------------------------

PT_SCALE = ("void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, "
            "float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array"
            "<char*, 2> >(int, at::native::AUnaryFunctor<float, float, float, at::native::"
            "binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)")
PT_CAST = ("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda("
           "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#8}::operator()"
           "() const::{lambda(double)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator"
           "<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::"
           "LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::"
           "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
           "{lambda()#8}::operator()() const::{lambda(double)#1}, at::detail::Array<char*, 2>, "
           "TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, "
           "at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)")
PT_TRSM = ("void trsm_ln_up_kernel<float, 32u, 32u, 4u, false, true>(int, int, float const*, "
           "int, float*, int, float, float const*, int, int*)")
PT_TRSM_GEMM = "sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas"
PT_GEMM = "sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas"
PT_ADD = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add"
          "<float>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnSelf_add<float>, "
          "at::detail::Array<char*, 2>)")
PT_SYRK = "void syrk_kernel<float, 64, 16, 4, 4, true, false>(cublasSyrkParams<float>)"
PT_POTRF = ("void potrf_lower_cta_kernel<float, float, 32>(int, int, float*, unsigned long, "
            "int*)")


class LegacyTrace:
    """Event text for the legacy trace: one event per line, ', ' and ': '."""

    def __init__(self, rng, pid, base_ns):
        self.rng = rng
        self.pid = pid
        self.base = base_ns
        self.ext = 0
        self.corr = 0
        self.idx = 0

    def ts(self, ns):
        return us3(self.base + ns)

    def x(self, cat, name, tid, t0, t1, args=None, pid=None):
        s = '  {"ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": %d, "ts": %s, "dur": %s' % (
            cat, jstr(name), self.pid if pid is None else pid, tid, self.ts(t0), us3(t1 - t0))
        if args:
            s += ', "args": {%s}' % args
        return s + "}"

    def annotation(self, name, tid, t0, t1):
        self.ext += 1
        self.idx += 1
        return self.x("user_annotation", name, tid, t0, t1,
                      '"External id": %d, "Record function id": 0, "Ev Idx": %d' % (self.ext, self.idx))

    def cpu_op(self, name, tid, t0, t1, dims):
        self.ext += 1
        self.idx += 1
        types = ", ".join('"float"' if d else '"Scalar"' for d in dims)
        return self.x("cpu_op", name, tid, t0, t1,
                      '"External id": %d, "Record function id": 0, "Ev Idx": %d, '
                      '"Input Dims": %s, "Input type": [%s]' % (self.ext, self.idx,
                                                              json.dumps(dims), types))


def cmd_pytorch(a):
    rng = Rand(a.seed)
    dur = Durations(rng, a.read_ms, a.compute_ms, a.jitter)
    pid = 10000 + rng.below(90000)
    main = pid
    loader = pid + 3 + rng.below(300)
    streams = (7, 20)
    tr = LegacyTrace(rng, pid, epoch_ns(rng))
    out = Out(a.out)
    out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n'
              '  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},\n'
              '  "record_shapes": 1,\n  "traceEvents": [\n' % gpu_properties(1, True))
    # Device events go after the host events (as the profiler writes them),
    # through a spool file so that memory stays small; --interleave-gpu
    # writes them as they are produced instead.
    spool = None if a.interleave_gpu else tempfile.TemporaryFile()
    spooled = [0]
    first = [True]

    def host(lines):
        if lines:
            out.write(("" if first[0] else ",\n") + ",\n".join(lines))
            first[0] = False

    def device(lines):
        if not lines:
            return
        text = ",\n" + ",\n".join(lines)
        spool.write(text.encode("ascii"))
        spooled[0] += len(text)

    def ms(x):
        return int(x * 1e6)

    def us(lo, hi):
        return int(rng.uniform(lo, hi) * 1000)

    rows = a.k * a.nt
    nt = a.nt
    n = a.num_candidates
    limit = a.size
    t = ms(4.0)
    gpu_free = t
    ready = {0: 0}
    gpu_done = {}
    first_ts = t
    c = 0
    while True:
        if limit is None and c >= n:
            break
        if limit is not None and out.count + spooled[0] >= limit - 4096:
            break
        H, D = [], []
        it0 = t
        if c > 0:
            woke = max(t, ready.pop(c)) + us(8, 60)
            H.append(tr.annotation("Wait_For_IO", main, t, woke))
            t = woke + us(4, 20)
        if limit is not None or c + 1 < n:
            # The loader thread: wait for the buffer of c+1 (that of c-1), read.
            h0 = t + us(30, 120)
            free_at = gpu_done.pop(c - 1, h0)
            we = max(h0, free_at) + us(4, 30)
            H.append(tr.annotation("IO_Wait_For_GPU", loader, h0, we))
            r0 = we + us(5, 20)
            r1 = r0 + ms(dur.read())
            H.append(tr.annotation("POSIX_Lustre_Read", loader, r0, r1))
            H.append(tr.cpu_op("aten::from_numpy", loader, r1 + us(2, 6), r1 + us(9, 14),
                               [[rows, nt]]))
            r2 = r1 + us(20, 40)
            r3 = r2 + ms(dur.read() * 0.02)
            H.append(tr.annotation("POSIX_Lustre_Read_ii", loader, r2, r3))
            ready[c + 1] = r3 + us(10, 50)
            t += us(50, 150)
        stream = streams[c % 2]
        gpu_t = max(t, gpu_free)
        launches = []   # (cpu_op, dims, api, kernel name, cat, gpu ms)

        def launch(op, dims, api, kname, cat, kms):
            launches.append((op, dims, api, kname, cat, kms))

        def flush_launches(tag):
            """cpu_op + runtime call per launch, the kernels on the stream,
            and the annotation around them on both sides."""
            nonlocal t, gpu_t
            a0 = t
            g0 = None
            for op, dims, api, kname, cat, kms in launches:
                o0 = t
                o1 = o0 + us(18, 80)
                H.append(tr.cpu_op(op, main, o0, o1, dims))
                c0 = o0 + us(4, 12)
                c1 = c0 + us(4, 14)
                tr.corr += 1
                H.append(tr.x("cuda_runtime", api, main, c0, c1,
                              '"External id": %d, "cbid": %d, "correlation": %d' % (
                                  tr.ext, 41 if api == "cudaMemcpyAsync" else 211, tr.corr)))
                H.append('  {"ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s, '
                         '"cat": "ac2g", "name": "ac2g"}' % (tr.corr, pid, main, tr.ts(c0)))
                k0 = max(gpu_t, c1 + us(3, 8))
                k1 = k0 + max(int(kms * 1e6 * rng.uniform(0.95, 1.05)), 1000)
                if g0 is None:
                    g0 = k0
                extra = ""
                if cat == "gpu_memcpy":
                    nbytes = dims[0][0] * dims[0][1] * (8 if a.cast else 4)
                    extra = ', "bytes": %d, "memory bandwidth (GB/s)": %r' % (
                        nbytes, round(nbytes / (k1 - k0), 6))
                D.append(tr.x(cat, kname, stream, k0, k1,
                              '"External id": %d, "queued": 0, "device": 0, "context": 1, '
                              '"stream": %d, "correlation": %d%s' % (
                                  tr.ext, stream, tr.corr, extra), pid=0))
                D.append('  {"ph": "f", "id": %d, "pid": 0, "tid": %d, "ts": %s, '
                         '"cat": "ac2g", "name": "ac2g", "bp": "e"}' % (tr.corr, stream, tr.ts(k0)))
                gpu_t = k1
                t = o1 + us(3, 12)
            t += us(3, 10)
            # record_function scopes are written when they close
            H.append(tr.annotation(tag, main, a0, t))
            if not a.no_gpu_annotations:
                D.append(tr.x("gpu_user_annotation", tag, stream, g0, gpu_t,
                              '"External id": %d, "device": 0, "stream": %d' % (tr.ext, stream),
                              pid=0))
            del launches[:]
            return g0

        elem = 8 if a.cast else 4
        h2d_ms = rows * nt * elem / 22e9 * 1e3
        launch("aten::copy_", [[rows, nt], [rows, nt], []], "cudaMemcpyAsync",
               "Memcpy HtoD (Pinned -> Device)", "gpu_memcpy", h2d_ms)
        launch("aten::copy_", [[nt, nt], [nt, nt], []], "cudaMemcpyAsync",
               "Memcpy HtoD (Pinned -> Device)", "gpu_memcpy", nt * nt * elem / 22e9 * 1e3 + 0.01)
        g_first = flush_launches("H2D_Transfer")
        if a.cast:
            launch("aten::copy_", [[rows, nt], [rows, nt], []], "cudaLaunchKernel", PT_CAST,
                   "kernel", rows * nt * 12 / 1.5e12 * 1e3)
            launch("aten::copy_", [[nt, nt], [nt, nt], []], "cudaLaunchKernel", PT_CAST,
                   "kernel", 0.008)
        launch("aten::mul_", [[rows, nt], []], "cudaLaunchKernel", PT_SCALE, "kernel",
               rows * nt * 8 / 1.5e12 * 1e3)
        solve = dur.compute() * 0.93
        for i in range(a.trsm_kernels):
            launch("aten::linalg_solve_triangular", [[rows, rows], [rows, nt], []],
                   "cudaLaunchKernel", PT_TRSM if i % 2 == 0 else PT_TRSM_GEMM, "kernel",
                   solve / a.trsm_kernels * rng.uniform(0.8, 1.2))
        launch("aten::mul_", [[nt, nt], []], "cudaLaunchKernel", PT_SCALE, "kernel", 0.005)
        launch("aten::add_", [[nt], []], "cudaLaunchKernel", PT_ADD, "kernel", 0.004)
        launch("aten::addmm_", [[nt, nt], [nt, rows], [rows, nt], [], []], "cudaLaunchKernel",
               PT_GEMM, "kernel", 2.0 * nt * nt * rows / 17e12 * 1e3)
        launch("aten::linalg_cholesky_ex", [[nt, nt]], "cudaLaunchKernel", PT_SYRK, "kernel", 0.07)
        launch("aten::linalg_cholesky_ex", [[nt, nt]], "cudaLaunchKernel", PT_POTRF, "kernel", 0.4)
        flush_launches("Math_Operations")
        tr.corr += 1
        H.append(tr.x("cuda_runtime", "cudaEventRecord", main, t + us(2, 4), t + us(7, 11),
                      '"External id": %d, "cbid": 135, "correlation": %d' % (tr.ext, tr.corr)))
        t += us(12, 30)
        if not a.no_gpu_annotations:
            D.append(tr.x("gpu_user_annotation", "Candidate_Eval_%d" % c, stream, g_first, gpu_t,
                          '"External id": %d, "device": 0, "stream": %d' % (tr.ext + 1, stream),
                          pid=0))
        gpu_free = gpu_t
        gpu_done[c] = gpu_t
        closing = tr.annotation("Candidate_Eval_%d" % c, main, it0, t)
        if spool is None:
            # Interleaved: the device events of c come before the host's
            # Candidate_Eval_c, which is written when its scope closes.
            host(H)
            host(D)
            host([closing])
        else:
            host(H + [closing])
            device(D)
        t += us(5, 20)
        c += 1
    s0 = t
    t = max(t, gpu_free) + us(15, 40)
    tr.corr += 1
    tail = [tr.x("cuda_runtime", "cudaDeviceSynchronize", main, s0, t,
                 '"External id": 0, "cbid": 165, "correlation": %d' % tr.corr)]
    meta = [(pid, 0, "process_name", '"name": "python3"'),
            (pid, 0, "process_labels", '"labels": "CPU"'),
            (pid, main, "thread_name", '"name": "thread %d (python3)"' % main),
            (pid, loader, "thread_name", '"name": "thread %d (python3)"' % loader),
            (0, 0, "process_name", '"name": "python3"'),
            (0, 0, "process_labels", '"labels": "GPU 0"')]
    meta += [(0, s, "thread_name", '"name": "stream %d"' % s) for s in streams]
    for mpid, mtid, name, args in meta:
        tail.append('  {"name": "%s", "ph": "M", "ts": %s, "pid": %d, "tid": %d, "args": {%s}}' % (
            name, tr.ts(first_ts), mpid, mtid, args))
    tail.append('  {"ph": "X", "cat": "Trace", "ts": %s, "dur": %s, "pid": "Spans", '
                '"tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}}'
                % (tr.ts(0), us3(t + ms(1.0))))
    host(tail[:1])
    if spool is not None:
        out.copy_from(spool, spooled[0])   # its chunks start with ",\n"
        spool.close()
    host(tail[1:])
    out.write('\n  ],\n  "traceName": "candidate_eval.pt.trace.json",\n'
              '  "displayTimeUnit": "ms",\n  "baseTimeNanoseconds": %d\n}\n' % tr.base)
    out.close()
    return 0


# ---------------------------------------------------------------------------
# chrome: a generic Chrome trace of the shapes paper figures must survive
# ---------------------------------------------------------------------------

LONG_PROC = "pyper:trainer:%d:0/worker-main-process-with-a-very-long-name"
THREAD_NAMES = ("ThreadPoolForegroundWorker", "python3.8", "CrRendererMain", "DataLoader",
                "Compositor", "pt_autograd_%d")


def cmd_counters(a):
    """Counter (C) events of several series, beside slices, in the forms
    writers use: per process a main thread of X slices and the counters
    "memory" (series "allocated", a random walk, and "reserved", written only
    when it grows, so that events leave it out and it holds), "queue" with
    ids 0 and 1 (series "depth"; id 1 stops, with null, for the middle third
    of the trace and restarts), and "fps" (its "value" as a string of a
    number); and a process "sampler" with counters only ("cpu": "user" and
    "system" shares, and "temperature", which stops for good half-way).
    Samples every --period-us (with jitter), --samples per counter.
    --bad-values: some values are neither numbers nor null.  --shuffle:
    the events come in blocks of 700 in reverse order (a trace not in time
    order, whose blocks hold times on both sides of any window's start)."""
    rng = Rand(a.seed)
    out = Out(a.out)
    ev = []
    meta = []
    n = a.samples
    span = n * a.period_us

    def t_at(i):
        return i * a.period_us + a.period_us * rng.uniform(0.0, 0.4)

    def c(pid, name, ts, args, cid=None):
        body = ", ".join("%s: %s" % (jstr(k), v) for k, v in args)
        ident = "" if cid is None else ', "id": %d' % cid
        ev.append((ts, '{"ph": "C", "name": %s%s, "pid": %d, "ts": %.3f, "args": {%s}}'
                   % (jstr(name), ident, pid, ts, body)))

    for p in range(a.processes):
        pid = 10 + p
        meta.append('{"ph": "M", "name": "process_name", "pid": %d, "tid": 0, '
                    '"args": {"name": "app %d"}}' % (pid, p))
        meta.append('{"ph": "M", "name": "thread_name", "pid": %d, "tid": %d, '
                    '"args": {"name": "main"}}' % (pid, pid))
        t = 0.0
        while t < span:
            d = span / 40 * rng.uniform(0.3, 1.0)
            ev.append((t, '{"ph": "X", "cat": "work", "name": "step", "pid": %d, "tid": %d, '
                          '"ts": %.3f, "dur": %.3f}' % (pid, pid, t, d)))
            t += d + span / 80 * rng.uniform(0.2, 1.0)
        alloc, reserved = 64 << 20, 80 << 20
        for i in range(n):
            ts = t_at(i)
            alloc = max(0, alloc + int((rng.uniform(-1.0, 1.0)) * (4 << 20)))
            args = [("allocated", "%d" % alloc)]
            if alloc > reserved:
                reserved = (alloc // (16 << 20) + 1) * (16 << 20)
                args.append(("reserved", "%d" % reserved))
            if i == 0:
                args.append(("reserved", "%d" % reserved))
            if a.bad_values and i % 97 == 13:
                args.append(("swap", '"lots"'))
            c(pid, "memory", ts, args)
            for q in (0, 1):
                stopped = q == 1 and n // 3 <= i < 2 * n // 3
                v = "null" if stopped else "%d" % rng.below(20 + 10 * q)
                if stopped and i != n // 3:
                    continue  # a null stops it once; nothing until it restarts
                c(pid, "queue", ts + 1.5, [("depth", v)], cid=q)
            c(pid, "fps", ts + 2.5, [("value", '"%.1f"' % (55.0 + rng.uniform(0.0, 5.0)))])
    pid = 99
    meta.append('{"ph": "M", "name": "process_name", "pid": %d, "tid": 0, '
                '"args": {"name": "sampler"}}' % pid)
    for i in range(n):
        ts = t_at(i)
        u = rng.uniform(0.0, 0.7)
        c(pid, "cpu", ts, [("user", "%.4f" % u), ("system", "%.4f" % (u * 0.3))])
        if i <= n // 2:
            c(pid, "temperature", ts + 0.5,
              [("celsius", "null" if i == n // 2 else "%.1f" % (40 + 20 * u))])
        if a.bad_values and i % 89 == 5:
            c(pid, "cpu", ts + 0.7, [("user", "true"), ("system", "[1]")])
    ev.sort(key=lambda e: e[0])
    lines = [e[1] for e in ev]
    if a.shuffle:
        blocks = [lines[i:i + 700] for i in range(0, len(lines), 700)]
        lines = [l for b in reversed(blocks) for l in b]
    out.write('{"traceEvents": [\n')
    out.write(",\n".join(meta + lines))
    out.write('\n], "displayTimeUnit": "ms"}\n')
    out.close()
    return 0


def cmd_chrome(a):
    """Complete (X) events: --processes processes of --threads threads each,
    slices nested up to --depth deep, names from --categories categories
    (with --long-categories, names of 120 bytes that share their first 100),
    process names long (--long-names) or short, threads named the Kineto way
    ("thread N (python3.8)"), or by a name shared by all (the ids tell them
    apart), or not at all."""
    rng = Rand(a.seed)
    out = Out(a.out)
    cats = []
    for c in range(a.categories):
        if a.long_categories:
            cats.append("category/" + "x" * 91 + "/%02d-%s" % (c, "q" * 16))
        else:
            cats.append(("gpu_kernel", "cpu_op", "cuda_runtime", "user_annotation", "memcpy",
                         "memset", "python_function", "nccl", "io", "dataloader", "optimizer",
                         "fwdbwd")[c % 12] + ("" if c < 12 else "_%d" % (c // 12)))
    ev = []
    meta = []
    tid = 1000
    for p in range(a.processes):
        pid = 100 + p
        pname = LONG_PROC % p if a.long_names else "proc %d" % p
        meta.append('{"ph": "M", "name": "process_name", "pid": %d, "tid": 0, '
                    '"args": {"name": %s}}' % (pid, jstr(pname)))
        for t in range(a.threads):
            tid += 1 + rng.below(7000)
            style = a.thread_style
            if style == "kineto":
                tname = "thread %d (%s)" % (tid, THREAD_NAMES[t % 2 + 1])
            elif style == "same":
                tname = THREAD_NAMES[0]
            elif style == "named":
                n = THREAD_NAMES[t % len(THREAD_NAMES)]
                tname = n % t if "%d" in n else "%s %d" % (n, t)
            else:
                tname = None
            if tname is not None:
                meta.append('{"ph": "M", "name": "thread_name", "pid": %d, "tid": %d, '
                            '"args": {"name": %s}}' % (pid, tid, jstr(tname)))

            def nest(t0, t1, depth):
                n = 1 + rng.below(3)
                span = (t1 - t0) / n
                for k in range(n):
                    s0 = t0 + k * span + span * rng.uniform(0.02, 0.15)
                    s1 = t0 + (k + 1) * span - span * rng.uniform(0.02, 0.15)
                    if s1 <= s0:
                        continue
                    cat = cats[rng.below(len(cats))]
                    name = "%s_op%d" % (cat.split("/")[0][:12], rng.below(40))
                    ev.append((s0, '{"ph": "X", "cat": %s, "name": %s, "pid": %d, "tid": %d, '
                                   '"ts": %.3f, "dur": %.3f}' % (jstr(cat), jstr(name), pid, tid,
                                                                  s0, s1 - s0)))
                    if depth > 1 and rng.chance(0.8):
                        nest(s0, s1, depth - 1)
            nest(0.0, a.span_us, a.depth)
    ev.sort(key=lambda e: e[0])
    out.write('{"traceEvents": [\n')
    out.write(",\n".join(meta + [e[1] for e in ev]))
    out.write('\n], "displayTimeUnit": "ms"}\n')
    out.close()
    return 0


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="gentrace.py", description=__doc__.split("\n\n")[0],
        epilog="'gentrace.py SUBCOMMAND --help' lists each sub-command's options; the module "
               "docstring (and tests/tools/README.md) describes the model.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p):
        p.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
        p.add_argument("--out", default="-", metavar="FILE", help="output file ('-': stdout)")

    def pipeline(p):
        p.add_argument("--read-ms", type=positive_float, default=120.0,
                       help="median HDF5 read time in ms (default 120)")
        p.add_argument("--compute-ms", type=positive_float, default=170.0,
                       help="median GPU compute time of a candidate in ms (default 170)")
        p.add_argument("--jitter", type=float, default=0.12,
                       help="log-normal sigma of compute times; reads get 1.5 times it")

    p = sub.add_parser("timeline", help="pipelined_timeline_v1 / _v2")
    common(p)
    pipeline(p)
    p.add_argument("--version", type=int, choices=(1, 2), default=2)
    p.add_argument("--num-candidates", type=positive, default=12,
                   help="candidates the program evaluates (default 12)")
    p.add_argument("--start-candidate", type=non_negative, default=None,
                   help="metadata start_candidate and focus_candidate (default: --record-from)")
    p.add_argument("--record-from", type=non_negative, default=0,
                   help="metadata timeline_record_from R: the tracer starts (clock 0) at the "
                        "dispatch of candidate R-1, so the file holds R-1's GPU compute and the "
                        "events of R and later (default 0: everything)")
    p.add_argument("--plot-candidates", type=positive, default=3,
                   help="metadata num_candidates (the window size; default 3)")
    p.add_argument("--metadata-last", action="store_true",
                   help="write the metadata after the events array, as the profiler does "
                        "(\"format\" stays first)")
    p.add_argument("--indent", type=non_negative, default=2,
                   help="0: one event per line; N: pretty-printed like json.dumps(indent=N)")
    p.add_argument("--buffers", type=positive, default=2,
                   help="GPU buffers/streams; events carry buffer = candidate %% B (default 2)")
    p.add_argument("--trsm-prob", type=probability, default=0.0,
                   help="v2: probability of a main-lane trsm_host before a dispatch")
    p.add_argument("--stall-prob", type=probability, default=0.0,
                   help="probability of unrecorded host work before a dispatch")
    p.add_argument("--record-stalls", action="store_true",
                   help="v2: record those stalls as main-lane await_dispatch events")
    p.set_defaults(func=cmd_timeline)

    p = sub.add_parser("breakdown", help="candidate_breakdown_v1")
    common(p)
    p.add_argument("--candidate", type=non_negative, default=0)
    p.add_argument("--gpu", choices=sorted(GPUS), default="a100",
                   help="the GPU's rates (default a100)")
    p.add_argument("--cast", action="store_true",
                   help="float64 store, float32 compute: adds cast_si and cast_ii")
    p.add_argument("--extra", action="append", default=[], metavar="KEY=MS",
                   help="an extra gpu_ms entry (repeatable; unknown keys test the folding)")
    p.add_argument("--no-io-wait", action="store_true", help="no io_ms gpu_buffer_wait")
    p.add_argument("--no-candidate", action="store_true", help="omit the candidate key")
    p.add_argument("--k", type=positive, default=175, help="blocks per candidate (default 175)")
    p.add_argument("--nt", type=positive, default=420, help="block size (default 420)")
    p.add_argument("--indent", type=non_negative, default=2, help="0: one line")
    p.set_defaults(func=cmd_breakdown)

    p = sub.add_parser("pytorch", help="legacy torch.profiler Chrome trace (Candidate_Eval_N)")
    common(p)
    pipeline(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--num-candidates", type=positive, default=6, help="default 6")
    g.add_argument("--size", type=parse_size, default=None, metavar="BYTES",
                   help="instead: as many candidates as make a file of about BYTES (e.g. 130e6)")
    p.add_argument("--trsm-kernels", type=positive, default=6,
                   help="kernel launches of each triangular solve (default 6)")
    p.add_argument("--cast", action="store_true", help="float64 store: 8-byte copies, cast kernels")
    p.add_argument("--no-gpu-annotations", action="store_true",
                   help="no gpu_user_annotation events (older torch versions)")
    p.add_argument("--interleave-gpu", action="store_true",
                   help="write each candidate's device events before its host Candidate_Eval_N "
                        "(default: all device events after all host events)")
    p.add_argument("--k", type=positive, default=175)
    p.add_argument("--nt", type=positive, default=420)
    p.set_defaults(func=cmd_pytorch)

    p = sub.add_parser("kineto", help="modern PyTorch profiler (Kineto) Chrome trace")
    common(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--steps", type=positive, default=4, help="profiler steps (default 4)")
    g.add_argument("--size", type=parse_size, default=None, metavar="BYTES",
                   help="instead: as many steps as make about BYTES of JSON (e.g. 1e9)")
    p.add_argument("--first-step", type=non_negative, default=3,
                   help="number of the first ProfilerStep#N (default 3)")
    p.add_argument("--layers", type=positive, default=12, help="Linear+ReLU layers (default 12)")
    p.add_argument("--hidden", type=positive, default=4096, help="layer width (default 4096)")
    p.add_argument("--batch", type=positive, default=2048, help="batch size (default 2048)")
    p.add_argument("--bucket", type=positive, default=4,
                   help="layers per NCCL all-reduce bucket (default 4)")
    p.add_argument("--devices", type=positive, default=8,
                   help="GPUs listed in deviceProperties and the metadata (default 8; "
                        "events run on GPU 0)")
    p.add_argument("--format", choices=("2023", "2021"), default="2023",
                   help="today's Kineto format (default), or 2021's (PyTorch 1.8-1.10): "
                        "categories Kernel, Memcpy, Memset, Operator, Runtime; CPU tids as "
                        "strings, [memory] instants under the number; GPU streams \"stream N\"; "
                        "the profiler's span in \"Traces\"")
    p.add_argument("--memory-totals", action="store_true",
                   help="--format 2021: [memory] instants with Total Allocated and Total "
                        "Reserved (PyTorch 1.10)")
    p.add_argument("--gzip", action="store_true", help="gzip the output (level 6, no name or time)")
    p.add_argument("--memory", choices=("current", "2021"), default=None,
                   help="also [memory] instants: host buffers and one CUDA activation per layer, "
                        "with Kineto's totals (current) or only their bytes (2021); today's "
                        "format only (--format 2021 writes its own)")
    p.set_defaults(func=cmd_kineto)

    p = sub.add_parser("counters", help="counter (C) events of several series with gaps, "
                                        "beside slices")
    common(p)
    p.add_argument("--processes", type=positive, default=2, help="default 2")
    p.add_argument("--samples", type=positive, default=200,
                   help="samples per counter (default 200)")
    p.add_argument("--period-us", type=positive_float, default=100.0,
                   help="time between samples in us (default 100)")
    p.add_argument("--bad-values", action="store_true",
                   help="some values neither numbers nor null")
    p.add_argument("--shuffle", action="store_true",
                   help="events in blocks of 700, in reverse order")
    p.set_defaults(func=cmd_counters)

    p = sub.add_parser("ranks", help="the Kineto traces of the ranks of one job (DIR/rankN.json)")
    p.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    p.add_argument("--out-dir", required=True, metavar="DIR", help="where the files go")
    p.add_argument("--prefix", default="rank", help="file names: PREFIXN.json (default rank)")
    p.add_argument("--world-size", type=positive, default=2, help="ranks of the job (default 2)")
    p.add_argument("--missing", type=parse_ranks, default=[], metavar="R,...",
                   help="ranks not written (their traces are lost)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--steps", type=positive, default=2, help="profiler steps (default 2)")
    g.add_argument("--size", type=parse_size, default=None, metavar="BYTES",
                   help="instead: as many steps as make about BYTES per rank (e.g. 20e6)")
    p.add_argument("--vary-steps", action="store_true", help="rank r runs r %% 3 more steps")
    p.add_argument("--skew-us", type=float, default=0.0,
                   help="rank r's clock runs r times this ahead (default 0)")
    p.add_argument("--slow-rank", type=int, default=None, help="a rank with more host work")
    p.add_argument("--slow-us", type=float, default=2000.0,
                   help="its extra host work per step (default 2000)")
    p.add_argument("--split-base", type=int, default=None, metavar="R",
                   help="ranks from R on have the next quarter's baseTimeNanoseconds")
    p.add_argument("--first-step", type=non_negative, default=3)
    p.add_argument("--layers", type=positive, default=4, help="Linear+ReLU layers (default 4)")
    p.add_argument("--hidden", type=positive, default=4096)
    p.add_argument("--batch", type=positive, default=2048)
    p.add_argument("--bucket", type=positive, default=2)
    p.add_argument("--devices", type=positive, default=8, help="GPUs per host (default 8)")
    p.add_argument("--gzip", action="store_true", help="gzip each file")
    p.add_argument("--memory", choices=("current", "2021"), default=None,
                   help="also [memory] instants, as kineto --memory (on the rank's own GPU)")
    p.set_defaults(func=cmd_ranks, out="-")

    add_job_parser(sub, positive, non_negative)

    p = sub.add_parser("chrome", help="a generic Chrome trace: processes, threads, nesting, "
                                      "categories (the paper figures' shapes)")
    common(p)
    p.add_argument("--processes", type=positive, default=2, help="default 2")
    p.add_argument("--threads", type=positive, default=3, help="threads per process (default 3)")
    p.add_argument("--depth", type=positive, default=3, help="nesting depth (default 3)")
    p.add_argument("--categories", type=positive, default=4, help="default 4")
    p.add_argument("--long-categories", action="store_true",
                   help="category names of about 120 bytes sharing their first 100")
    p.add_argument("--long-names", action="store_true", help="long process names")
    p.add_argument("--thread-style", choices=("kineto", "same", "named", "none"),
                   default="named",
                   help="thread names: Kineto's 'thread N (python3.8)', one name for all, "
                        "distinct names, or none (default named)")
    p.add_argument("--span-us", type=positive_float, default=50000.0,
                   help="the trace's length in us (default 50000)")
    p.set_defaults(func=cmd_chrome)

    p = sub.add_parser("hta", help="small Kineto-style traces for the HTA comparison")
    common(p)
    p.add_argument("--case", choices=HTA_CASES, required=True)
    p.add_argument("--steps", type=positive, default=4, help="profiler steps (default 4)")
    p.add_argument("--first-step", type=non_negative, default=1)
    p.add_argument("--ops", type=positive, default=150, help="CPU ops per step (default 150)")
    p.set_defaults(func=cmd_hta)

    a = ap.parse_args(argv)
    try:
        return a.func(a)
    except BrokenPipeError:
        return 1
    except OSError as e:
        print("gentrace: %s: %s" % (e.filename or a.out, e.strerror or e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
