#!/usr/bin/env python3
"""pfwrite.py - the project's own writer of Perfetto protobuf traces, for the
tests and `make bench` (Python 3 stdlib only: the wire format by hand).

    pfwrite.py CASE OUT        writes one of the small traces below
    pfwrite.py big N OUT [JSON] N track-event slices (and the same as Chrome
                                JSON when JSON is given)

Field numbers are Perfetto's (protos/perfetto/trace/...): TracePacket
timestamp 8, trusted_packet_sequence_id 10, interned_data 12,
sequence_flags 13, track_event 11, track_descriptor 60, clock_snapshot 6,
trace_packet_defaults 59, timestamp_clock_id 58, ftrace_events 1,
process_tree 2, compressed_packets 50.
"""
import sys
import zlib


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


def sint(num, v):  # int32/int64 as varint (negative: two's complement)
    return vi(num, v if v >= 0 else v + (1 << 64))


def ld(num, data):
    if isinstance(data, str):
        data = data.encode()
    return key(num, 2) + varint(len(data)) + data


def f64(num, v):
    import struct
    return key(num, 1) + struct.pack('<d', v)


def fx64(num, v):
    import struct
    return key(num, 1) + struct.pack('<Q', v)


def packed(num, vals):
    return ld(num, b''.join(varint(v) for v in vals))


def packet(*fields):
    return ld(1, b''.join(fields))


# TrackEvent types
BEGIN, END, INSTANT, COUNTER = 1, 2, 3, 4


def thread_track(uuid, pid, tid, name, parent=None):
    td = vi(1, pid) + vi(2, tid) + ld(5, name)
    return packet(ld(60, vi(1, uuid) + (vi(5, parent) if parent else b'') + ld(4, td)), vi(10, 1))


def process_track(uuid, pid, name):
    return packet(ld(60, vi(1, uuid) + ld(3, vi(1, pid) + ld(6, name))), vi(10, 1))


def custom_track(uuid, name, parent=None, counter=False, unit=None):
    body = vi(1, uuid) + ld(2, name) + (vi(5, parent) if parent else b'')
    if counter:
        body += ld(8, ld(6, unit) if unit else b'')
    return packet(ld(60, body), vi(10, 1))


def event(ts, typ, uuid=None, name=None, name_iid=None, cat=None, cat_iid=None, seq=1,
          flags=0, interned=b'', annots=b'', flows=(), terms=(), clock=None, counter=None,
          dcounter=None):
    te = vi(9, typ)
    if uuid is not None:
        te += vi(11, uuid)
    if name is not None:
        te += ld(23, name)
    if name_iid is not None:
        te += vi(10, name_iid)
    if cat is not None:
        te += ld(22, cat)
    if cat_iid is not None:
        te += vi(3, cat_iid)
    te += annots
    for f in flows:
        te += fx64(47, f)
    for f in terms:
        te += fx64(48, f)
    if counter is not None:
        te += sint(30, counter)
    if dcounter is not None:
        te += f64(44, dcounter)
    fields = [vi(8, ts), ld(11, te), vi(10, seq)]
    if flags:
        fields.append(vi(13, flags))
    if interned:
        fields.append(ld(12, interned))
    if clock is not None:
        fields.append(vi(58, clock))
    return packet(*fields)


def interned_names(pairs, field=2):
    return b''.join(ld(field, vi(1, iid) + ld(2, s)) for iid, s in pairs)


def annot(name, s=None, i=None):
    body = ld(10, name)
    if s is not None:
        body += ld(6, s)
    if i is not None:
        body += sint(4, i)
    return ld(4, body)


def clock_snapshot(clocks, primary=None):
    body = b''.join(ld(1, vi(1, cid) + vi(2, ts)) for cid, ts in clocks)
    if primary:
        body += vi(2, primary)
    return packet(ld(6, body))


US = 1000
MS = 1000000


# --- the cases ------------------------------------------------------------------

def case_tracks():
    """Thread tracks, nested custom tracks, flows, annotations, instants."""
    out = [process_track(1, 100, 'app'),
           thread_track(2, 100, 101, 'main', parent=1),
           thread_track(3, 100, 102, 'worker', parent=1),
           custom_track(10, 'Group'),
           custom_track(11, 'Child', parent=10),
           custom_track(12, 'Async', parent=1)]
    t = 1000 * MS
    out += [event(t, BEGIN, 2, 'outer', cat='c1', annots=annot('arg', s='hello') + annot('n', i=7),
                  flows=[77]),
            event(t + 2 * MS, BEGIN, 2, 'inner'),
            event(t + 5 * MS, END, 2),
            event(t + 10 * MS, END, 2),
            event(t + 12 * MS, BEGIN, 3, 'job', terms=[77]),
            event(t + 20 * MS, END, 3),
            event(t + 4 * MS, INSTANT, 3, 'ping'),
            event(t + 1 * MS, BEGIN, 11, 'child slice'),
            event(t + 31 * MS, END, 11),
            event(t + 3 * MS, BEGIN, 12, 'async one'),
            event(t + 9 * MS, END, 12)]
    return out


def case_intern():
    """Names and categories interned; the tables cleared and reused."""
    out = [thread_track(2, 200, 201, 'T')]
    t = 5 * MS
    out.append(event(t, BEGIN, 2, name_iid=1, cat_iid=1, flags=1,
                     interned=interned_names([(1, 'first')]) + interned_names([(1, 'catA')], 1)))
    out.append(event(t + 1 * MS, END, 2, flags=2))
    # same iid, new meaning after the reset
    out.append(event(t + 2 * MS, BEGIN, 2, name_iid=1, flags=1 | 2,
                     interned=interned_names([(1, 'second')])))
    out.append(event(t + 4 * MS, END, 2, flags=2))
    # a second sequence's iid 1 is its own
    out.append(event(t + 5 * MS, BEGIN, 2, name_iid=1, seq=9, flags=1,
                     interned=interned_names([(1, 'other seq')])))
    out.append(event(t + 8 * MS, END, 2, seq=9))
    return out


def case_defaults():
    """trace_packet_defaults: the track and the clock (MONOTONIC = BOOTTIME + 1 s)."""
    out = [clock_snapshot([(6, 10 * 1000 * MS), (3, 11 * 1000 * MS)]),
           thread_track(2, 300, 301, 'D')]
    defaults = ld(59, vi(58, 3) + ld(11, vi(11, 2)))
    out.append(packet(defaults, vi(10, 4), vi(13, 1)))
    out.append(event(11 * 1000 * MS + 1 * MS, BEGIN, None, 'on default', seq=4))
    out.append(event(11 * 1000 * MS + 3 * MS, END, None, seq=4))
    # explicit clock: BOOTTIME on the same sequence
    out.append(event(10 * 1000 * MS + 4 * MS, INSTANT, None, 'boot', seq=4, clock=6))
    return out


def case_incclock():
    """A sequence-scoped incremental clock (64, in us) and legacy events."""
    snap = ld(6, ld(1, vi(1, 6) + vi(2, 50 * 1000 * MS)) +
              ld(1, vi(1, 64) + vi(2, 7000) + vi(3, 1) + vi(4, 1000)))
    out = [thread_track(2, 900, 901, 'inc'), packet(snap, vi(10, 5))]
    out.append(event(1000, BEGIN, 2, 'incremental', seq=5, clock=64))
    out.append(event(2000, END, 2, seq=5, clock=64))
    # legacy events: X with a duration, and B/E, on a thread descriptor's lane
    td = ld(44, vi(1, 900) + vi(2, 902) + ld(5, 'legacy thread'))
    out.append(packet(td, vi(10, 6)))
    for ts, ph, name, dur in [(50 * 1000 * MS + 4 * MS, ord('X'), 'legacy X', 2000),
                              (50 * 1000 * MS + 7 * MS, ord('B'), 'legacy B', None),
                              (50 * 1000 * MS + 8 * MS, ord('E'), None, None),
                              (50 * 1000 * MS + 9 * MS, ord('C'), 'legacy C', None)]:
        le = vi(2, ph) + (vi(3, dur) if dur else b'')
        te = ld(6, le) + (ld(23, name) if name else b'')
        if ph == ord('C'):
            te += annot('depth', i=4)
        out.append(packet(vi(8, ts), ld(11, te), vi(10, 6)))
    return out


def case_counters():
    out = [process_track(1, 400, 'proc'),
           custom_track(5, 'mem', parent=1, counter=True, unit='bytes')]
    for i in range(10):
        out.append(event(i * MS, COUNTER, 5, counter=i * 10))
    out.append(custom_track(6, 'wave', counter=True))
    for i in range(5):
        out.append(event(i * MS, COUNTER, 6, dcounter=i / 2))
    return out


def ftrace_bundle(cpu, events=b'', compact=b''):
    body = vi(1, cpu) + events
    if compact:
        body += ld(4, compact)
    return packet(ld(1, body), vi(10, 7))


def fevent(ts, pid, payload_num, payload):
    return ld(2, vi(1, ts) + vi(2, pid) + ld(payload_num, payload))


def sched_switch(ts, cpu_pid, prev_pid, prev_comm, next_pid, next_comm):
    return fevent(ts, cpu_pid, 4, ld(1, prev_comm) + vi(2, prev_pid) + ld(5, next_comm) +
                  vi(6, next_pid))


def printf(ts, tid, text):
    return fevent(ts, tid, 3, ld(2, text))


def zero(ts, tid, flag, name, tgid, value=0):
    return fevent(ts, tid, 331, vi(1, flag) + ld(2, name) + vi(3, tgid) + vi(4, value))


def process_tree():
    procs = ld(1, vi(1, 500) + vi(2, 1) + ld(3, '/bin/server'))
    procs += ld(1, vi(1, 600) + vi(2, 1) + ld(3, 'client'))
    thr = ld(2, vi(1, 501) + ld(2, 'srv-worker') + vi(3, 500))
    return packet(ld(2, procs + thr))


def case_sched_full():
    """Full sched_switch on two CPUs; atrace in print and zero events."""
    t = 2000 * MS
    ev0 = (sched_switch(t, 0, 0, 'swapper/0', 500, 'server') +
           sched_switch(t + 10 * MS, 500, 500, 'server', 0, 'swapper/0') +
           sched_switch(t + 20 * MS, 0, 0, 'swapper/0', 600, 'client') +
           sched_switch(t + 25 * MS, 600, 600, 'client', 501, 'srv-worker') +
           sched_switch(t + 40 * MS, 501, 501, 'srv-worker', 0, 'swapper/0'))
    ev1 = (sched_switch(t + 5 * MS, 0, 0, 'swapper/1', 501, 'srv-worker') +
           sched_switch(t + 8 * MS, 501, 501, 'srv-worker', 0, 'swapper/1'))
    # atrace: 501 begins on CPU 1 (bundle written second) and ends on CPU 0
    at0 = (printf(t + 26 * MS, 501, 'E|500\n') +
           printf(t + 27 * MS, 501, 'C|500|queue|5\n') +
           zero(t + 28 * MS, 501, 1, 'zero slice', 500) +
           zero(t + 30 * MS, 501, 2, '', 500) +
           printf(t + 31 * MS, 501, 'S|500|async op|42\n') +
           printf(t + 32 * MS, 501, 'S|500|async op|43\n') +
           printf(t + 35 * MS, 501, 'F|500|async op|42\n') +
           printf(t + 39 * MS, 501, 'F|500|async op|43\n'))
    at1 = (printf(t + 6 * MS, 501, 'B|500|handle|request\n') +
           printf(t + 7 * MS, 501, 'B|500|inner\n') +
           printf(t + 7 * MS + 500 * US, 501, 'E|500\n') +
           zero(t + 7 * MS + 600 * US, 501, 4, 'zcount', 500, 9))
    return [process_tree(), ftrace_bundle(0, ev0 + at0), ftrace_bundle(1, ev1 + at1)]


def case_sched_compact():
    """compact_sched: deltas, an intern table, pid 0 idle."""
    t = 3000 * MS
    stamps = [t, 10 * MS, 5 * MS, 15 * MS]  # absolute first, then deltas
    pids = [700, 0, 701, 0]
    comms = [1, 0, 2, 0]
    cs = packed(1, stamps) + packed(3, pids) + packed(6, comms)
    cs += ld(5, 'swapper/2') + ld(5, 'alpha') + ld(5, 'beta')
    procs = packet(ld(2, ld(1, vi(1, 700) + vi(2, 1) + ld(3, 'alpha-proc')) +
                      ld(2, vi(1, 701) + ld(2, 'beta') + vi(3, 700))))
    return [procs, ftrace_bundle(2, compact=cs)]


def case_system():
    """A system trace: 4 CPUs, 20 threads of atrace slices, 6 counters."""
    t = 1000 * MS
    procs = b''.join(ld(1, vi(1, 1000 + k) + vi(2, 1) + ld(3, 'proc%d' % k)) for k in range(20))
    out = [packet(ld(2, procs))]
    for cpu in range(4):
        ev = b''
        prev, prev_comm = 0, 'swapper/%d' % cpu
        for j in range(5):
            k = cpu * 5 + j
            ts = t + j * 10 * MS
            ev += sched_switch(ts, prev, prev, prev_comm, 1000 + k, 'proc%d' % k)
            ev += printf(ts + MS, 1000 + k, 'B|%d|work %d\n' % (1000 + k, k))
            ev += printf(ts + 5 * MS, 1000 + k, 'E|%d\n' % (1000 + k))
            ev += printf(ts + 6 * MS, 1000 + k, 'C|%d|level %d|%d\n' % (1000 + k, k, k))
            ev += sched_switch(ts + 8 * MS, 1000 + k, 1000 + k, 'proc%d' % k, 0, 'swapper/%d' % cpu)
            prev, prev_comm = 0, 'swapper/%d' % cpu
        out.append(ftrace_bundle(cpu, ev))
    return out


def case_system_apps():
    """A system trace whose busiest threads are not its first by pid: an app
    (pid 900, main and RenderThread) and a test runner among 12 idle-ish
    low-pid user threads and the kernel's (children of kthreadd, pid 2, and a
    kworker the process tree does not list); 4 CPUs running 9 processes of
    distinct CPU times; a flat counter before a varying one."""
    t = 1000 * MS
    tree = [(2, 0, 'kthreadd'), (20, 2, 'kthr_a'), (21, 2, 'kthr_b'),
            (900, 1, 'com.example.app'), (950, 1, 'com.example.runner'),
            (960, 1, 'busyuser')]
    tree += [(100 + k, 1, 'idle%d' % k) for k in range(12)]
    procs = b''.join(ld(1, vi(1, pid) + vi(2, ppid) + ld(3, name)) for pid, ppid, name in tree)
    thr = ld(2, vi(1, 901) + ld(2, 'RenderThread') + vi(3, 900))
    thr += ld(2, vi(1, 30) + ld(2, 'kworker/1:2'))  # of no listed process
    out = [packet(ld(2, procs + thr))]
    # (tid, tgid, busy ms): a tie at the last of 6 places, RenderThread (a
    # user's) against kthr_b (the kernel's, lower pid); a kworker outside the
    # tree ties with the runner
    busy = [(950, 950, 40), (30, 30, 40), (900, 900, 30), (20, 20, 30), (960, 960, 25),
            (901, 900, 20), (21, 21, 20)] + [(100 + k, 100 + k, 1) for k in range(12)]
    at = b''
    for tid, tgid, ms in busy:
        at += printf(t + 1 * MS, tid, 'B|%d|work of %d\n' % (tgid, tid))
        at += printf(t + (1 + ms) * MS, tid, 'E|%d\n' % tgid)
    # counters of pid 100: "flat" holds 5, "wavy" goes 0, 9, 0, 9
    for j in range(4):
        at += printf(t + (2 + 10 * j) * MS, 100, 'C|100|flat|5\n')
        at += printf(t + (3 + 10 * j) * MS, 100, 'C|100|wavy|%d\n' % (9 * (j % 2)))
    out.append(ftrace_bundle(0, at))
    # CPU time: process k runs (9 - k) * 4 ms, spread over the 4 CPUs
    run = [(900, 'com.example.app'), (950, 'runner'), (960, 'busyuser'), (100, 'idle0'),
           (101, 'idle1'), (102, 'idle2'), (103, 'idle3'), (104, 'idle4'), (105, 'idle5')]
    for cpu in range(4):
        ev = b''
        ts = t + 50 * MS + cpu * 100 * US  # (no CPU the copy of another)
        for k, (pid, comm) in enumerate(run):
            ms = 9 - k
            ev += sched_switch(ts, 0, 0, 'swapper/%d' % cpu, pid, comm)
            ev += sched_switch(ts + ms * MS, pid, pid, comm, 0, 'swapper/%d' % cpu)
            ts += (ms + 1) * MS
        out.append(ftrace_bundle(cpu, ev))
    return out


def case_freq():
    """cpu_frequency, cpu_idle and gpu_frequency alone: the counters are drawn."""
    ev = b''
    for i, (f, idle) in enumerate([(300000, 0), (1200000, 4294967295), (1800000, 1)]):
        t = (1 + i) * MS
        ev += (fevent(t, 0, 11, vi(1, f) + vi(2, 1)) + fevent(t, 0, 13, vi(1, idle) + vi(2, 1)) +
               fevent(t, 0, 332, vi(1, 0) + vi(2, f // 2)))
    return [ftrace_bundle(0, ev)]


def case_compressed():
    inner = b''.join(case_tracks())
    return [packet(ld(50, zlib.compress(inner)))]


def case_gpu():
    """GPU counters: a descriptor inline, then interned (InternedData 47)."""
    spec = ld(1, vi(1, 7) + ld(2, 'GPU busy')) + ld(1, vi(1, 8) + ld(2, 'mem bw'))
    out = []
    for i in range(4):
        ev = ld(2, vi(1, 7) + vi(2, 10 * i)) + ld(2, vi(1, 8) + f64(3, i / 4)) + vi(3, 1)
        if i == 0:
            ev = ld(1, spec) + ev
        out.append(packet(vi(8, (1 + i) * MS), ld(52, ev), vi(10, 3)))
    spec2 = ld(1, vi(1, 9) + ld(2, 'shader'))
    interned = ld(47, vi(1, 1) + ld(2, spec2) + vi(3, 0))
    for i in range(3):
        ev = vi(4, 1) + ld(2, vi(1, 9) + vi(2, 5 + i))
        out.append(packet(vi(8, (1 + i) * MS), ld(52, ev), vi(10, 4), ld(12, interned)))
    # render stages: deprecated specifications by index, then interned ones
    specs = ld(7, ld(2, ld(1, 'GRAPHICS')) + ld(3, ld(1, 'vertex')) + ld(3, ld(1, 'fragment')))
    out.append(packet(vi(8, 1 * MS), ld(53, vi(2, 1 * MS) + vi(3, 0) + vi(4, 1) + vi(11, 0) + specs),
                      vi(10, 8)))
    spec_names = ld(24, vi(1, 5) + ld(2, 'COMPUTE')) + ld(24, vi(1, 6) + ld(2, 'dispatch'))
    out.append(packet(vi(8, 2 * MS), ld(53, vi(2, 500 * US) + vi(13, 5) + vi(14, 6) + vi(11, 0)),
                      vi(10, 8), ld(12, spec_names)))
    # the ftrace gpu_frequency event
    out.append(ftrace_bundle(0, fevent(1 * MS, 0, 332, vi(1, 0) + vi(2, 585000)) +
                             fevent(3 * MS, 0, 332, vi(1, 0) + vi(2, 848000))))
    return out


def case_empty():
    return [packet(ld(33, b'\x08\x01')), packet(vi(10, 1), ld(69, b''))]


def case_unknown():
    """Unknown fields everywhere (an extension's numbers)."""
    out = [thread_track(2, 800, 801, 'U')]
    te = vi(9, BEGIN) + vi(11, 2) + ld(23, 'known') + ld(9999, b'\x01\x02') + vi(5000, 3)
    out.append(packet(vi(8, 10 * MS), ld(11, te), vi(10, 1), ld(7777, b'xyz'), fx64(6666, 1)))
    out.append(event(12 * MS, END, 2))
    return out


CASES = {n[5:]: f for n, f in globals().items() if n.startswith('case_')}


def big(n, out, json_out=None):
    """n slices on 8 threads, as protobuf (and Chrome JSON)."""
    with open(out, 'wb') as f:
        f.write(process_track(1, 1, 'bench'))
        for k in range(8):
            f.write(thread_track(10 + k, 1, 100 + k, 'thread %d' % k, parent=1))
        names = interned_names([(i + 1, 'slice name %d' % i) for i in range(64)])
        f.write(event(0, INSTANT, 10, 'start', flags=1, interned=names))
        buf = []
        for i in range(n):
            k = i % 8
            t = (i // 8) * 10 * US
            buf.append(event(t, BEGIN, 10 + k, name_iid=1 + i % 64, flags=2))
            buf.append(event(t + 8 * US, END, 10 + k, flags=2))
            if len(buf) > 4096:
                f.write(b''.join(buf))
                buf = []
        f.write(b''.join(buf))
    if json_out:
        with open(json_out, 'w') as f:
            f.write('{"traceEvents":[\n')
            f.write('{"ph":"M","pid":1,"name":"process_name","args":{"name":"bench"}}')
            for k in range(8):
                f.write(',\n{"ph":"M","pid":1,"tid":%d,"name":"thread_name","args":{"name":'
                        '"thread %d"}}' % (100 + k, k))
            for i in range(n):
                k = i % 8
                t = (i // 8) * 10
                f.write(',\n{"ph":"B","pid":1,"tid":%d,"ts":%d,"name":"slice name %d"}'
                        ',\n{"ph":"E","pid":1,"tid":%d,"ts":%d}' % (100 + k, t, i % 64, 100 + k,
                                                                   t + 8))
            f.write('\n]}\n')


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'big':
        big(int(sys.argv[2]), sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
        return
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        sys.exit('usage: pfwrite.py {%s} OUT | big N OUT [JSON]' % ','.join(sorted(CASES)))
    with open(sys.argv[2], 'wb') as f:
        f.write(b''.join(CASES[sys.argv[1]]()))


if __name__ == '__main__':
    main()
