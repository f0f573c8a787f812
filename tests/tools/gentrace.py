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
import gzip
import heapq
import json
import shutil
import sys
import tempfile

# ---------------------------------------------------------------------------
# Portable arithmetic
# ---------------------------------------------------------------------------

SQRT3 = 1.7320508075688772


def exp_(x):
    """exp(x) from a Taylor series after halving x: + - * / only."""
    k = 0
    while x > 0.25 or x < -0.25:
        x *= 0.5
        k += 1
    term = 1.0
    total = 1.0
    for i in range(1, 12):
        term = term * x / i
        total += term
    for _ in range(k):
        total *= total
    return total


class Rand:
    """Draws built on random.Random.random() alone (stable across versions)."""

    def __init__(self, seed):
        import random
        self.r = random.Random(seed).random

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.r()

    def chance(self, p):
        return self.r() < p

    def below(self, n):
        """An integer in [0, n)."""
        return min(int(self.r() * n), n - 1)

    def normal(self):
        """A standard normal deviate, approximated by four uniforms (|z| < 3.47)."""
        r = self.r
        return (r() + r() + r() + r() - 2.0) * SQRT3

    def lognormal(self, median, sigma):
        return median * exp_(sigma * self.normal())


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


class Out:
    """A buffered byte sink that counts what it is given (ASCII text)."""

    CHUNK = 1 << 20

    def __init__(self, path, gz=False):
        self.path = path
        if path in (None, "-"):
            self.raw = sys.stdout.buffer
            self.own = False
        else:
            self.raw = open(path, "wb")
            self.own = True
        self.gz = None
        self.sink = self.raw
        if gz:
            self.gz = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0,
                                    compresslevel=6)
            self.sink = self.gz
        self.parts = []
        self.pending = 0
        self.count = 0

    def write(self, text):
        self.parts.append(text)
        n = len(text)
        self.pending += n
        self.count += n
        if self.pending >= self.CHUNK:
            self.flush()

    def flush(self):
        if self.parts:
            self.sink.write("".join(self.parts).encode("ascii"))
            self.parts = []
            self.pending = 0

    def copy_from(self, f, nbytes):
        """Append nbytes already counted elsewhere, from the binary file f."""
        self.flush()
        f.seek(0)
        shutil.copyfileobj(f, self.sink, 1 << 20)
        self.count += nbytes

    def close(self):
        self.flush()
        if self.gz is not None:
            self.gz.close()
        if self.own:
            self.raw.close()
        else:
            self.raw.flush()


def jstr(s):
    return json.dumps(s)


def us3(ns):
    """Integer nanoseconds as microseconds with three decimals."""
    return "%d.%03d" % divmod(ns, 1000)


def parse_size(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a size in bytes: %r" % text)
    if not v >= 1:
        raise argparse.ArgumentTypeError("size must be at least 1 byte")
    return int(v)


def positive(text):
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def non_negative(text):
    v = int(text)
    if v < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return v


def probability(text):
    v = float(text)
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError("must be in [0, 1]")
    return v


def positive_float(text):
    v = float(text)
    if not v > 0.0:
        raise argparse.ArgumentTypeError("must be > 0")
    return v


# ---------------------------------------------------------------------------
# The pipeline (timeline and pytorch share the time model)
# ---------------------------------------------------------------------------


class Durations:
    """Read and compute times in ms."""

    def __init__(self, rng, read_ms, compute_ms, jitter):
        self.rng = rng
        self.read_ms = read_ms
        self.compute_ms = compute_ms
        self.jitter = jitter
        self.contended = False

    def read(self):
        rng = self.rng
        if rng.chance(0.05):  # the file system changes mood now and then
            self.contended = not self.contended
        ms = rng.lognormal(self.read_ms, 1.5 * self.jitter)
        if self.contended:
            ms *= 1.9
        if rng.chance(0.08):
            ms *= rng.uniform(1.6, 2.5)
        return min(max(ms, 0.4 * self.read_ms), 4.0 * self.read_ms)

    def compute(self):
        ms = self.rng.lognormal(self.compute_ms, self.jitter)
        return min(max(ms, 0.5 * self.compute_ms), 2.0 * self.compute_ms)


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
# Chrome trace helpers (pytorch and kineto)
# ---------------------------------------------------------------------------


def gpu_properties(devices, compact):
    props = []
    for d in range(devices):
        p = {"id": d, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
             "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
             "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
             "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
             "sharedMemPerMultiprocessor": 233472, "numSms": 132,
             "sharedMemPerBlockOptin": 232448}
        props.append("    " + json.dumps(p) if compact else
                     "    {\n" + ",\n".join('      "%s": %s' % (k, json.dumps(v))
                                            for k, v in p.items()) + "\n    }")
    return "[\n" + ",\n".join(props) + "\n  ]"


def epoch_ns(rng):
    """A start time in 2023-2024, in ns since the epoch."""
    return 1_672_531_200_000_000_000 + int(rng.r() * 6.0e16)


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
# kineto: a modern PyTorch profiler trace of a data-parallel training loop
# ---------------------------------------------------------------------------

# Kernels: key -> (name, typical duration in us, launch configuration args).
K_GEMM_FWD = ("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
K_GEMM_DGRAD = ("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_"
                "execute_segment_k_off_kernel__5x_cublas")
K_GEMM_WGRAD = ("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x256_16x3_nt_align4>("
                "cutlass_80_tensorop_s1688gemm_128x256_16x3_nt_align4::Params)")
K_RELU = ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
          "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::"
          "detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
          "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous "
          "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
          "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::"
          "operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)")
K_THRESHOLD = ("void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, "
               "float, float, at::native::(anonymous namespace)::threshold_kernel_impl<float>("
               "at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>, at::detail::"
               "Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, float, at::native::"
               "(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
               "float)::{lambda(float, float)#1}>, at::detail::Array<char*, 3>)")
K_SUM = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::"
         "func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()("
         "at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::"
         "ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
         "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, "
         "4>)")
K_ADD = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
         "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::"
         "Array<char*, 3>)")
K_SUB = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
         "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::"
         "Array<char*, 3>)")
K_POW = ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
         "pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda("
         "float)#2}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::"
         "pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda("
         "float)#2}, at::detail::Array<char*, 2>)")
K_MEAN = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps"
          "<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
          "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)")
K_MSE_BWD = ("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
             "at::native::(anonymous namespace)::mse_backward_cuda_kernel(at::TensorIterator&, "
             "c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() "
             "const::{lambda(float, float, float)#1}>(at::TensorIteratorBase&, at::native::"
             "(anonymous namespace)::mse_backward_cuda_kernel(at::TensorIterator&, c10::Scalar "
             "const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda("
             "float, float, float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_"
             "nocast<at::native::(anonymous namespace)::mse_backward_cuda_kernel(at::"
             "TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::"
             "operator()() const::{lambda(float, float, float)#1}>(at::TensorIteratorBase&, at::"
             "native::(anonymous namespace)::mse_backward_cuda_kernel(at::TensorIterator&, c10::"
             "Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::"
             "{lambda(float, float, float)#1} const&)::{lambda(int)#1})")
K_FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
          "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array"
          "<char*, 1>)")
K_ADAMW = ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
           "(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::"
           "FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, "
           "float*, float*, float*, double, double, double, bool, float*, float*>(at::native::"
           "(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::"
           "FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, "
           "float*, float*, float*, double, double, double, bool, float*, float*)")
K_NCCL = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"


def _launch_info(regs, smem, grid, block, sms=132):
    blocks = grid / float(sms)
    warps = blocks * block / 32.0
    occ = min(100, int(warps / 64.0 * 100.0 + 0.5))
    return ('"registers per thread": %d, "shared memory": %d, "blocks per SM": %r, '
            '"warps per SM": %r, "grid": [%d, 1, 1], "block": [%d, 1, 1], '
            '"est. achieved occupancy %%": %d' % (regs, smem, round(blocks, 6), round(warps, 6),
                                                   grid, block, occ))


X_FMT = ('  {\n    "ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": %d,\n'
         '    "ts": %s, "dur": %s,\n    "args": {\n      %s\n    }\n  }')
FLOW_S = ('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n'
          '    "cat": "%s", "name": "%s"\n  }')
FLOW_F = ('  {\n    "ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n'
          '    "cat": "%s", "name": "%s", "bp": "e"\n  }')
META = ('  {\n    "name": "%s", "ph": "M", "ts": %s,\n    "pid": %s, "tid": %d,\n'
        '    "args": {\n      %s\n    }\n  }')

# The 2021 format (PyTorch 1.8-1.10, --format 2021): the categories were
# named otherwise, python_function and gpu_user_annotation events did not
# exist, CPU events name their thread by the *string* of its tid, GPU events
# by "stream N" (no thread_name records), times are whole microseconds, and
# the launch flows are "async"/"launch" pairs whose start gives the tid as a
# number.
CATS_2021 = {"cpu_op": "Operator", "user_annotation": "Operator", "cuda_runtime": "Runtime",
             "kernel": "Kernel", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset"}
X_FMT_2021 = ('  {\n    "ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": "%s",\n'
              '    "ts": %d, "dur": %d,\n    "args": {\n      %s\n    }\n  }')
FLOW_S_2021 = ('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %d,\n'
               '    "cat": "async", "name": "launch"\n  }')
FLOW_F_2021 = ('  {\n    "ph": "f", "id": %d, "pid": %d, "tid": "stream %d", "ts": %d,\n'
               '    "cat": "async", "name": "launch", "bp": "e"\n  }')
MEM_2021 = ('  {\n    "ph": "i", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %d,\n'
            '    "args": {\n      "Device Type": 1, "Device Id": 0, "Bytes": %d%s\n    }\n  }')


MEM_FMT = ('  {\n    "ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",\n'
           '    "pid": %d, "tid": %d, "ts": %s,\n    "args": {\n      %s\n    }\n  }')
MEM_FMT_2021 = ('  {\n    "ph": "i", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s,\n'
                '    "args": {\n      %s\n    }\n  }')


class Kineto:
    def __init__(self, a, rng, out):
        self.a = a
        # --memory: allocated and reserved bytes per device (0 CPU, 1 CUDA)
        self.alloc = {0: 0, 1: 0}
        self.reserved = {0: 0, 1: 0}
        self.addr = 0x7f3a00000000
        self.rng = rng
        self.r = rng.r
        self.out = out
        self.pid = 1000 + rng.below(3_000_000)
        self.main = self.pid
        self.bwd = self.pid + 37 + rng.below(3000)
        self.base = epoch_ns(rng)
        self.dev = 0                     # the GPU (its pid): a rank's local GPU
        self.slow = 0                    # ns of extra host work per step (a slow rank)
        self.cs = 7                      # the default compute stream
        self.ns = 23 + 4 * rng.below(5)  # NCCL's stream
        self.free = {self.cs: 0, self.ns: 0}
        self.ext = 0
        self.corr = 0
        self.idx = 0
        self.pyid = 0
        self.flow = 0
        self.seqnr = 0
        self.t = 0
        self.gpu_first = None
        self.old = getattr(a, "format", "2023") == "2021"  # (ranks has no --format)
        self.old_alloc = self.old_reserved = 0  # the 2021 format's [memory] totals
        h = a.hidden
        batch = a.batch
        k = {}
        # key: (name, us, launch info); durations scale with the layer size
        scale = h / 4096.0
        k["gemm_fwd"] = (K_GEMM_FWD, 210.0 * scale * scale * batch / 2048.0,
                         _launch_info(168, 98304, max(1, h // 128) * max(1, batch // 128), 384))
        k["gemm_dgrad"] = (K_GEMM_DGRAD, 225.0 * scale * scale * batch / 2048.0,
                           _launch_info(168, 98304, max(1, h // 128) * max(1, batch // 128), 384))
        k["gemm_wgrad"] = (K_GEMM_WGRAD, 240.0 * scale * scale * batch / 2048.0,
                           _launch_info(230, 73728, max(1, h // 128) * max(1, h // 256), 256))
        ew = max(1, batch * h // 2048)
        k["relu"] = (K_RELU, 14.0 * scale * batch / 2048.0, _launch_info(28, 0, ew, 128))
        k["threshold"] = (K_THRESHOLD, 19.0 * scale * batch / 2048.0, _launch_info(30, 0, ew, 128))
        k["sum"] = (K_SUM, 17.0 * scale * batch / 2048.0, _launch_info(32, 16, max(1, h // 32), 512))
        k["add_w"] = (K_ADD, 38.0 * scale * scale, _launch_info(22, 0, max(1, h * h // 2048), 128))
        k["add_b"] = (K_ADD, 2.2, _launch_info(22, 0, max(1, h // 512), 128))
        k["sub"] = (K_SUB, 6.0, _launch_info(22, 0, max(1, batch // 64), 128))
        k["pow"] = (K_POW, 5.5, _launch_info(20, 0, max(1, batch // 64), 128))
        k["mean"] = (K_MEAN, 7.5, _launch_info(32, 16, 1, 512))
        k["mse_bwd"] = (K_MSE_BWD, 6.5, _launch_info(26, 0, max(1, batch // 64), 128))
        k["fill"] = (K_FILL, 1.8, _launch_info(16, 0, max(1, batch // 64), 128))
        k["adamw"] = (K_ADAMW, 95.0 * scale * scale, _launch_info(96, 0, 320, 512))
        k["nccl"] = (K_NCCL, 420.0 * scale * scale * a.bucket, _launch_info(96, 0, 8, 640))
        self.kernels = {key: (jstr(v[0]), int(v[1] * 1000), v[2]) for key, v in k.items()}
        self.dims_act = "[[%d, %d], [%d, %d], [%d]]" % (batch, h, h, h, h)

    # -- event text -----------------------------------------------------------

    def mem(self, buf, tid, t, dev, nbytes):
        """With --memory: a [memory] instant of an allocation (nbytes > 0)
        or a free on device dev (0 CPU, 1 CUDA 0), in Kineto's current form
        (totals, address) or its 2021 one (only the bytes)."""
        form = getattr(self.a, "memory", None)
        if not form or self.old:
            return  # (the 2021 format writes its own: memory())
        self.alloc[dev] += nbytes
        if self.alloc[dev] > self.reserved[dev]:
            blk = (2 << 20) if dev == 0 else (20 << 20)
            self.reserved[dev] = -(-self.alloc[dev] // blk) * blk
        self.addr += 0x200 * (1 + (abs(nbytes) >> 12))
        dev_id = -1 if dev == 0 else self.dev
        if form == "2021":
            args = '"Device Type": %d, "Device Id": %d, "Bytes": %d' % (dev, dev_id, nbytes)
            buf.append(MEM_FMT_2021 % (self.pid, tid, self.ts(t), args))
        else:
            args = ('"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Addr": %d, '
                    '"Device Id": %d, "Device Type": %d' % (self.reserved[dev], self.alloc[dev],
                                                            nbytes, self.addr, dev_id, dev))
            buf.append(MEM_FMT % (self.pid, tid, self.ts(t), args))

    def us(self, lo, hi):
        return int((lo + (hi - lo) * self.r()) * 1000)

    def ts(self, ns):
        return "%d.%03d" % divmod(self.base + ns, 1000)

    # -- the two formats ------------------------------------------------------

    def xe(self, cat, name, pid, tid, t0, dur, args):
        """An X event (name as JSON text), or None where the format has none."""
        if not self.old:
            return X_FMT % (cat, name, pid, tid, self.ts(t0), "%d.%03d" % divmod(dur, 1000), args)
        if cat not in CATS_2021:
            return None
        t = (self.base + t0) // 1000
        end = (self.base + t0 + dur) // 1000
        return X_FMT_2021 % (CATS_2021[cat], name, pid,
                             ("%d" % tid) if pid == self.pid else ("stream %d" % tid),
                             t, max(0, end - t), args)

    def fs(self, fid, pid, tid, t, cat):
        if not self.old:
            return FLOW_S % (fid, pid, tid, self.ts(t), cat, cat)
        return FLOW_S_2021 % (fid, pid, tid, (self.base + t) // 1000) if cat == "ac2g" else None

    def ff(self, fid, pid, tid, t, cat):
        if not self.old:
            return FLOW_F % (fid, pid, tid, self.ts(t), cat, cat)
        return FLOW_F_2021 % (fid, pid, tid, (self.base + t) // 1000) if cat == "ac2g" else None

    def memory(self, buf, tid, t, nbytes):
        """A [memory] instant of the 2021 format (with --memory-totals, PyTorch
        1.10's totals); nothing in today's."""
        if not self.old:
            return
        self.old_alloc += nbytes
        self.old_reserved = max(self.old_reserved,
                                (self.old_alloc + (2 << 20) - 1) // (2 << 20) * (2 << 20))
        totals = (', "Total Allocated": %d, "Total Reserved": %d' % (self.old_alloc, self.old_reserved)
                  if self.a.memory_totals else "")
        buf.append(MEM_2021 % (self.pid, tid, (self.base + t) // 1000, nbytes, totals))

    def begin(self, buf, cat, name, tid, t0, args):
        buf.append((cat, name, tid, t0, args))
        return len(buf) - 1

    def end(self, buf, i, t1):
        cat, name, tid, t0, args = buf[i]
        buf[i] = self.xe(cat, jstr(name), self.pid, tid, t0, t1 - t0, args)

    def op_args(self, dims=None, seq=None):
        self.ext += 1
        self.idx += 1
        s = '"External id": %d,"Record function id": 0, "Ev Idx": %d' % (self.ext, self.idx)
        if seq is not None:
            s += ', "Fwd thread id": 0, "Sequence number": %d' % seq
        if dims:
            s += ', "Input Dims": %s, "Input type": ["float", "float", "float"]' % dims
        return s

    def py_args(self, parent, module=None):
        self.pyid += 1
        self.idx += 1
        s = '"Python parent id": %d, "Python id": %d, "Ev Idx": %d' % (parent, self.pyid, self.idx)
        if module is not None:
            s += ', "Python module id": %d' % module
        return s, self.pyid

    def op(self, buf, name, tid, t, dims=None, seq=None):
        return self.begin(buf, "cpu_op", name, tid, t, self.op_args(dims, seq))

    def leaf(self, buf, name, tid, t, lo=1.0, hi=4.0):
        i = self.op(buf, name, tid, t)
        t1 = t + self.us(lo, hi)
        self.end(buf, i, t1)
        return t1

    def launch(self, buf, G, tid, t, key, stream=None, dep=0, api="cudaLaunchKernel", cbid=211,
               nbytes=0):
        """A runtime call at t launching kernel key; returns the call's end."""
        stream = self.cs if stream is None else stream
        self.corr += 1
        corr = self.corr
        c1 = t + self.us(3.0, 9.0)
        buf.append(self.xe("cuda_runtime", '"%s"' % api, self.pid, tid, t, c1 - t,
                           '"External id": %d, "cbid": %d, "correlation": %d' % (self.ext, cbid, corr)))
        buf.append(self.fs(corr, self.pid, tid, t, "ac2g"))
        k0 = max(self.free[stream], c1 + self.us(2.0, 6.0), dep)
        if self.gpu_first is None:
            self.gpu_first = k0
        if api == "cudaLaunchKernel":
            qname, base, info = self.kernels[key]
            k1 = k0 + max(1000, int(base * (0.93 + 0.14 * self.r())))
            G.append(self.xe("kernel", qname, self.dev, stream, k0, k1 - k0,
                             '"External id": %d, "queued": 0, "device": 0, "context": 1, '
                             '"stream": %d, "correlation": %d, %s' % (self.ext, stream, corr, info)))
        else:
            if api == "cudaMemsetAsync":
                cat, name, gbps = "gpu_memset", '"Memset (Device)"', 600.0
            elif key == "htod":
                cat, name, gbps = "gpu_memcpy", '"Memcpy HtoD (Pinned -> Device)"', 24.0
            else:
                cat, name, gbps = "gpu_memcpy", '"Memcpy DtoH (Device -> Pageable)"', 0.002
            k1 = k0 + max(1000, int(nbytes / gbps * (0.95 + 0.1 * self.r())))
            G.append(self.xe(cat, name, self.dev, stream, k0, k1 - k0,
                             '"External id": %d, "device": 0, "context": 1, "stream": %d, '
                             '"correlation": %d, "bytes": %d, "memory bandwidth (GB/s)": %r' % (
                                 self.ext, stream, corr, nbytes,
                                 round(nbytes / float(k1 - k0), 6))))
        G.append(self.ff(corr, self.dev, stream, k0, "ac2g"))
        self.free[stream] = k1
        return c1

    def op_launch(self, buf, G, name, tid, t, key, dims=None, **kw):
        """cpu_op name around one launch (in the 2021 format with the
        allocation of its output: a [memory] instant, freed at the step's
        end)."""
        i = self.op(buf, name, tid, t, dims)
        if self.old:
            nbytes = 512 * (1 + self.corr % 97) * (self.a.batch // 64 or 1)
            self.memory(buf, tid, t + 1000, nbytes)
            self.step_allocs.append((tid, nbytes))
        c1 = self.launch(buf, G, tid, t + self.us(2.0, 6.0), key, **kw)
        t1 = c1 + self.us(1.0, 4.0)
        self.end(buf, i, t1)
        return t1

    # -- one training step ----------------------------------------------------

    def step(self, n):
        a = self.a
        M, B, G = [], [], []
        self.step_allocs = []
        main, bwd = self.main, self.bwd
        t = self.t
        self.gpu_first = None
        st = self.begin(M, "user_annotation", "ProfilerStep#%d" % n, main, t, self.op_args())
        step_ext = self.ext
        t += self.us(6.0, 15.0)
        # data loading, then the batch to the GPU
        dl = self.begin(M, "user_annotation",
                        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", main, t,
                        self.op_args())
        t += self.us(20.0, 60.0)
        host_bytes = 0
        for _ in range(2):
            nb = a.batch * 64 * 4
            self.mem(M, main, t + 500, 0, nb)
            host_bytes += nb
            i = self.op(M, "aten::stack", main, t)
            t = self.leaf(M, "aten::cat", main, t + self.us(1.0, 3.0), 8.0, 30.0)
            t += self.us(1.0, 3.0)
            self.end(M, i, t)
        t += self.us(5.0, 20.0) + self.slow
        self.end(M, dl, t)
        for nbytes in (a.batch * a.hidden * 4, a.batch * a.hidden * 4):
            t += self.us(2.0, 6.0)
            to = self.op(M, "aten::to", main, t)
            tc = self.op(M, "aten::_to_copy", main, t + self.us(1.0, 3.0))
            t = self.leaf(M, "aten::empty_strided", main, t + self.us(4.0, 6.0), 2.0, 6.0)
            t = self.op_launch(M, G, "aten::copy_", main, t + self.us(1.0, 2.0), "htod",
                               api="cudaMemcpyAsync", cbid=41, nbytes=nbytes)
            t += self.us(1.0, 3.0)
            self.end(M, tc, t)
            t += self.us(1.0, 2.0)
            self.end(M, to, t)
        t += self.us(3.0, 8.0)
        zg = self.begin(M, "user_annotation", "Optimizer.zero_grad#AdamW.zero_grad", main, t,
                        self.op_args())
        t += self.us(15.0, 40.0)
        self.end(M, zg, t)
        # forward
        args, root = self.py_args(0, 0)
        model = self.begin(M, "python_function", "nn.Module: DistributedDataParallel_0", main, t, args)
        t += self.us(10.0, 30.0)
        seqs = []
        for layer in range(a.layers):
            args, lid = self.py_args(root, 2 * layer + 1)
            mod = self.begin(M, "python_function", "nn.Module: Linear_%d" % layer, main, t, args)
            t += self.us(3.0, 8.0)
            args, _ = self.py_args(lid)
            bi = self.begin(M, "python_function", "<built-in function linear>", main, t, args)
            t += self.us(1.0, 2.0)
            lin = self.op(M, "aten::linear", main, t, self.dims_act)
            t += self.us(1.0, 3.0)
            tt = self.op(M, "aten::t", main, t)
            tr = self.op(M, "aten::transpose", main, t + self.us(1.0, 2.0))
            t = self.leaf(M, "aten::as_strided", main, t + self.us(2.0, 4.0), 0.5, 2.0)
            t += self.us(0.5, 1.5)
            self.end(M, tr, t)
            t += self.us(0.5, 1.5)
            self.end(M, tt, t)
            t += self.us(1.0, 3.0)
            self.seqnr += 1
            self.flow += 1
            seqs.append((self.seqnr, self.flow))
            mm = self.op(M, "aten::addmm", main, t, self.dims_act, seq=self.seqnr)
            self.mem(M, main, t + 700, 1, a.batch * a.hidden * 4)
            M.append(self.fs(self.flow, self.pid, main, t, "fwdbwd"))
            c1 = self.launch(M, G, main, t + self.us(4.0, 9.0), "gemm_fwd")
            t = c1 + self.us(2.0, 5.0)
            self.end(M, mm, t)
            t += self.us(1.0, 2.0)
            self.end(M, lin, t)
            t += self.us(1.0, 2.0)
            self.end(M, bi, t)
            t += self.us(1.0, 3.0)
            self.end(M, mod, t)
            t += self.us(2.0, 5.0)
            args, rid = self.py_args(root, 2 * layer + 2)
            mod = self.begin(M, "python_function", "nn.Module: ReLU_%d" % layer, main, t, args)
            t += self.us(3.0, 6.0)
            relu = self.op(M, "aten::relu", main, t)
            t = self.op_launch(M, G, "aten::clamp_min", main, t + self.us(1.0, 3.0), "relu")
            t += self.us(1.0, 2.0)
            self.end(M, relu, t)
            t += self.us(1.0, 3.0)
            self.end(M, mod, t)
            t += self.us(2.0, 5.0)
        self.end(M, model, t)
        # loss
        t += self.us(3.0, 8.0)
        args, _ = self.py_args(0, 2 * a.layers + 1)
        lm = self.begin(M, "python_function", "nn.Module: MSELoss_0", main, t, args)
        t += self.us(3.0, 6.0)
        self.seqnr += 1
        loss_seq = self.seqnr
        mse = self.op(M, "aten::mse_loss", main, t, seq=loss_seq)
        t += self.us(1.0, 3.0)
        for name, key in (("aten::sub", "sub"), ("aten::pow", "pow"), ("aten::mean", "mean")):
            t = self.op_launch(M, G, name, main, t, key) + self.us(1.0, 3.0)
        self.end(M, mse, t)
        t += self.us(1.0, 3.0)
        self.end(M, lm, t)
        # backward: the main thread seeds the gradient, the autograd thread runs
        t += self.us(5.0, 12.0)
        args, bp = self.py_args(0)
        pb = self.begin(M, "python_function", "torch/_tensor.py(522): backward", main, t, args)
        t += self.us(3.0, 6.0)
        args, _ = self.py_args(bp)
        pb2 = self.begin(M, "python_function", "torch/autograd/__init__.py(266): backward", main, t,
                         args)
        t += self.us(3.0, 6.0)
        ol = self.op(M, "aten::ones_like", main, t)
        t = self.leaf(M, "aten::empty_like", main, t + self.us(1.0, 2.0), 2.0, 5.0)
        t = self.op_launch(M, G, "aten::fill_", main, t + self.us(1.0, 2.0), "fill")
        t += self.us(1.0, 2.0)
        self.end(M, ol, t)
        tb = t + self.us(8.0, 25.0)
        ev = self.op(B, "autograd::engine::evaluate_function: MseLossBackward0", bwd, tb)
        nd = self.op(B, "MseLossBackward0", bwd, tb + self.us(1.0, 3.0), seq=loss_seq)
        tb = self.op_launch(B, G, "aten::mse_loss_backward", bwd, tb + self.us(3.0, 6.0), "mse_bwd")
        tb += self.us(1.0, 3.0)
        self.end(B, nd, tb)
        tb += self.us(1.0, 2.0)
        self.end(B, ev, tb)
        pending = 0
        for layer in range(a.layers - 1, -1, -1):
            seq, flow = seqs[layer]
            tb += self.us(3.0, 8.0)
            ev = self.op(B, "autograd::engine::evaluate_function: ReluBackward0", bwd, tb)
            nd = self.op(B, "ReluBackward0", bwd, tb + self.us(1.0, 2.0))
            tb = self.op_launch(B, G, "aten::threshold_backward", bwd, tb + self.us(2.0, 4.0),
                                "threshold")
            tb += self.us(1.0, 2.0)
            self.end(B, nd, tb)
            tb += self.us(1.0, 2.0)
            self.end(B, ev, tb)
            tb += self.us(3.0, 8.0)
            ev = self.op(B, "autograd::engine::evaluate_function: AddmmBackward0", bwd, tb)
            self.mem(B, bwd, tb + 600, 1, -(a.batch * a.hidden * 4))
            B.append(self.ff(flow, self.pid, bwd, tb, "fwdbwd"))
            nd = self.op(B, "AddmmBackward0", bwd, tb + self.us(1.0, 3.0), seq=seq)
            tb += self.us(4.0, 8.0)
            if layer > 0:
                tb = self.leaf(B, "aten::t", bwd, tb, 2.0, 5.0)
                tb = self.op_launch(B, G, "aten::mm", bwd, tb + self.us(1.0, 2.0), "gemm_dgrad",
                                    dims=self.dims_act)
            tb = self.leaf(B, "aten::t", bwd, tb + self.us(1.0, 2.0), 2.0, 5.0)
            tb = self.op_launch(B, G, "aten::mm", bwd, tb + self.us(1.0, 2.0), "gemm_wgrad",
                                dims=self.dims_act)
            tb = self.op_launch(B, G, "aten::sum", bwd, tb + self.us(1.0, 3.0), "sum")
            tb += self.us(1.0, 3.0)
            self.end(B, nd, tb)
            tb += self.us(1.0, 2.0)
            self.end(B, ev, tb)
            for key in ("add_w", "add_b"):
                tb += self.us(2.0, 6.0)
                ev = self.op(B, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
                             bwd, tb)
                nd = self.op(B, "torch::autograd::AccumulateGrad", bwd, tb + self.us(1.0, 2.0))
                tb = self.op_launch(B, G, "aten::add_", bwd, tb + self.us(2.0, 5.0), key)
                tb += self.us(1.0, 2.0)
                self.end(B, nd, tb)
                tb += self.us(1.0, 2.0)
                self.end(B, ev, tb)
            pending += 1
            if pending == a.bucket or layer == 0:
                # a gradient bucket is ready: all-reduce it on NCCL's stream
                pending = 0
                tb += self.us(4.0, 10.0)
                ar = self.begin(B, "user_annotation", "nccl:all_reduce", bwd, tb, self.op_args())
                rc = self.op(B, "record_param_comms", bwd, tb + self.us(2.0, 5.0))
                tb = self.launch(B, G, bwd, tb + self.us(10.0, 25.0), "nccl", stream=self.ns,
                                 dep=self.free[self.cs])
                tb += self.us(2.0, 6.0)
                self.end(B, rc, tb)
                tb += self.us(1.0, 3.0)
                self.end(B, ar, tb)
        t = max(t, tb) + self.us(5.0, 15.0)
        self.end(M, pb2, t)
        t += self.us(1.0, 3.0)
        self.end(M, pb, t)
        # the gradient-norm accumulator: a memset
        t += self.us(4.0, 10.0)
        zs = self.op(M, "aten::zeros", main, t)
        t = self.leaf(M, "aten::empty", main, t + self.us(1.0, 2.0), 1.5, 4.0)
        t = self.op_launch(M, G, "aten::zero_", main, t + self.us(1.0, 2.0), "memset",
                           api="cudaMemsetAsync", cbid=51, nbytes=4 * a.layers)
        t += self.us(1.0, 2.0)
        self.end(M, zs, t)
        # optimizer: waits (on the GPU) for the last all-reduce
        t += self.us(5.0, 12.0)
        op = self.begin(M, "user_annotation", "Optimizer.step#AdamW.step", main, t, self.op_args())
        t += self.us(10.0, 25.0)
        fa = self.op(M, "aten::_fused_adamw_", main, t)
        t += self.us(5.0, 10.0)
        for _ in range(max(1, a.layers // 4)):
            t = self.launch(M, G, main, t, "adamw", dep=self.free[self.ns]) + self.us(2.0, 5.0)
        self.end(M, fa, t)
        t += self.us(2.0, 6.0)
        self.end(M, op, t)
        # loss.item(): a 4-byte copy back, and the host waits for the GPU
        t += self.us(3.0, 8.0)
        it = self.op(M, "aten::item", main, t)
        ld = self.op(M, "aten::_local_scalar_dense", main, t + self.us(1.0, 3.0))
        t = self.launch(M, G, main, t + self.us(4.0, 8.0), "dtoh", api="cudaMemcpyAsync", cbid=41,
                        nbytes=4)
        self.corr += 1
        done = max(t, self.free[self.cs]) + self.us(2.0, 6.0)
        M.append(self.xe("cuda_runtime", '"cudaStreamSynchronize"', self.pid, main, t, done - t,
                          '"External id": %d, "cbid": 131, "correlation": %d' % (self.ext, self.corr)))
        t = done + self.us(1.0, 3.0)
        self.end(M, ld, t)
        t += self.us(1.0, 2.0)
        self.end(M, it, t)
        t += self.us(10.0, 30.0)
        for tid, nbytes in self.step_allocs:
            self.memory(M if tid == main else B, tid, t - 2000, -nbytes)
        self.mem(M, main, t - 800, 0, -host_bytes)
        self.end(M, st, t)
        gend = max(self.free.values())
        G.append(self.xe("gpu_user_annotation", '"ProfilerStep#%d"' % n, self.dev, self.cs,
                         self.gpu_first, gend - self.gpu_first,
                          '"External id": %d' % step_ext))
        self.t = t + self.us(30.0, 90.0)
        self.out.write(",\n" + ",\n".join(e for e in M + B + G if e is not None))

    def metadata_2021(self, t_end):
        """PyTorch 1.9's records: processes "python" labelled CPU and GPU N,
        the CPU threads named under the string of their tid, no stream
        names, no sort indices; the profiler's span in the process "Traces"
        and its two global instants."""
        a = self.a
        t0 = (self.base) // 1000
        recs = []

        def m(name, pid, tid, args):
            recs.append('  {\n    "name": "%s", "ph": "M", "ts": %d,\n    "pid": %d, "tid": %s,\n'
                        '    "args": {\n      %s\n    }\n  }' % (name, t0, pid, tid, args))

        m("process_name", self.pid, 0, '"name": "python"')
        m("process_labels", self.pid, 0, '"labels": "CPU"')
        for d in range(a.devices):
            m("process_name", d, 0, '"name": "python"')
            m("process_labels", d, 0, '"labels": "GPU %d"' % d)
        for tid in (self.bwd, self.main):
            m("thread_name", self.pid, '"%d"' % tid, '"name": "thread %d (python)"' % tid)
        recs.append('  {\n    "ph": "X", "cat": "Trace", "ts": %d, "dur": %d,\n'
                    '    "pid": "Traces", "tid": "PyTorch Profiler",\n'
                    '    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n    }\n  }'
                    % (t0, t_end // 1000))
        recs.append('  {\n    "name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n'
                    '    "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": %d\n  }' % t0)
        recs.append('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n'
                    '    "pid": "", "tid": "", "ts": %d\n  }' % ((self.base + t_end) // 1000))
        return ",\n".join(recs)

    def metadata(self, t_end):
        if self.old:
            return self.metadata_2021(t_end)
        a = self.a
        ts0 = self.ts(0)
        recs = []

        def m(name, pid, tid, args):
            recs.append(META % (name, ts0, pid, tid, args))

        pid = self.pid
        m("process_name", pid, 0, '"name": "python3"')
        m("process_labels", pid, 0, '"labels": "CPU"')
        m("process_sort_index", pid, 0, '"sort_index": %d' % pid)
        for d in range(a.devices):
            m("process_name", d, 0, '"name": "python3"')
            m("process_labels", d, 0, '"labels": "GPU %d"' % d)
            m("process_sort_index", d, 0, '"sort_index": %d' % (16777216 + d))
        for s in sorted((self.cs, self.ns)):
            m("thread_name", self.dev, s, '"name": "stream %d "' % s)
            m("thread_sort_index", self.dev, s, '"sort_index": %d' % s)
        m("thread_name", pid, self.main, '"name": "thread %d (python3)"' % self.main)
        m("thread_sort_index", pid, self.main, '"sort_index": %d' % self.main)
        # Kineto names the autograd thread twice; the later record is the one to keep.
        m("thread_name", pid, self.bwd, '"name": "thread %d (python3)"' % self.bwd)
        m("thread_sort_index", pid, self.bwd, '"sort_index": %d' % self.bwd)
        m("thread_name", pid, self.bwd, '"name": "thread %d (pt_autograd_0)"' % self.bwd)
        m("thread_sort_index", pid, self.bwd, '"sort_index": %d' % self.bwd)
        recs.append('  {\n    "ph": "X", "cat": "Trace", "ts": %s, "dur": %s,\n'
                    '    "pid": "Spans", "tid": "PyTorch Profiler",\n'
                    '    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n    }\n  }'
                    % (ts0, "%d.%03d" % divmod(t_end, 1000)))
        recs.append(META % ("process_sort_index", ts0, '"Spans"', 0, '"sort_index": 536870912'))
        recs.append('  {\n    "name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n'
                    '    "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": %s\n  }' % ts0)
        recs.append('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n'
                    '    "pid": "", "tid": "", "ts": %s\n  }' % self.ts(t_end))
        return ",\n".join(recs)


def cmd_kineto(a):
    if a.format == "2021" and a.memory:
        sys.stderr.write("gentrace.py kineto: --format 2021 writes its own [memory] instants "
                         "(--memory-totals adds the totals); --memory is for today's format\n")
        return 2
    rng = Rand(a.seed)
    out = Out(a.out, gz=a.gzip)
    k = Kineto(a, rng, out)
    if k.old:
        out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n  "traceEvents": [\n'
                  % gpu_properties(a.devices, False))
    else:
        out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n'
                  '  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": %d},\n'
                  '  "record_shapes": 1,\n  "traceEvents": [\n' % (gpu_properties(a.devices, False),
                                                                    a.devices))
    # The first event opens the array without a comma; the profiler's own
    # span of the whole run comes first in time anyway.
    k.t = k.us(40.0, 120.0)
    w0 = k.us(5.0, 20.0)
    out.write(k.xe("user_annotation", '"## warmup ##"', k.pid, k.main, w0, k.us(1.0, 9.0),
                   k.op_args()))
    tail_len = 3000 + 700 * a.devices
    n = a.first_step
    steps = a.steps
    while True:
        if a.size is not None:
            if out.count + tail_len >= a.size:
                break
        elif n - a.first_step >= steps:
            break
        k.step(n)
        n += 1
    t_end = k.t + k.us(50.0, 150.0)
    out.write(",\n" + k.metadata(t_end))
    if k.old:
        out.write('\n  ]\n}\n')
    else:
        out.write('\n  ],\n  "traceName": "rank0.%d.pt.trace.json",\n  "displayTimeUnit": "ms",\n'
                  '  "baseTimeNanoseconds": %d\n}\n' % (k.pid, k.base // 1000000000 * 1000000000))
    out.close()
    return 0


# ---------------------------------------------------------------------------
# ranks: the Kineto traces of the ranks of one job
# ---------------------------------------------------------------------------

QUARTER_NS = 7889238 * 1_000_000_000  # Kineto's base time: 3 months


def parse_ranks(text):
    try:
        return sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError("not a list of ranks: %r" % text)


def cmd_ranks(a):
    """One Kineto trace per rank, as modern Kineto writes them: times in
    microseconds from baseTimeNanoseconds (the start time floored to three
    months), distributedInfo with the rank and the world size.  The ranks
    run in step: each step starts on every rank when the slowest has
    finished the one before (the all-reduce waits for it), give or take a
    few microseconds.  Rank r's clock runs r * --skew-us ahead; --slow-rank
    does --slow-us more host work per step; --vary-steps gives rank r
    r % 3 more steps; --missing leaves ranks out; --split-base R: ranks from
    R on started the profiler after a quarter turned, so their base is the
    next one (their times count from it)."""
    import os
    job = Rand(a.seed)
    start = epoch_ns(job)
    base = start // QUARTER_NS * QUARTER_NS
    if a.split_base is not None:
        # the job starts an hour after a quarter turned; early ranks still
        # hold the quarter before as their base
        start = base + QUARTER_NS + 3_600_000_000_000
    os.makedirs(a.out_dir, exist_ok=True)
    ranks = []
    for r in range(a.world_size):
        rng = Rand(a.seed * 1000 + r + 1)
        name = os.path.join(a.out_dir, "%s%d.json%s" % (a.prefix, r, ".gz" if a.gzip else ""))
        # a missing rank runs, but its trace is not written
        out = Out(os.devnull if r in a.missing else name, gz=a.gzip)
        k = Kineto(a, rng, out)
        k.dev = r % a.devices
        if r == a.slow_rank:
            k.slow = int(a.slow_us * 1000)
        b = base + QUARTER_NS if a.split_base is not None and r >= a.split_base else base
        # its clock: true time less its base, plus its skew
        k.base = start - b + int(a.skew_us * 1000) * r
        out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n'
                  '  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d},\n'
                  '  "record_shapes": 1,\n  "traceEvents": [\n'
                  % (gpu_properties(a.devices, False), r, a.world_size))
        k.t = k.us(40.0, 120.0)
        out.write(X_FMT % ("user_annotation", '"## warmup ##"', k.pid, k.main, k.ts(k.us(5.0, 20.0)),
                           "%d.%03d" % divmod(k.us(1.0, 9.0), 1000), k.op_args()))
        steps = a.steps + (r % 3 if a.vary_steps else 0)
        ranks.append((r, b, k, out, steps))
    tail_len = 3000 + 700 * a.devices
    n = a.first_step
    t = max(k.t for _, _, k, _, _ in ranks)
    while True:
        running = []
        for r, b, k, out, steps in ranks:
            if a.size is not None:
                if out.count + tail_len >= a.size:
                    continue
            elif n - a.first_step >= steps:
                continue
            running.append(k)
        if not running:
            break
        for k in running:
            k.t = t + k.us(0.0, 6.0)
            k.step(n)
        t = max(k.t for k in running)
        n += 1
    for r, b, k, out, steps in ranks:
        t_end = k.t + k.us(50.0, 150.0)
        out.write(",\n" + k.metadata(t_end))
        out.write('\n  ],\n  "traceName": "rank%d.pt.trace.json",\n  "displayTimeUnit": "ms",\n'
                  '  "baseTimeNanoseconds": %d\n}\n' % (r, b))
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
