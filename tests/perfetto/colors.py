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
import struct
import sys
import zlib


def pixels(data):
    """The PNG's pixels, as (r, g, b) counts (alpha over white)."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    out = collections.Counter()
    for r in range(h):
        ft = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride if ft else 0):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        for i in range(0, stride, bpp):
            px = (line[i], line[i + 1], line[i + 2])
            if bpp == 4 and line[i + 3] != 255:
                al = line[i + 3] / 255.0
                px = tuple(round(v * al + 255 * (1 - al)) for v in px)
            out[px] += 1
    return out


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
