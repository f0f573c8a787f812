#!/usr/bin/python3
"""peer_window.py TRACE FROM_MS TO_MS: what a Python tool does before it can
draw or measure a window of a Chrome trace: load the JSON (gzip'd or not)
with the json module, find the origin, and keep the complete events that
reach into [FROM, TO) ms from it, grouped by (pid, tid).  Prints the count.
The peer make bench compares tracefig with (tests/tools/bench-large.sh)."""
import gzip
import json
import sys


def main():
    path, lo, hi = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        doc = json.load(fh)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    starts = [e["ts"] for e in events if e.get("ph") in ("X", "B", "E", "i", "I") and "ts" in e]
    origin = min(starts)
    w0, w1 = origin + lo * 1000.0, origin + hi * 1000.0
    lanes = {}
    for e in events:
        if e.get("ph") != "X":
            continue
        t0 = e["ts"]
        t1 = t0 + e.get("dur", 0)
        if t1 >= w0 and t0 < w1:
            lanes.setdefault((e.get("pid"), e.get("tid")), []).append(e)
    print(sum(len(v) for v in lanes.values()), "events in", len(lanes), "lanes")


if __name__ == "__main__":
    main()
