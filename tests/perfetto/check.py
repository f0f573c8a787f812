#!/usr/bin/env python3
"""check.py MODEL.json EXPR... - asserts on a figure model (tests/perfetto).

Each EXPR is Python evaluated with: m (the model), labels (lane labels in
order), busy (label -> busy ms), names (set of bar names), cats (set of
bar categories), counters (label -> (min, max)).  Prints the first that
is false and exits 1."""
import json
import sys

m = json.load(open(sys.argv[1]))
labels = [l['label'] for l in m['lanes']]
busy = {}
counters = {}
for i, l in enumerate(m['lanes']):
    if i < len(m['stats'].get('lanes', [])) and l['kind'] == 'slices':
        busy[l['label']] = m['stats']['lanes'][i]['busy_ms']
for c in m['stats'].get('counters', []):
    counters[labels[c['lane']]] = (c['min'], c['max'])
names = {b.get('name') for b in m['bars']}
cats = {b.get('category') for b in m['bars']}
for e in sys.argv[2:]:
    try:
        ok = eval(e)
    except Exception as x:  # a missing key is a failed check
        ok = False
        e += ' (%s: %s)' % (type(x).__name__, x)
    if not ok:
        print('check failed: %s\n  labels=%.400s\n  busy=%.400s' % (e, labels, busy))
        sys.exit(1)
