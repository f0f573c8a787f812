#!/usr/bin/env python3
"""pfdecode.py TRACE - an independent decoder of Perfetto protobuf traces, for
checking tracefig's loader (tests/perfetto).  Python 3 stdlib only; written
from the field numbers in Perfetto's protos, not from tracefig's C code.

Prints a JSON summary on standard output (times in ns on the trace clock):
  first_ns, last_ns    the first and last event (track event or ftrace event)
  cpus                 {cpu: {busy_ns, switches}}: the sum of the intervals
                       between consecutive switches of a CPU whose switched-in
                       pid is not 0, from full sched_switch and compact_sched
  atrace               {tid: {slices, open, name, comms, names, busy_ns}}: B|/I| of
                       print and zero (flag 1) events per emitting thread in
                       time order, E| ends the innermost; open = begins never
                       ended; name from process_tree, comms from sched events
  atrace_counters      sorted 'tgid name' of the C| / zero flag 4 counters
  tracks               {uuid: {name, kind, pid, tid, slices, names, busy_ns}}:
                       track events' slices (begins and instants) per track
  busy_ns              (of both) the time some slice is open; one never
                       ended lasts to last_ns
  counter_tracks       {uuid: {name, n, min, max}}: counter tracks with samples
  cpu_tids             {tid: {ns, pid, process, comms}}: each thread's time on
                       the CPUs; pid from process_tree, else from the thread's
                       atrace events; process: its cmdline[0]

As a module: decode(path) returns the same dict."""
import gzip
import json
import sys
import zlib

WT_VARINT, WT_I64, WT_LEN, WT_I32 = 0, 1, 2, 5


def fields(buf):
    """Yields (field number, wire type, value) of one message; value is an
    int for varints and fixed ints, bytes for length-delimited fields."""
    i, n = 0, len(buf)
    while i < n:
        k, i = varint(buf, i)
        num, wt = k >> 3, k & 7
        if wt == WT_VARINT:
            v, i = varint(buf, i)
        elif wt == WT_I64:
            v = int.from_bytes(buf[i:i + 8], 'little')
            i += 8
        elif wt == WT_LEN:
            ln, i = varint(buf, i)
            v = buf[i:i + ln]
            if len(v) != ln:
                raise ValueError('cut length-delimited field')
            i += ln
        elif wt == WT_I32:
            v = int.from_bytes(buf[i:i + 4], 'little')
            i += 4
        else:
            raise ValueError('wire type %d' % wt)
        if i > n:
            raise ValueError('cut field')
        yield num, wt, v


def varint(buf, i):
    v = shift = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def signed(v, bits=64):
    """A varint's two's complement value (int32/int64 fields)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def as_double(v):
    import struct
    return struct.unpack('<d', v.to_bytes(8, 'little'))[0]


def repeated_ints(wt, v):
    """A repeated integer field's values, packed or not."""
    if wt != WT_LEN:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def text(v):
    return v.decode('utf-8', 'replace')


class Decoder:
    def __init__(self):
        self.first = self.last = None
        self.switches = {}      # cpu -> [(ts, pid)]
        self.athreads = {}      # tid -> [slices, depth, busy, depth-0 begin]
        self.aevents = []       # (ts, order, tid, B|E|I, name): per-CPU bundles interleave
        self.anames = {}        # tid -> atrace slice names
        self.acounters = set()
        self.tracks = {}        # uuid -> dict
        self.seq = {}           # sequence id -> state
        self.clocks = {}        # clock id -> (clock ns, trace ns)
        self.primary = 6
        self.comm = {}          # tid -> set of comms the scheduler gives it
        self.ptname = {}        # tid -> the last process_tree name
        self.pname = {}         # pid -> process_tree cmdline[0]
        self.tgid = {}          # tid -> pid (process_tree)
        self.atgid = {}         # tid -> the pid its atrace events name

    # --- times
    def seen(self, ts):
        if self.first is None or ts < self.first:
            self.first = ts
        if self.last is None or ts > self.last:
            self.last = ts

    def state(self, sid):
        return self.seq.setdefault(sid, {'names': {}, 'cats': {}, 'clock': None,
                                         'track': None, 'inc': {}, 'seqclocks': {}})

    def to_trace(self, ts, clock, st):
        if clock is None or clock == self.primary:
            return ts
        if clock >= 64:   # sequence-scoped
            c = st['seqclocks'].get(clock)
            if c is None:
                return ts
            mult, inc, cts, tts = c
            if inc:
                prev = st['inc'].get(clock, cts)
                ts = prev + ts
                st['inc'][clock] = ts
            return tts + (ts - cts) * mult
        c = self.clocks.get(clock)
        if c is None:
            return ts
        return c[1] + (ts - c[0])

    def clock_snapshot(self, buf, st):
        cl = []
        for num, wt, v in fields(buf):
            if num == 1:
                c = {1: 0, 2: 0, 3: 0, 4: 1}
                for n2, _, v2 in fields(v):
                    c[n2] = v2
                cl.append(c)
            elif num == 2:
                self.primary = v
        prim = [c for c in cl if c[1] == self.primary]
        if not prim:
            return
        tts = prim[0][2]
        for c in cl:
            if c[1] >= 64:
                st['seqclocks'][c[1]] = (c[4] or 1, bool(c[3]), c[2], tts)
                st['inc'].pop(c[1], None)
            elif c[1] not in self.clocks:  # the first snapshot is enough here
                self.clocks[c[1]] = (c[2], tts)

    # --- packets
    def packet(self, buf):
        p = {}
        for num, wt, v in fields(buf):
            if num == 50:
                self.trace(zlib.decompress(v))
                return
            p.setdefault(num, []).append(v)
        sid = p.get(10, [0])[0]
        st = self.state(sid)
        flags = p.get(13, [0])[0]
        if flags & 1 or p.get(41, [0])[0]:
            st['names'] = {}
            st['cats'] = {}
            st['clock'] = None
            st['track'] = None
        for d in p.get(59, []):
            for num, wt, v in fields(d):
                if num == 58:
                    st['clock'] = v
                elif num == 11:
                    for n2, _, v2 in fields(v):
                        if n2 == 11:
                            st['track'] = v2
        for d in p.get(12, []):
            for num, wt, v in fields(d):
                if num in (1, 2):
                    e = dict((n2, v2) for n2, _, v2 in fields(v))
                    (st['cats'] if num == 1 else st['names'])[e.get(1, 0)] = text(e.get(2, b''))
        for d in p.get(6, []):
            self.clock_snapshot(d, st)
        for d in p.get(60, []):
            self.descriptor(d)
        for d in p.get(2, []):
            self.process_tree(d)
        if 11 in p:
            clock = p.get(58, [st['clock']])[0]
            ts = self.to_trace(p.get(8, [0])[0], clock, st)
            self.track_event(p[11][0], ts, st)
        for d in p.get(1, []):
            self.bundle(d)

    def descriptor(self, buf):
        t = {'name': None, 'kind': 'custom', 'pid': None, 'tid': None}
        uuid = 0
        for num, wt, v in fields(buf):
            if num == 1:
                uuid = v
            elif num in (2, 10, 13):
                t['name'] = text(v)
            elif num == 5:
                t['parent'] = v
            elif num in (3, 4):
                t['kind'] = 'process' if num == 3 else 'thread'
                for n2, _, v2 in fields(v):
                    if n2 == 1:
                        t['pid'] = signed(v2)
                    elif n2 == 2 and num == 4:
                        t['tid'] = signed(v2)
                    elif (n2 == 6 and num == 3) or (n2 == 5 and num == 4):
                        t['name'] = t['name'] or text(v2)
            elif num == 8:
                t['kind'] = 'counter'
        tr = self.track(uuid)
        for k, v in t.items():
            if v is not None or k not in tr:
                tr[k] = v

    def track(self, uuid):
        return self.tracks.setdefault(uuid, {'name': None, 'kind': 'custom', 'pid': None,
                                             'tid': None, 'slices': 0, 'names': set(),
                                             'samples': [], 'events': []})

    def process_tree(self, buf):
        for num, wt, v in fields(buf):
            if num == 1:
                pid, cmd = 0, []
                for n2, _, v2 in fields(v):
                    if n2 == 1:
                        pid = signed(v2)
                    elif n2 == 3:
                        cmd.append(text(v2))
                if cmd and cmd[0].strip():
                    self.pname[pid] = cmd[0].strip()
                self.tgid[pid] = pid
            elif num == 2:
                e = dict((n2, v2) for n2, _, v2 in fields(v))
                if 2 in e:
                    self.ptname[signed(e.get(1, 0))] = text(e[2]).strip()
                if 3 in e:
                    self.tgid[signed(e.get(1, 0))] = signed(e[3])

    def track_event(self, buf, ts, st):
        typ, uuid, name, counter = 0, st['track'], None, None
        for num, wt, v in fields(buf):
            if num == 9:
                typ = v
            elif num == 11:
                uuid = v
            elif num == 23:
                name = text(v)
            elif num == 10:
                name = st['names'].get(v, name)
            elif num == 30:
                counter = signed(v)
            elif num == 44:
                counter = as_double(v)
        if uuid is None:
            return   # legacy or thread-descriptor events: not decoded here
        self.seen(ts)
        tr = self.track(uuid)
        if typ in (1, 3):
            tr['slices'] += 1
            if name is not None:
                tr['names'].add(name)
        if typ in (1, 2):  # writers may emit a slice's begin after later events
            tr['events'].append((ts, len(tr['events']), typ))
        if typ == 4 and counter is not None:
            tr['samples'].append(counter)

    # --- ftrace
    def bundle(self, buf):
        cpu = 0
        events, compact = [], []
        for num, wt, v in fields(buf):
            if num == 1:
                cpu = v
            elif num == 2:
                events.append(v)
            elif num == 4:
                compact.append(v)
        sw = self.switches.setdefault(cpu, [])
        for c in compact:
            self.compact(c, sw)
        for e in events:
            self.fevent(e, sw)

    def compact(self, buf, sw):
        ts, pids, comm, intern = [], [], [], []
        for num, wt, v in fields(buf):
            if num == 1:
                ts += repeated_ints(wt, v)
            elif num == 3:
                pids += [signed(x) for x in repeated_ints(wt, v)]
            elif num == 6:
                comm += repeated_ints(wt, v)
            elif num == 5:
                intern.append(text(v))
        t = 0
        for i, d in enumerate(ts):
            t += d
            self.seen(t)
            sw.append((t, pids[i]))
            if i < len(comm) and comm[i] < len(intern):
                self.comm.setdefault(pids[i], set()).add(intern[comm[i]].strip())

    def fevent(self, buf, sw):
        ts, pid = 0, 0
        body = {}
        for num, wt, v in fields(buf):
            if num == 1:
                ts = v
            elif num == 2:
                pid = v
            elif num in (3, 4, 331):
                body[num] = v
        self.seen(ts)
        if 4 in body:
            e = dict((n, v) for n, _, v in fields(body[4]))
            npid = signed(e.get(6, 0))
            sw.append((ts, npid))
            if 5 in e:
                self.comm.setdefault(npid, set()).add(text(e[5]).strip())
        if 3 in body:
            buf = b''
            for n, _, v in fields(body[3]):
                if n == 2:
                    buf = v
            self.atrace_text(ts, pid, text(buf).rstrip('\n'))
        if 331 in body:
            e = dict((n, v) for n, _, v in fields(body[331]))
            flag = signed(e.get(1, 0))
            if e.get(3):
                self.atgid.setdefault(pid, signed(e[3]))
            if flag == 1:
                self.aevents.append((ts, len(self.aevents), pid, 'B', text(e.get(2, b''))))
            elif flag == 2:
                self.aevents.append((ts, len(self.aevents), pid, 'E', None))
            elif flag == 4:
                self.acounters.add('%d %s' % (signed(e.get(3, 0)), text(e.get(2, b''))))

    def atrace_text(self, ts, tid, s):
        parts = s.split('|')
        k = parts[0]
        if k in ('B', 'C', 'S', 'F', 'I') and len(parts) >= 3 and parts[1].strip().isdigit():
            self.atgid.setdefault(tid, int(parts[1]))
        if (k == 'B' or k == 'I') and len(parts) >= 3 or k == 'E':
            self.aevents.append((ts, len(self.aevents), tid, k,  # names may hold '|'
                                 '|'.join(parts[2:]) if k != 'E' else None))
        elif k == 'C' and len(parts) >= 4:
            self.acounters.add('%s %s' % (parts[1], parts[2]))

    def abegin(self, tid, ts):
        t = self.athreads.setdefault(tid, [0, 0, 0, 0])
        t[0] += 1
        if t[1] == 0:
            t[3] = ts
        t[1] += 1

    def aend(self, tid, ts):
        t = self.athreads.get(tid)
        if t and t[1] > 0:
            t[1] -= 1
            if t[1] == 0:
                t[2] += ts - t[3]

    def pid_of(self, tid):
        return self.tgid.get(tid, self.atgid.get(tid))

    # --- the file
    def trace(self, buf):
        for num, wt, v in fields(buf):
            if num == 1 and wt == WT_LEN:
                self.packet(v)

    def summary(self):
        for ts, _, tid, k, name in sorted(self.aevents, key=lambda e: e[:2]):
            if k != 'E':
                self.abegin(tid, ts)
                self.anames.setdefault(tid, set()).add(name)
            if k != 'B':
                self.aend(tid, ts)
        cpus, run = {}, {}
        for cpu, sw in sorted(self.switches.items()):
            if not sw:
                continue
            sw.sort(key=lambda x: x[0])
            busy = 0
            for a, b in zip(sw, sw[1:]):
                if a[1] != 0:
                    busy += b[0] - a[0]
                    run[a[1]] = run.get(a[1], 0) + b[0] - a[0]
            cpus[cpu] = {'busy_ns': busy, 'switches': len(sw)}
        tracks, counters = {}, {}
        for uuid, t in sorted(self.tracks.items()):
            if t['samples']:
                counters[uuid] = {'name': t['name'], 'n': len(t['samples']),
                                  'min': min(t['samples']), 'max': max(t['samples'])}
            if t['slices']:
                busy = depth = 0
                for ts, _, typ in sorted(t['events']):
                    if typ == 1:
                        if depth == 0:
                            open_at = ts
                        depth += 1
                    elif depth > 0:
                        depth -= 1
                        if depth == 0:
                            busy += ts - open_at
                if depth:
                    busy += self.last - open_at
                tracks[uuid] = {'name': t['name'], 'kind': t['kind'], 'pid': t['pid'],
                                'tid': t['tid'], 'slices': t['slices'], 'names': sorted(t['names']),
                                'busy_ns': busy}
        return {'first_ns': self.first, 'last_ns': self.last, 'cpus': cpus,
                'atrace': {tid: {'slices': a[0], 'open': a[1], 'name': self.ptname.get(tid),
                                 'busy_ns': a[2] + (self.last - a[3] if a[1] else 0),
                                 'comms': sorted(self.comm.get(tid, ())),
                                 'names': sorted(self.anames.get(tid, ()))}
                           for tid, a in sorted(self.athreads.items())},
                'atrace_counters': sorted(self.acounters),
                'tracks': tracks, 'counter_tracks': counters,
                'cpu_tids': {tid: {'ns': ns, 'pid': self.pid_of(tid),
                                   'process': self.pname.get(self.pid_of(tid)),
                                   'comms': sorted(self.comm.get(tid, ()))}
                             for tid, ns in sorted(run.items())}}


def decode(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    d = Decoder()
    d.trace(data)
    return d.summary()


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: pfdecode.py TRACE')
    json.dump(decode(sys.argv[1]), sys.stdout, indent=1, sort_keys=True)
    print()
