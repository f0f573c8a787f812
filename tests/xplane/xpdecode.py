#!/usr/bin/env python3
"""xpdecode.py - an independent decoder of XPlane files (XSpace protobuf,
gzip'd or not), Python 3 stdlib only, for tests/xplane: the wire format read
by hand from the field numbers of xplane.proto.

    xpdecode.py FILE            prints a summary: per plane and line, the
                                event count and busy time (ps, union)
    xpdecode.py FILE --json     the same as JSON
    xpdecode.py FILE --dump     every event (plane, line, name, start, dur)
"""
import gzip
import json
import sys


def varint(b, i):
    x = s = 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return x, i


def fields(b, i=0, end=None):
    end = len(b) if end is None else end
    while i < end:
        tag, i = varint(b, i)
        num, wt = tag >> 3, tag & 7
        if wt == 0:
            v, i = varint(b, i)
            yield num, wt, v
        elif wt == 1:
            yield num, wt, b[i:i + 8]
            i += 8
        elif wt == 5:
            yield num, wt, b[i:i + 4]
            i += 4
        elif wt == 2:
            n, i = varint(b, i)
            yield num, wt, b[i:i + n]
            i += n
        else:
            raise ValueError('wire type %d' % wt)


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def meta(b):
    m = {'name': '', 'display_name': ''}
    for num, wt, v in fields(b):
        if num == 2 and wt == 2:
            m['name'] = v.decode('utf-8', 'replace')
        elif num == 4 and wt == 2:
            m['display_name'] = v.decode('utf-8', 'replace')
    return m


def plane(b):
    p = {'name': '', 'lines': [], 'meta': {}, 'stat_meta': {}, 'stats': []}
    for num, wt, v in fields(b):
        if num == 2 and wt == 2:
            p['name'] = v.decode('utf-8', 'replace')
        elif num == 3 and wt == 2:
            p['lines'].append(line(v))
        elif num in (4, 5) and wt == 2:
            k, val = 0, b''
            for n2, w2, v2 in fields(v):
                if n2 == 1 and w2 == 0:
                    k = s64(v2)
                elif n2 == 2 and w2 == 2:
                    val = v2
            if num == 4:
                p['meta'][k] = meta(val)
            else:
                p['stat_meta'][k] = meta(val)['name']
        elif num == 6 and wt == 2:
            p['stats'].append(v)
    return p


def line(b):
    l = {'name': '', 'display_name': '', 'ts': 0, 'events': []}
    for num, wt, v in fields(b):
        if num == 2 and wt == 2:
            l['name'] = v.decode('utf-8', 'replace')
        elif num == 11 and wt == 2:
            l['display_name'] = v.decode('utf-8', 'replace')
        elif num == 3 and wt == 0:
            l['ts'] = s64(v)
        elif num == 4 and wt == 2:
            e = {'mid': 0, 'off': 0, 'dur': 0, 'stats': [], 'occ': None}
            for n2, w2, v2 in fields(v):
                if n2 == 1 and w2 == 0:
                    e['mid'] = s64(v2)
                elif n2 == 2 and w2 == 0:  # a oneof with num_occurrences:
                    e['off'] = s64(v2)     # the last one written holds
                    e['occ'] = None
                elif n2 == 5 and w2 == 0:
                    e['occ'] = s64(v2)
                    e['off'] = 0
                elif n2 == 3 and w2 == 0:
                    e['dur'] = s64(v2)
                elif n2 == 4 and w2 == 2:
                    e['stats'].append(v2)
            l['events'].append(e)
    return l


def load(path):
    b = open(path, 'rb').read()
    if b[:2] == b'\x1f\x8b':
        b = gzip.decompress(b)
    return [plane(v) for num, wt, v in fields(b) if num == 1 and wt == 2]


def busy_ps(events):
    # an aggregate (num_occurrences) has no time
    iv = sorted((e['off'], e['off'] + e['dur']) for e in events
                if e['dur'] > 0 and e['occ'] is None)
    tot, cur_s, cur_e = 0, None, None
    for s, e in iv:
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                tot += cur_e - cur_s
            cur_s, cur_e = s, e
        elif e > cur_e:
            cur_e = e
    if cur_e is not None:
        tot += cur_e - cur_s
    return tot


def summary(planes):
    out = []
    for p in planes:
        for l in p['lines']:
            if not l['events']:
                continue
            # a line's events on its own clock: ts ns + offset ps
            ev = [dict(e, off=l['ts'] * 1000 + e['off']) for e in l['events']]
            out.append({'plane': p['name'], 'line': l['display_name'] or l['name'],
                        'events': len(ev), 'busy_ps': busy_ps(ev),
                        'aggregates_only': all(e['occ'] is not None for e in ev)})
    return out


if __name__ == '__main__':
    planes = load(sys.argv[1])
    if '--dump' in sys.argv:
        for p in planes:
            for l in p['lines']:
                for e in l['events']:
                    m = p['meta'].get(e['mid'], {'name': '?', 'display_name': ''})
                    print(p['name'], '|', l['display_name'] or l['name'], '|', m['name'][:60],
                          '|', m['display_name'][:40], '|', l['ts'], e['off'], e['dur'],
                          [(p['stat_meta'].get(next(fields(s))[2], '?')) for s in e['stats']])
    elif '--json' in sys.argv:
        json.dump(summary(planes), sys.stdout)
    else:
        for r in summary(planes):
            print('%-20s %-40s %7d %14d' % (r['plane'], r['line'][:40], r['events'], r['busy_ps']))
