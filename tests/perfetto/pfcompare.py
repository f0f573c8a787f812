#!/usr/bin/env python3
"""pfcompare.py TRACE MODEL.json CHECK... - compares tracefig's JSON figure
model of a Perfetto trace (drawn with --stats) with pfdecode.py's own
decoding of the same trace (tests/perfetto).  Each CHECK is one of:

  cpus       the CPU lanes are "CPU N" for each CPU with switches, in order,
             each lane's busy time within 2 % of the decoder's (pid 0 idle)
  window     the window starts at the first event and spans first..last
             (within 1 us and 1 %)
  tracks     one slice lane per track-event track with slices, named as its
             descriptor (thread name or track name), the same bar names
             (only those where bars were merged may be missing), and busy
             time within 2 %
  counters   one counter lane per counter track with samples, named as it,
             with the decoder's min and max
  atrace     one lane per thread with atrace slices (the same tids), named
             by process_tree or else by one of the thread's comms, with the
             same bar names (as for tracks), and busy
             time within 2 %
  cpu-processes  --stats' CPU time per process: the same processes
             (cmdline[0], else 'pid N' with N the pid that process_tree or the
             thread's atrace events name, else the tid), each within 2 %
  cpu-legend the CPU lanes' legend: the processes of the most CPU time (as
             cpu-processes counts it) in order, at least 6 (all when fewer),
             each in its own colour with its cpu_ms; the rest one grey
             "other processes" whose "holds" lists them
  atrace-counters  one counter lane per atrace counter (C| or zero flag 4,
             one per process and name), named as it

Prints each failed check with what was expected and what was found; exits 1
when one fails."""
import collections
import fnmatch
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pfdecode  # noqa: E402

fails = []


def want(ok, what, expected, got):
    if not ok:
        fails.append('%s: expected %s, got %s' % (what, expected, got))


def main():
    trace, model = sys.argv[1], sys.argv[2]
    d = json.loads(json.dumps(pfdecode.decode(trace)))  # keys as strings, as printed
    m = json.load(open(model))
    lanes = m['lanes']
    stats = m.get('stats', {}).get('lanes', [])
    busy = {l['label']: stats[i]['busy_ms'] for i, l in enumerate(lanes)
            if i < len(stats) and l['kind'] == 'slices'}
    bars = collections.Counter(b['lane'] for b in m['bars'])
    merged = collections.Counter()
    for b in m['bars']:
        merged[b['lane']] += b.get('merged') or 0
    names = collections.defaultdict(set)    # lane -> bar names
    dense = collections.defaultdict(set)    # lane -> merged bars' names
    for b in m['bars']:
        if b.get('merged') or b.get('shape') == 'dense':
            dense[b['lane']].add(b.get('name'))
            dense[b['lane']].update(b.get('busy') or ())
        else:
            names[b['lane']].add(b.get('name'))
    cpu_lanes = [i for i, l in enumerate(lanes) if re.fullmatch(r'CPU \d+', l['label'])
                 and l['kind'] == 'slices']
    slice_lanes = [i for i, l in enumerate(lanes) if l['kind'] == 'slices' and i not in cpu_lanes]
    counter_lanes = [i for i, l in enumerate(lanes) if l['kind'] == 'counter']

    def busy_ok(label, ns):
        e, g = ns / 1e6, busy.get(label)
        want(g is not None and abs(g - e) <= 0.02 * e + 1e-3,
             '%s busy ms (2 %%)' % label, '%.3f' % e, g)

    def names_ok(i, exp):
        # a bar is a slice's name; bars too small to see are merged into one
        # (named by the category, or 'task *'; also unmerged), so the names can be lost
        # where a lane has merged bars, but never invented
        extra = [n for n in names[i] if n not in exp and  # 'task *': the tasks' names
                 not ('*' in str(n) and any(fnmatch.fnmatchcase(e, n) for e in exp))]
        lost = [] if dense[i] else [n for n in exp if n not in names[i]]
        want(not lost and not extra, 'bar names of %s' % lanes[i]['label'],
             exp[:20], 'lost %s, extra %s' % (lost[:20], extra[:20]))

    cstats = {c['lane']: c for c in m.get('stats', {}).get('counters', [])}
    for check in sys.argv[3:]:
        if check == 'cpus':
            cpus = [c for c, v in sorted(d['cpus'].items(), key=lambda x: int(x[0]))
                    if v['switches']]
            exp = ['CPU %s' % c for c in cpus]
            got = [lanes[i]['label'] for i in cpu_lanes]
            want(exp == got, 'CPU lanes', exp, got)
            for c in cpus:
                e = d['cpus'][c]['busy_ns'] / 1e6
                g = busy.get('CPU %s' % c)
                want(g is not None and abs(g - e) <= 0.02 * e + 1e-3,
                     'CPU %s busy ms (2 %%)' % c, '%.3f' % e, g)
        elif check == 'window':
            w = m['window']
            e0, e1 = d['first_ns'] / 1e3, d['last_ns'] / 1e3
            want(abs(w['start_us'] - e0) <= 1, 'window start us', e0, w['start_us'])
            span, gspan = e1 - e0, w['end_us'] - w['start_us']
            want(abs(gspan - span) <= 0.01 * span + 1, 'window span us (1 %)', span, gspan)
        elif check == 'tracks':
            tr = d['tracks'].values()
            exp = sorted(t['name'] or '' for t in tr)
            got = sorted(lanes[i]['label'].split(' / ')[-1] for i in slice_lanes)
            want(exp == got, 'track lanes', exp, got)
            for t in tr:
                ii = [i for i in slice_lanes if lanes[i]['label'].split(' / ')[-1] == t['name']]
                if len(ii) != 1:
                    continue
                i = ii[0]
                names_ok(i, t['names'])
                busy_ok(lanes[i]['label'], t['busy_ns'])
        elif check == 'counters':
            ct = d['counter_tracks'].values()
            exp = sorted(t['name'] for t in ct)
            got = sorted(lanes[i]['label'].split(' / ')[-1] for i in counter_lanes)
            want(exp == got, 'counter lanes', exp, got)
            for t in ct:
                for i in counter_lanes:
                    if lanes[i]['label'].split(' / ')[-1] == t['name'] and i in cstats:
                        g = (cstats[i]['min'], cstats[i]['max'])
                        want(abs(g[0] - t['min']) < 1e-6 and abs(g[1] - t['max']) < 1e-6,
                             'counter %s min, max' % lanes[i]['label'], (t['min'], t['max']), g)
        elif check == 'atrace':
            a = d['atrace']
            thr = [i for i in slice_lanes if isinstance(lanes[i].get('tid'), int)]
            exp = sorted(int(t) for t in a)
            got = sorted(lanes[i]['tid'] for i in thr)
            want(exp == got, 'threads with atrace slices (%d)' % len(exp),
                 exp[:20], '%d: %s' % (len(got), got[:20]))
            for i in thr:
                t = a.get(str(lanes[i]['tid']))
                if t is None:
                    continue
                th = re.sub(r' \(tid \d+\)$', '', lanes[i]['label'].split(' / ')[-1])
                ok = th == t['name'] if t['name'] else th in t['comms']
                want(ok, 'name of thread %d' % lanes[i]['tid'],
                     t['name'] or t['comms'], repr(lanes[i]['label']))
                names_ok(i, t['names'])
                busy_ok(lanes[i]['label'], t['busy_ns'])
        elif check == 'cpu-processes':
            exp = collections.Counter()
            for tid, v in d['cpu_tids'].items():
                exp[v['process'] or 'pid %s' % (v['pid'] or tid)] += v['ns'] / 1e6
            got = {c['name']: c['cpu_ms'] for c in m['stats'].get('cpu_processes', [])}
            want(sorted(exp) == sorted(got), 'processes on the CPUs',
                 sorted(set(exp) - set(got)), 'only tracefig\'s: %s' % sorted(set(got) - set(exp)))
            for k, e in sorted(exp.items()):
                if k in got:
                    want(abs(got[k] - e) <= 0.02 * e + 0.01, 'CPU ms of %s (2 %%)' % k,
                         '%.3f' % e, got[k])
        elif check == 'cpu-legend':
            # the CPU lanes' legend names the processes of the most CPU time
            # (the decoder's, as cpu-processes counts it), most first, at
            # least 6 of them (all when fewer), each in its own colour and
            # with its CPU time; the others are one grey "other processes"
            exp = collections.Counter()
            for tid, v in d['cpu_tids'].items():
                exp[v['process'] or 'pid %s' % (v['pid'] or tid)] += v['ns'] / 1e6
            top = sorted(exp.items(), key=lambda kv: (-kv[1], kv[0]))
            leg = [e for e in m.get('legend', []) if 'cpu_ms' in e]
            k = len(leg)
            want(k >= min(6, len(top)), 'processes in the legend', '>= %d' % min(6, len(top)), k)
            for (name, ms), e in zip(top, leg):
                # ties of equal time may come in either order
                ok = e['label'] == name or abs(exp.get(e['label'], -1) - ms) <= 0.02 * ms + 0.01
                want(ok, 'legend process %d' % leg.index(e), name, e['label'])
                want(abs(e['cpu_ms'] - ms) <= 0.02 * ms + 0.01, 'CPU ms of %s' % name,
                     '%.3f' % ms, e['cpu_ms'])
            colors = [e['color'] for e in leg]
            want(len(set(colors)) == len(colors), 'one colour per process', 'distinct', colors)
            other = [e for e in m.get('legend', []) if e['label'] == 'other processes']
            if len(top) > k:
                want(len(other) == 1 and sorted(other[0].get('holds', [])) ==
                     sorted(n for n, _ in top[k:]), '"other processes" holds the rest',
                     len(top) - k, other[0].get('holds', [])[:5] if other else None)
                want(not other or other[0]['color'] not in colors, 'its grey apart',
                     'not in %s' % colors, other and other[0]['color'])
            else:
                want(not other, 'no "other processes"', [], other)
        elif check == 'atrace-counters':
            exp = sorted(c.split(' ', 1)[1] for c in d['atrace_counters'])
            # a counter named as a thread of its process: both get ' (tid N)'
            got = sorted(re.sub(r' \(tid (\d+|\?)\)$', '', lanes[i]['label'].split(' / ')[-1])
                         for i in counter_lanes)
            want(exp == got, 'atrace counter lanes (%d)' % len(exp), exp[:20],
                 '%d: %s' % (len(got), got[:20]))
        else:
            sys.exit('pfcompare.py: unknown check %s' % check)
    for f in fails:
        print('%s: %s' % (os.path.basename(trace), f))
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
