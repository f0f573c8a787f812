#!/usr/bin/env python3
"""genxplane.py - the project's own writer of XPlane profiles (XSpace
protobuf, as JAX, TensorFlow and PyTorch/XLA write `*.xplane.pb`), for
tests/xplane and `make bench`: Python 3 stdlib only, the wire format by
hand from the field numbers of xplane.proto:

    XSpace          planes 1, errors 2, warnings 3, hostnames 4
    XPlane          id 1, name 2, lines 3, event_metadata 4 (map int64 ->
                    XEventMetadata), stat_metadata 5 (map int64 ->
                    XStatMetadata), stats 6
    XLine           id 1, name 2, timestamp_ns 3, events 4, duration_ps 9,
                    display_id 10, display_name 11
    XEvent          metadata_id 1, offset_ps 2, duration_ps 3, stats 4,
                    num_occurrences 5
    XStat           metadata_id 1, double 2, uint64 3, int64 4, str 5,
                    bytes 6, ref_value 7
    XEventMetadata  id 1, name 2, metadata 3, display_name 4, stats 5
    XStatMetadata   id 1, name 2, description 3

    genxplane.py CASE OUT        one of the cases below (CASES)
    genxplane.py big N OUT [PAD] N events on 8 host threads, as
                                 pfwrite.py's `big` writes them (8 us every
                                 10 us per thread, 64 interned names), a
                                 line "Steps" of "step K" every 1000 rows,
                                 and PAD bytes of string stat per event

What each case holds is what tests/xplane/run.sh checks.
"""
import gzip
import struct
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wt):
    return varint(num << 3 | wt)


def vi(num, v):
    return key(num, 0) + varint(v)


def ld(num, data):
    if isinstance(data, str):
        data = data.encode()
    return key(num, 2) + varint(len(data)) + data


def f64(num, v):
    return key(num, 1) + struct.pack('<d', v)


US = 1000 * 1000  # ps


class Plane:
    """A plane: metadata interned by name, lines in order."""

    def __init__(self, pid, name):
        self.pid, self.name = pid, name
        self.meta = {}      # (name, display) -> id
        self.smeta = {}     # name -> id
        self.lines = []
        self.stats = []

    def mid(self, name, display=''):
        k = (name, display)
        if k not in self.meta:
            self.meta[k] = len(self.meta) + 1
        return self.meta[k]

    def sid(self, name):
        if name not in self.smeta:
            self.smeta[name] = 100 + len(self.smeta)
        return self.smeta[name]

    def stat(self, name, kind, v):
        m = vi(1, self.sid(name))
        if kind == 'double':
            m += f64(2, v)
        elif kind == 'uint':
            m += vi(3, v)
        elif kind == 'int':
            m += vi(4, v)
        elif kind == 'str':
            m += ld(5, v)
        elif kind == 'bytes':
            m += ld(6, v)
        elif kind == 'ref':
            m += vi(7, self.sid(v))
        return m

    def line(self, lid, name, ts_ns, events, display=''):
        """events: (name, display, offset_ps, duration_ps, [stat bytes])."""
        body = vi(1, lid) + ld(2, name) + vi(3, ts_ns)
        for ev in events:
            n, d, off, dur = ev[:4]
            st = ev[4] if len(ev) > 4 else []
            # a name given as a number: that metadata id as it is (none may
            # define it); an offset ('occ', N): an aggregate of N occurrences
            # (num_occurrences, no offset); ('occ+off', N, OFF) and
            # ('off+occ', OFF, N): both written, the last one the event's
            mid = n if isinstance(n, int) else self.mid(n, d)
            if isinstance(off, tuple) and off[0] == 'occ':
                e = vi(1, mid) + vi(5, off[1]) + vi(3, dur)
            elif isinstance(off, tuple) and off[0] == 'occ+off':
                e = vi(1, mid) + vi(5, off[1]) + vi(2, off[2]) + vi(3, dur)
            elif isinstance(off, tuple) and off[0] == 'off+occ':
                e = vi(1, mid) + vi(2, off[1]) + vi(5, off[2]) + vi(3, dur)
            else:
                e = vi(1, mid) + vi(2, off) + vi(3, dur)
            for s in st:
                e += ld(4, s)
            body += ld(4, e)
        if display:
            body += ld(11, display)
        self.lines.append(body)

    def encode(self):
        b = (vi(1, self.pid) if self.pid else b'') + ld(2, self.name)
        for l in self.lines:
            b += ld(3, l)
        for (n, d), i in sorted(self.meta.items(), key=lambda kv: kv[1]):
            m = vi(1, i) + ld(2, n) + (ld(4, d) if d else b'')
            b += ld(4, vi(1, i) + ld(2, m))
        for n, i in sorted(self.smeta.items(), key=lambda kv: kv[1]):
            b += ld(5, vi(1, i) + ld(2, vi(1, i) + ld(2, n)))
        for s in self.stats:
            b += ld(6, s)
        return b


def space(planes, hosts=()):
    return b''.join(ld(1, p.encode()) for p in planes) + b''.join(ld(4, h) for h in hosts)


# --- the cases ------------------------------------------------------------------------


def case_gpu():
    """GPU streams, a derived line, host threads, flows and every stat type.

    GPU 0: Stream #16(Kernel): gemm_kernel 3-13 us (stats int, double
    and uint, correlation_id 1), MemcpyHtoD 20-25 us (str, bytes, ref_value), Memset 30-31 us (busy 16 us);
    Stream #17(Kernel): nccl_allreduce 5-25 us (busy 20 us); Stream #18
    empty; XLA Ops: fusion.1 0-10 us (name an HLO text, display_name
    set).  GPU 1: lines without events.  Host: python (name "1234"):
    train_step 0-50 us over forward 1-21 us, an instant marker at 30 us;
    Host Threads/99: cuLaunchKernel 0-2 us (correlation_id 1).  Every
    line at timestamp_ns 1000000.  /host:metadata: no lines."""
    g = Plane(0, '/device:GPU:0')
    g.stats.append(g.stat('device_vendor', 'str', 'Acme'))
    g.stats.append(g.stat('device_type_string', 'ref', 'Acme X1'))
    st = [g.stat('correlation_id', 'int', 1), g.stat('flops', 'double', 1.5e9),
          g.stat('bytes_accessed', 'uint', 4096), g.stat('kernel_details', 'str', 'regs:32'),
          g.stat('raw', 'bytes', b'\x01\x02'), g.stat('tf_op', 'ref', 'jit_f/dot')]
    ts = 1000000
    g.line(16, 'Stream #16(Kernel)', ts, [('gemm_kernel', '', 3 * US, 10 * US, st[:3]),
                                         ('MemcpyHtoD', '', 20 * US, 5 * US, st[3:]),
                                         ('Memset', '', 30 * US, 1 * US)])
    g.line(17, 'Stream #17(Kernel)', ts, [('nccl_allreduce', '', 5 * US, 20 * US)])
    g.line(18, 'Stream #18(Kernel)', ts, [])
    g.line(100, 'XLA Ops', ts, [('%fusion.1 = f32[8]{0} fusion(f32[8]{0} %p), kind=kLoop',
                                 'fusion.1', 0, 10 * US)])
    g1 = Plane(0, '/device:GPU:1')
    g1.line(16, 'Stream #16(Kernel)', ts, [])
    h = Plane(0, '/host:CPU')
    h.line(1, '1234', ts, [('train_step', '', 0, 50 * US), ('forward', '', 1 * US, 20 * US),
                           ('marker', '', 30 * US, 0)], display='python')
    h.line(2, 'Host Threads/99', ts,
           [('cuLaunchKernel', '', 0, 2 * US, [h.stat('correlation_id', 'uint', 1)])])
    meta = Plane(0, '/host:metadata')
    return space([g, g1, h, meta], ['hostA'])


def case_tpu():
    """Two TPU planes (both id 0, the same line ids): XLA Modules (steps
    jit_f(123) 0-100 us and 300-400 us, jit_g(456) 200-250 us), XLA Ops
    named by HLO text only (fusion.3 10-40 us, copy.1 300 ps at 40 us +
    250 ps, convolution.2 from 50 us + 500 ps to 60 us), Async XLA Ops
    overlapping (copy-start.1..3 at 0, 20, 40 us, 60 us each: busy 100
    us); TPU 1: jit_f(123) and add.1, 0-80 us.  timestamp_ns 5000."""
    t0 = Plane(0, '/device:TPU:0')
    t0.stats.append(t0.stat('device_type_string', 'str', 'TPU v6 lite'))
    ts = 5000
    t0.line(1, 'XLA Modules', ts, [('jit_f(123)', '', 0, 100 * US),
                                   ('jit_g(456)', '', 200 * US, 50 * US),
                                   ('jit_f(123)', '', 300 * US, 100 * US)])
    t0.line(2, 'XLA Ops', ts, [
        ('%fusion.3 = f32[128]{0} fusion(f32[128]{0} %p), kind=kLoop', '', 10 * US, 30 * US),
        ('%copy.1 = f32[4]{0} copy(f32[4]{0} %q)', '', 40 * US + 250, 300),
        ('%convolution.2 = f32[8]{0} convolution(%a, %b)', '', 50 * US + 500, 10 * US - 500)])
    t0.line(3, 'Async XLA Ops', ts, [('copy-start.%d' % (i + 1), '', i * 20 * US, 60 * US)
                                     for i in range(3)])
    t1 = Plane(0, '/device:TPU:1')
    t1.line(1, 'XLA Modules', ts, [('jit_f(123)', '', 0, 80 * US)])
    t1.line(2, 'XLA Ops', ts, [('%add.1 = f32[] add(f32[] %x, f32[] %y)', '', 0, 80 * US)])
    return space([t0, t1])


def case_subns():
    """Sub-ns events, whose ends rounded alone would lose their time: TPU
    0's XLA Ops, 20000 events of 300 ps, one every ns from 100 ps on (busy
    6 us exactly; each end rounded to its ns: none); Async XLA Ops, 10000
    events of 1300 ps, one every 2 ns from 600 ps on (busy 13 us; rounded:
    10 us);
    XLA Modules: jit_step(1) over them all, 0-20 us.  timestamp_ns 0."""
    t = Plane(0, '/device:TPU:0')
    t.stats.append(t.stat('device_type_string', 'str', 'TPU v5p'))
    t.stats.append(t.stat('device_vendor', 'str', 'Google'))
    t.line(1, 'XLA Modules', 0, [('jit_step(1)', '', 0, 20 * US)])
    t.line(2, 'XLA Ops', 0, [('%%add.%d = f32[] add(f32[] %%x, f32[] %%y)' % (k % 7), '',
                              k * 1000 + 100, 300) for k in range(20000)])
    t.line(3, 'Async XLA Ops', 0, [('copy-start.%d' % (k % 5), '', k * 2000 + 600, 1300)
                                   for k in range(10000)])
    return space([t])


def host(k):
    """One host of two: epoch timestamp_ns, host 1 starts 1 ms after host 0;
    thread "worker": step 0-2 ms."""
    h = Plane(0, '/host:CPU')
    h.line(7, 'worker', 1700000000000000000 + k * 1000000, [('step', '', 0, 2000 * US)])
    return space([h], ['host%d' % k])


def case_launch():
    """A GPU-bound profile for the critical path, its launch joined to its
    kernel by correlation_id (as JAX's are, on a launch thread): Host
    python: step 0-10 us; Host Threads/5: hipModuleLaunchKernel 1-2 us
    (correlation_id 7); GPU 0 Stream #16(Kernel): gemm 4-40 us
    (correlation_id 7).  The path is the launch, 3 us to the kernel, and
    the kernel's 36 us; timestamp_ns 0."""
    g = Plane(0, '/device:GPU:0')
    g.line(16, 'Stream #16(Kernel)', 0,
           [('gemm', '', 4 * US, 36 * US, [g.stat('correlation_id', 'uint', 7)])])
    h = Plane(0, '/host:CPU')
    h.line(1, 'python', 0, [('step', '', 0, 10 * US)])
    h.line(2, 'Host Threads/5', 0,
           [('hipModuleLaunchKernel', '', 1 * US, 1 * US, [h.stat('correlation_id', 'uint', 7)])])
    return space([g, h])


def case_tfgpu():
    """TensorFlow on an NVIDIA GPU.  /device:GPU:0 (vendor Nvidia, type
    "NVIDIA A100-SXM4-40GB" by ref_value): Stream #14(Kernel) (a GEMM 2-12
    us, an Eigen kernel 14-15 us), Stream #15(MemcpyH2D) (0-3 us),
    Stream #16(MemcpyD2H) (20-21.5 us), derived TensorFlow Ops (MatMul
    2-12 us), TensorFlow Name Scope (model/dense 2-15 us), Steps (step 1,
    0-22 us), Launch Stats (two launches and an aggregate of 40:
    num_occurrences), Kernel Stats (aggregates only: no lane, a note);
    /host:CUPTI (thread 7777: cuLaunchKernel x2, cuMemcpyHtoDAsync);
    /host:CPU: tf_Compute/123 (display tf_Compute), tf_inter_op/124, python,
    and host lines TensorFlow Ops, TensorFlow Name Scope, Steps; two
    /host:metadata planes (one with stats) without lines.  timestamp_ns
    1000000 (device) and 999000 (host)."""
    g = Plane(1, '/device:GPU:0')
    g.stats.append(g.stat('device_vendor', 'str', 'Nvidia'))
    g.stats.append(g.stat('device_type_string', 'ref', 'NVIDIA A100-SXM4-40GB'))
    ts = 1000000
    g.line(14, 'Stream #14(Kernel)', ts, [
        ('volta_sgemm_128x64_nn', '', 2 * US, 10 * US, [g.stat('correlation_id', 'uint', 7)]),
        ('void Eigen::internal::EigenMetaKernel<float>(float*, int)', '', 14 * US, 1 * US)])
    g.line(15, 'Stream #15(MemcpyH2D)', ts, [('MemcpyH2D', '', 0, 3 * US)])
    g.line(16, 'Stream #16(MemcpyD2H)', ts, [('MemcpyD2H', '', 20 * US, 1500 * 1000)])
    g.line(1001, 'TensorFlow Ops', ts, [('MatMul', '', 2 * US, 10 * US)])
    g.line(1002, 'TensorFlow Name Scope', ts, [('model/dense', '', 2 * US, 13 * US)])
    g.line(1003, 'Steps', ts, [('1', '', 0, 22 * US)])
    g.line(1004, 'Launch Stats', ts, [('cudaLaunchKernel', '', 1 * US, 500 * 1000),
                                      ('cudaLaunchKernel', '', 13 * US, 500 * 1000),
                                      ('cudaLaunchKernel', '', ('occ', 40), 20 * US)])
    g.line(1005, 'Kernel Stats', ts, [('volta_sgemm_128x64_nn', '', ('occ', 3), 30 * US),
                                      ('MemcpyH2D', '', ('occ', 1), 3 * US)])
    c = Plane(2, '/host:CUPTI')
    c.line(7777, '7777', 999000, [
        ('cuLaunchKernel', '', 2000 * 1000, 5 * US, [c.stat('correlation_id', 'uint', 7)]),
        ('cuLaunchKernel', '', 8000 * 1000, 5 * US),
        ('cuMemcpyHtoDAsync', '', 0, 1 * US)])
    h = Plane(3, '/host:CPU')
    h.line(123, 'tf_Compute/123', 999000, [('MatMul', '', 1 * US, 12 * US),
                                          ('ExecutorState::Process', '', 1 * US, 14 * US)],
           display='tf_Compute')
    h.line(124, 'tf_inter_op/124', 999000, [('RunGraph', '', 0, 20 * US)])
    h.line(1, 'python', 999000, [('train_step', '', 0, 25 * US), ('session.run', '', 1 * US, 22 * US)])
    h.line(1001, 'TensorFlow Ops', 999000, [('MatMul', '', 1 * US, 12 * US)])
    h.line(1002, 'TensorFlow Name Scope', 999000, [('model/dense', '', 1 * US, 14 * US)])
    h.line(1003, 'Steps', 999000, [('1', '', 0, 25 * US)])
    m1 = Plane(4, '/host:metadata')
    m2 = Plane(5, '/host:metadata')
    m2.stats.append(m2.stat('profile_start_time', 'uint', 1700000000000000000))
    return space([m1, g, c, h, m2], ['tf-host'])


def case_rocm():
    """JAX on an AMD GPU (ROCm): epoch timestamp_ns (1.7e18), ps offsets
    that are no whole ns.  /device:GPU:0 (device_vendor AMD, type "AMD
    Instinct MI300X" by ref_value, more plane stats): Stream #16(Kernel) (a
    GEMM of a 300-character name, __amd_rocclr_copyBuffer), Stream
    #17(Kernel), derived XLA Modules (jit_step(12)) and XLA Ops (HLO
    names); /device:GPU:1 with one kernel; /host:CPU: python (nested), a
    pjrt pool thread."""
    ts = 1700000000000000000
    planes = []
    for dev in range(2):
        g = Plane(0, '/device:GPU:%d' % dev)
        g.stats.append(g.stat('device_vendor', 'str', 'AMD'))
        g.stats.append(g.stat('device_type_string', 'ref', 'AMD Instinct MI300X'))
        g.stats.append(g.stat('core_count', 'int', 304))
        g.stats.append(g.stat('clock_rate', 'double', 2100.0))
        gemm = 'Cijk_Alik_Bljk_SB_MT128x128x32_MI32x32x2x1_SN_' + 'x' * 250
        if dev == 0:
            g.line(16, 'Stream #16(Kernel)', ts, [(gemm, '', 1 * US + 123, 7 * US + 456),
                                                  ('__amd_rocclr_copyBuffer', '', 9 * US + 7,
                                                   333)])
            g.line(17, 'Stream #17(Kernel)', ts, [('wrapped_broadcast', '', 3 * US + 1, 999)])
            g.line(100, 'XLA Modules', ts, [('jit_step(12)', '', 0, 10 * US)])
            g.line(101, 'XLA Ops', ts, [('%dot.3 = f32[128,128]{1,0} dot(%a, %b)', 'dot.3',
                                         1 * US + 123, 7 * US + 456)])
        else:
            g.line(16, 'Stream #16(Kernel)', ts + 5000, [(gemm, '', 250, 2 * US + 250)])
        planes.append(g)
    h = Plane(0, '/host:CPU')
    h.line(1, 'python', ts - 2000, [('PjitFunction(step)', '', 0, 12 * US),
                                    ('ExecuteHelper', '', 1 * US + 1, 9 * US),
                                    ('hipModuleLaunchKernel', '', 2 * US + 1, 1 * US + 499)])
    h.line(2, 'tf_pjrt_thread_pool/4747829982129071201', ts - 2000,
           [('ThunkExecutor::Execute', '', 3 * US, 2 * US + 1)])
    return space(planes + [h], ['rocm-host'])


def case_tpufull():
    """A TPU profile's planes: /device:TPU:0 with XLA Modules, XLA Ops,
    Steps, Async XLA Ops (overlapping), Sparse Core Ops, XLA TraceMe and an
    empty Overlay; /device:TPU:0 SparseCore 0 (a plane of the same device:
    "TPU 0 SparseCore 0") with XLA Ops; /device:TPU:1 (its line ids the
    same); Task Environment (stats, no lines); /host:TPU (tpu_runtime);
    /host:CPU (a thread).  timestamp_ns 0, ps offsets."""
    planes = []
    for dev in range(2):
        t = Plane(0, '/device:TPU:%d' % dev)
        t.stats.append(t.stat('device_type_string', 'str', 'TPU v5 lite'))
        t.stats.append(t.stat('device_vendor', 'str', 'Google'))
        t.line(1, 'XLA Modules', 0, [('jit_train_step(7)', '', 0, 50 * US)])
        t.line(2, 'XLA Ops', 0, [('%%fusion.%d = f32[8]{0} fusion(%%p), kind=kLoop' % k, '',
                                  k * 5 * US + 250, 4 * US + 500 - dev * 1000)
                                 for k in range(10)])
        t.line(3, 'Steps', 0, [('0', '', 0, 50 * US)])
        t.line(4, 'Async XLA Ops', 0, [('all-reduce-start.%d' % k, '', k * 10 * US, 25 * US)
                                       for k in range(4)])
        t.line(5, 'Sparse Core Ops', 0, [('sc_gather.%d' % k, '', k * 7 * US + 1, 300)
                                         for k in range(6)])
        t.line(6, 'XLA TraceMe', 0, [('TpuExecute', '', 0, 49 * US)])
        t.line(7, 'Overlay', 0, [])
        planes.append(t)
        if dev == 0:
            sc = Plane(0, '/device:TPU:0 SparseCore 0')
            sc.line(2, 'XLA Ops', 0, [('%%gather.%d = f32[4]{0} gather(%%t)' % k, '',
                                       k * 3 * US + 700, 2 * US) for k in range(5)])
            planes.append(sc)
    env = Plane(0, 'Task Environment')
    env.stats.append(env.stat('profile_start_time', 'uint', 1700000000000000000))
    ht = Plane(0, '/host:TPU')
    ht.line(1, 'tpu_runtime', 0, [('TpuCompile', '', 0, 30 * US)])
    h = Plane(0, '/host:CPU')
    h.line(9, 'pjrt_client', 0, [('PjRtStreamExecutorClient::Execute', '', 0, 45 * US)])
    return space(planes + [env, ht, h], ['tpu-vm'])


def case_odd():
    """What a valid file may hold that the others do not: epoch
    timestamp_ns with negative, zero and huge offsets; an event whose
    metadata id no metadata defines (999); instants; events out of order;
    two lines of one id; aggregates (num_occurrences) beside timed events,
    and a line of aggregates alone (a note, no lane); offset_ps and
    num_occurrences both written (the last one counts); a line whose
    timestamp_ns is 0 and events at negative offsets."""
    h = Plane(0, '/host:CPU')
    ep = 1700000000000000000
    h.line(1, 'epoch', ep, [('early', '', -5 * US, 2 * US), ('zero', '', 0, 1 * US + 1),
                            (999, '', 2 * US, 3 * US), ('tick', '', 4 * US, 0),
                            ('late', '', 3600 * 1000 * US, 1 * US),
                            ('back', '', 1 * US + 500, 100)])
    h.line(2, 'agg', ep, [('op', '', 1 * US, 2 * US), ('op', '', ('occ', 12), 9 * US),
                          ('op2', '', ('off+occ', 4 * US, 3), 1 * US),
                          ('op3', '', ('occ+off', 5, 6 * US), 1 * US)])
    h.line(3, 'aggonly', ep, [('stat', '', ('occ', 4), 1 * US)])
    h.line(2, 'agg', ep, [('again', '', 10 * US, 1 * US)])
    h.line(4, 'negative', ep + 3000 * US, [('before', '', -2000 * US, 1000 * US)])
    return space([h])


def case_far():
    """A line whose timestamp_ns is the largest int64 (no profile's time:
    past the year 2096, where sums of times would overflow)."""
    h = Plane(0, '/host:CPU')
    h.line(1, 'ok', 0, [('x', '', 0, US)])
    h.line(2, 'far', (1 << 63) - 1, [('y', '', (1 << 63) - 1, (1 << 63) - 1)])
    return space([h])


def case_badlen():
    """A line whose length runs 50 bytes past its plane's end."""
    line = vi(1, 1) + ld(2, 'worker') + vi(3, 0) + ld(4, vi(1, 1) + vi(2, 0) + vi(3, US))
    plane = ld(2, '/host:CPU') + key(3, 2) + varint(len(line) + 50) + line
    return ld(1, plane)


CASES = {
    'gpu': case_gpu,
    'tpu': case_tpu,
    'subns': case_subns,
    'tfgpu': case_tfgpu,
    'rocm': case_rocm,
    'tpufull': case_tpufull,
    'odd': case_odd,
    'launch': case_launch,
    'host0': lambda: host(0),
    'host1': lambda: host(1),
    'gz': lambda: gzip.compress(case_gpu(), mtime=0),
    'cut': lambda: case_gpu()[:len(case_gpu()) * 2 // 3],
    'badlen': case_badlen,
    'far': case_far,
    # what a UTF-8 text round trip makes of the bytes: U+FFFD for each invalid byte
    'mangled': lambda: case_gpu().decode('utf-8', 'replace').encode('utf-8'),
    # what a text conversion of line ends makes of them: 0d 0a for each 0a
    'crlf': lambda: case_gpu().replace(b'\n', b'\r\n'),
}


def big(n, out, pad=0):
    """n events on 8 host threads as pfwrite.py's `big` writes slices, the
    plane written on the stream (it is never held whole)."""
    names = ['slice name %d' % i for i in range(64)]
    step_rows = 1000
    n_steps = (n // 8 + step_rows - 1) // step_rows
    padding = ld(4, vi(1, 101) + ld(5, 'x' * pad)) if pad else b''
    # each thread's line: its events, written in pieces
    lines = []
    for k in range(8):
        rows = (n - k + 7) // 8
        lines.append((k, rows))
    meta = b''.join(ld(4, vi(1, i + 1) + ld(2, vi(1, i + 1) + ld(2, nm)))
                    for i, nm in enumerate(names))
    meta += ld(4, vi(1, 65) + ld(2, vi(1, 65) + ld(2, 'step')))
    meta += ld(5, vi(1, 101) + ld(2, vi(1, 101) + ld(2, 'kernel_details')))

    def events(k, rows):
        buf = []
        for r in range(rows):
            i = r * 8 + k
            e = b'\x08' + varint(1 + i % 64) + b'\x10' + varint(r * 10 * US) + b'\x18' + \
                varint(8 * US) + padding
            buf.append(b'\x22' + varint(len(e)) + e)
            if len(buf) >= 8192:
                yield b''.join(buf)
                buf = []
        yield b''.join(buf)

    def line_size(k, rows):
        head = vi(1, k + 1) + ld(2, 'thread %d' % k) + vi(3, 0)
        return len(head) + sum(len(c) for c in events(k, rows)), head

    with open(out, 'wb') as f:
        sizes = []
        for k, rows in lines:
            sizes.append(line_size(k, rows))
        steps = vi(1, 99) + ld(2, 'Steps') + vi(3, 0) + b''.join(
            ld(4, vi(1, 65) + vi(2, s * step_rows * 10 * US) + vi(3, step_rows * 10 * US))
            for s in range(n_steps))
        head = ld(2, '/host:CPU')
        body_len = len(head) + sum(len(key(3, 2) + varint(sz)) + sz for sz, _ in sizes) + len(ld(3, steps)) + len(meta)
        f.write(key(1, 2) + varint(body_len) + head)
        for (k, rows), (sz, lhead) in zip(lines, sizes):
            f.write(key(3, 2) + varint(sz) + lhead)
            for c in events(k, rows):
                f.write(c)
        f.write(ld(3, steps))
        f.write(meta)
    # the step names: "step" for all (the window: --window-event step)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'big':
        big(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
        return
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        sys.exit('usage: genxplane.py {%s} OUT | big N OUT [PAD]' % ','.join(sorted(CASES)))
    with open(sys.argv[2], 'wb') as f:
        f.write(CASES[sys.argv[1]]())


if __name__ == '__main__':
    main()
