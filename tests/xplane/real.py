#!/usr/bin/env python3
"""real.py XPLANE MODEL.json - an XPlane file against tracefig's figure
model (drawn with --all-lanes and a lane cap above the lines): the same
lanes (plane label / line name, for every line with events), each lane's
event count (the model's lanes[i].events and stats.lanes[i].events: every
XEvent of the line, instants and aggregates too) exactly, and its busy
time within 0.5 % (xpdecode.py, an independent decoder, takes the union of
the events' [start, end) in ps; an aggregate, num_occurrences, has no
time); two lines of one name in a plane ("LABEL (tid N)") summed, a line
of aggregates alone named in a note.  Prints what differs; exit 1."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xpdecode  # noqa: E402


def plane_label(name):
    m = re.match(r'/device:([^:]+):(\d+)(.*)$', name)
    if m:
        return '%s %s%s' % m.groups()
    if name == '/host:CPU':
        return 'Host'
    return name[1:] if name.startswith('/') else name


planes = xpdecode.load(sys.argv[1])
want, want_n, noted = {}, {}, []
for r in xpdecode.summary(planes):
    k = plane_label(r['plane']) + ' / ' + r['line']
    if r['aggregates_only']:  # no time: a note, no lane
        noted.append(k)
        continue
    want[k] = want.get(k, 0) + r['busy_ps'] / 1e9  # ms
    want_n[k] = want_n.get(k, 0) + r['events']
m = json.load(open(sys.argv[2]))
got, got_n = {}, {}
bad = 0
for k in noted:
    if not any(n.startswith(k + ': ') for n in m.get('notes', [])):
        print('line %s of aggregates only: in no note' % k)
        bad = 1
for i, l in enumerate(m['lanes']):
    k = re.sub(r' \(tid \d+\)$', '', l['label'])  # two lines of one name
    got[k] = got.get(k, 0) + m['stats']['lanes'][i]['busy_ms']
    got_n[k] = (got_n.get(k) or 0) + (l.get('events') or 0)
    if m['stats']['lanes'][i].get('events') != l.get('events'):
        print('events of %s: lanes %s, stats %s' % (l['label'], l.get('events'),
                                                     m['stats']['lanes'][i].get('events')))
        bad = 1
if set(want) != set(got):
    print('lanes differ: only decoded %s; only drawn %s' %
          (sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
    bad = 1
for k in sorted(set(want) & set(got)):
    if want_n[k] != got_n[k]:
        print('events of %s: decoded %d, drawn %s' % (k, want_n[k], got_n[k]))
        bad = 1
    w, g = want[k], got[k]
    if abs(w - g) > max(0.005 * w, 0.0015):
        print('busy of %s: decoded %.4f ms, drawn %.4f ms' % (k, w, g))
        bad = 1
print('%d lanes compared' % len(set(want) & set(got)))
sys.exit(bad)
