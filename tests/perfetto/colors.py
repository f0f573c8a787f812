#!/usr/bin/env python3
"""colors.py PNG MODEL.json [MIN]: the classes' colours as drawn (tests/perfetto,
and tests/chrome's many-category case).

Reads the figure's PNG (8-bit RGB or RGBA, as cairo writes it) and its
JSON model.
Each legend entry's colour must be drawn (some pixels of exactly it: the
swatch at least), no two entries may share a colour, and the distinct class
colours in the PNG (pixels of exactly a category's colour) are as many as
the legend's entries.  With MIN, at least MIN entries carry a process's
cpu_ms (a system trace's CPU legend).  Prints what fails; exits 1."""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'busy'))
from inked import read_png  # noqa: E402


def pixels(data):
    """The PNG's pixels, as (r, g, b) counts (alpha over white): read by
    tests/busy/inked.py's PNG reader, the one the suites share."""
    return collections.Counter(px for row in read_png(data) for px in row)


def rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def main():
    png, model = sys.argv[1], sys.argv[2]
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    m = json.load(open(model))
    seen = pixels(open(png, 'rb').read())
    legend = m.get('legend', [])
    fails = []
    cols = [rgb(e['color']) for e in legend]
    if len(set(cols)) != len(cols):
        fails.append('two legend entries share a colour: %s' % [e['color'] for e in legend])
    for e in legend:
        if not seen[rgb(e['color'])]:
            fails.append('%s (%s) not drawn' % (e['label'], e['color']))
    cats = {rgb(c['color']) for c in m.get('categories', [])}
    drawn = {c for c in cats if seen[c]}
    if len(drawn) != len(set(cols)):
        fails.append('%d class colours drawn, %d legend entries' % (len(drawn), len(set(cols))))
    n_cpu = len([e for e in legend if 'cpu_ms' in e])
    if n_cpu < least:
        fails.append('%d processes in the legend, at least %d wanted' % (n_cpu, least))
    for f in fails:
        print('colors.py: %s: %s' % (os.path.basename(png), f))
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
