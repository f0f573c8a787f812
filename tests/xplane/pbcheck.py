#!/usr/bin/env python3
"""pbcheck.py PROTO XPLANE MODEL.json - an XPlane file read by protobuf's
own parser (python3-protobuf, the module protoc compiles from PROTO, the
schema xplane.proto) against tracefig's figure model, drawn with
--all-lanes, a lane cap above the lines and --stats: the same lanes (plane
label / line display_name, else name, for every XLine with events; two
lines of one name in a plane, drawn "LABEL (tid N)", summed; a line of
aggregates alone named in a note instead), each lane's event count
(len(line.events): every XEvent, instants and aggregates too) equal to
the model's lanes[i].events and stats.lanes[i].events, and its busy time
(the union of [timestamp_ns * 1000 + offset_ps, + duration_ps) in ps, an
aggregate (num_occurrences, no time) none) equal to the ps (the model
prints an XPlane profile's times in ms to 9 decimals).  Prints what
differs and "N lanes compared"; exit 1 on a difference, 2 when protoc
fails (run.sh checks for protoc and the module before)."""
import gzip
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile


def compile_proto(proto, out):
    d, f = os.path.split(os.path.abspath(proto))
    subprocess.run(['protoc', '-I', d, '--python_out=' + out, f], check=True)
    sys.path.insert(0, out)
    return importlib.import_module(os.path.splitext(f)[0] + '_pb2')


def plane_label(name):
    m = re.match(r'/device:([^:]+):(\d+)(.*)$', name)
    if m:
        return '%s %s%s' % m.groups()
    if name == '/host:CPU':
        return 'Host'
    return name[1:] if name.startswith('/') else name


def busy_ps(iv):
    tot, cur = 0, None
    for s, e in sorted(iv):
        if cur is None or s > cur[1]:
            if cur:
                tot += cur[1] - cur[0]
            cur = [s, e]
        elif e > cur[1]:
            cur[1] = e
    return tot + (cur[1] - cur[0] if cur else 0)


def main():
    proto, path, model = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            pb = compile_proto(proto, tmp)
        except (OSError, subprocess.CalledProcessError) as e:
            print('protoc: %s' % e)
            sys.exit(2)
        data = open(path, 'rb').read()
        if data[:2] == b'\x1f\x8b':
            data = gzip.decompress(data)
        space = pb.XSpace()
        space.ParseFromString(data)
    want, want_n, noted = {}, {}, set()
    for p in space.planes:
        for ln in p.lines:
            if not len(ln.events):
                continue
            k = plane_label(p.name) + ' / ' + (ln.display_name or ln.name)
            if all(e.WhichOneof('data') == 'num_occurrences' for e in ln.events):
                noted.add(k)  # no time at all: a note, not a lane
                continue
            base = ln.timestamp_ns * 1000
            iv = [(base + e.offset_ps, base + e.offset_ps + e.duration_ps)
                  for e in ln.events
                  if e.duration_ps > 0 and e.WhichOneof('data') != 'num_occurrences']
            want[k] = want.get(k, 0) + busy_ps(iv) / 1e9  # ms
            want_n[k] = want_n.get(k, 0) + len(ln.events)
    m = json.load(open(model))
    got, got_n = {}, {}
    bad = 0
    for i, l in enumerate(m['lanes']):
        # two lines of one name in a plane: "LABEL (tid N)", summed as above
        k = re.sub(r' \(tid \d+\)$', '', l['label'])
        got[k] = got.get(k, 0) + m['stats']['lanes'][i]['busy_ms']
        got_n[k] = (got_n.get(k) or 0) + (l.get('events') or 0)
        if m['stats']['lanes'][i].get('events') != l.get('events'):
            print('events of %s: lanes %s, stats %s'
                  % (l['label'], l.get('events'), m['stats']['lanes'][i].get('events')))
            bad = 1
    for k in sorted(noted):
        if not any(n.startswith(k + ': ') for n in m.get('notes', [])):
            print('line %s of aggregates only: in no note' % k)
            bad = 1
    if set(want) != set(got):
        print('lanes differ: only protobuf %s; only drawn %s'
              % (sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
        bad = 1
    for k in sorted(set(want) & set(got)):
        if want_n[k] != got_n[k]:
            print('events of %s: protobuf %d, drawn %s' % (k, want_n[k], got_n[k]))
            bad = 1
        w, g = want[k], got[k]
        if abs(w - g) > 1e-6 * w + 2e-9:  # exact: the model prints ps
            print('busy of %s: protobuf %.6f ms, drawn %.6f ms' % (k, w, g))
            bad = 1
    print('%d lanes compared' % len(set(want) & set(got)))
    sys.exit(bad)


if __name__ == '__main__':
    main()
