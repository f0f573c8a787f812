#!/usr/bin/env python3
"""ftcount.py TRACE MODEL.json - an independent count of ftrace text, held
against tracefig's figure model (tests/ftrace; stdlib only).

It reads the text its own way (one regular expression a line; systrace
HTML's trace-data blocks and linuxPerfData string; a JSON's
systemTraceEvents) and counts:
  - per CPU, the time from each sched_switch to a task other than the idle
    task (pid 0) to the next switch on that CPU: the lane "CPU N"'s busy
    time, within 1 %; a line `CPU:N [LOST M EVENTS]` stops the CPU's run at
    its last event before it (nothing runs until its next switch);
  - per thread, its atrace slices (B|pid|name ... E, in time order, an E
    without an open B ignored, a B never closed left out): the threads with
    slices are the model's thread lanes (by tid), each with as many slices
    (bars, merged ones counted by what they merge) and the same busy time
    (the union of its outermost slices, within 2 %).
Prints what differs and exits 1; prints a summary and exits 0 otherwise."""
import collections
import gzip
import json
import re
import sys

LINE = re.compile(r'^\s*(?P<task>.*?)-(?P<pid>\d+)\s+(?:\(\s*(?P<tgid>[\d-]+)\)\s+)?'
                  r'\[(?P<cpu>\d+)\]\s+(?:\S+\s+)??(?P<ts>\d+(?:\.\d+)?):\s+'
                  r'(?P<event>[^\s:]+):?\s*(?P<args>.*)$')


# trace-cmd report -l: `TASK-PID CPUFLAGS SECONDS: EVENT: ARGS`
LAT = re.compile(r'^\s*(?P<task>.*?)-(?P<pid>\d+)\s+(?P<cpu>\d+)\S*\s+'
                 r'(?P<ts>\d+(?:\.\d+)?):\s+(?P<event>[^\s:]+):?\s*(?P<args>.*)$')


LOST = re.compile(r'^CPU:(\d+) \[(?:LOST (?:\d+ )?EVENTS|(?:\d+ )?EVENTS DROPPED)\]$')


def lines_of(path):
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    s = raw.decode('utf-8', 'replace')
    head = s.lstrip()[:20].lower()
    if head.startswith('{'):
        return json.loads(s).get('systemTraceEvents', '').split('\n')
    if head.startswith('<!doctype html') or head.startswith('<html'):
        out = []
        for m in re.finditer(r'<script class="trace-data"[^>]*>(.*?)</script>', s, re.S):
            body = m.group(1)
            if not body.lstrip().startswith(('{', '[')):
                out += body.split('\n')
        m = re.search(r'var linuxPerfData = "(.*?)(?<!\\)";', s, re.S)
        if m:
            js = m.group(1).replace('\\\n', '')
            out += json.loads('"' + js.replace('\\\'', "'") + '"').split('\n')
        return out
    return s.split('\n')


def ns(ts):
    sec, _, frac = ts.partition('.')
    return int(sec) * 10**9 + int((frac + '000000000')[:9])


def count(path):
    cpus = {}          # cpu -> [busy_ns, running tid, since]
    marks = []         # (ts, seq, tid, text)
    last = {}          # cpu -> the time of its last event
    for i, text in enumerate(lines_of(path)):
        if text.lstrip().startswith('#'):
            continue
        lost = LOST.match(text.strip())
        if lost:
            # events lost: the run stops at the CPU's last event, and
            # nothing runs until its next switch
            cpu = int(lost.group(1))
            c = cpus.get(cpu)
            if c and c[1] and cpu in last and last[cpu] >= c[2]:
                c[0] += last[cpu] - c[2]
            if c:
                c[1] = 0
            continue
        m = LINE.match(text.rstrip('\r')) or LAT.match(text.rstrip('\r'))
        if not m:
            continue
        ev, args, t = m.group('event'), m.group('args'), ns(m.group('ts'))
        if 'trace_event_clock_sync' not in args:
            last[int(m.group('cpu'))] = t
        if ev == 'sched_switch':
            nxt = re.search(r'next_pid=(\d+)', args) or re.search(r'==> .*:(\d+)(?: \[|$)', args)
            if not nxt:
                continue
            c = cpus.setdefault(int(m.group('cpu')), [0, None, 0])
            if c[1] is not None and c[1] != 0 and t >= c[2]:
                c[0] += t - c[2]
            c[1], c[2] = int(nxt.group(1)), t
        elif ev in ('tracing_mark_write', '0', 'print'):
            if ev == 'print':
                args = re.sub(r'^\S+: ', '', args)
            marks.append((t, i, int(m.group('pid')), args))
    marks.sort()
    stacks = collections.defaultdict(list)
    slices = collections.defaultdict(list)  # tid -> [(name, start, end, depth)]
    for t, _, tid, text in marks:
        if text.startswith('B|'):
            parts = text.split('|', 2)
            if len(parts) == 3:
                stacks[tid].append((parts[2], t))
        elif text.startswith('E') and (len(text) == 1 or text[1] == '|'):
            if stacks[tid]:
                name, t0 = stacks[tid].pop()
                slices[tid].append((name, t0, t, len(stacks[tid])))
    threads = {}
    for tid, v in slices.items():
        busy = sum(e - s for _, s, e, d in v if d == 0)
        threads[tid] = (len(v), busy, sorted({n for n, *_ in v}))
    return {c: v[0] for c, v in cpus.items() if v[1] is not None}, threads


def main():
    path, model = sys.argv[1], sys.argv[2]
    cpu_busy, threads = count(path)
    m = json.load(open(model))
    lanes = m['lanes']
    stats = m['stats']['lanes']
    busy = {l['label']: stats[i]['busy_ms'] for i, l in enumerate(lanes)
            if i < len(stats) and l['kind'] == 'slices'}
    bars = collections.Counter()  # slices drawn: a bar each, a dense bar what it merged
    for b in m['bars']:
        if b.get('category') != 'ftrace':  # an instant of another event
            bars[b['lane']] += b.get('merged') or 0 if b.get('shape') == 'dense' else 1
    fails = []
    got_cpus = sorted(int(l['label'][4:]) for l in lanes if re.fullmatch(r'CPU \d+', l['label']))
    if got_cpus != sorted(cpu_busy):
        fails.append('CPU lanes: expected %s, got %s' % (sorted(cpu_busy), got_cpus))
    for c, b in sorted(cpu_busy.items()):
        g = busy.get('CPU %d' % c)
        e = b / 1e6
        if g is None or abs(g - e) > 0.01 * e + 1e-3:
            fails.append('CPU %d busy ms (1 %%): expected %.3f, got %s' % (c, e, g))
    marked = {b['lane'] for b in m['bars'] if b.get('category') == 'atrace'}
    thr = {l['tid']: i for i, l in enumerate(lanes)
           if i in marked and isinstance(l.get('tid'), int)}
    if sorted(thr) != sorted(threads):
        fails.append('threads with atrace slices: expected %s, got %s' %
                     (sorted(threads)[:30], sorted(thr)[:30]))
    for tid, (n, b, names) in sorted(threads.items()):
        if tid not in thr:
            continue
        i = thr[tid]
        if bars[i] != n:
            fails.append('slices of thread %d: expected %d, got %d' % (tid, n, bars[i]))
        g, e = busy.get(lanes[i]['label']), b / 1e6
        if g is None or abs(g - e) > 0.02 * e + 1e-3:
            fails.append('busy ms of thread %d (2 %%): expected %.3f, got %s' % (tid, e, g))
    for f in fails[:20]:
        print(f)
    if fails:
        sys.exit(1)
    print('%s: %d CPUs (%s ms busy), %d threads, %d atrace slices agree' % (
        path.rsplit('/', 1)[-1], len(cpu_busy), '%.3f' % (sum(cpu_busy.values()) / 1e6),
        len(threads), sum(v[0] for v in threads.values())))


if __name__ == '__main__':
    main()
