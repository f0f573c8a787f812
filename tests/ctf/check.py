#!/usr/bin/env python3
"""check.py - assertions on a JSON figure model for tests/ctf/run.sh.

    check.py MODEL.json CHECK...

Each CHECK is one of
    lanes=L1|L2|...        the lanes' labels, in order
    busy=LABEL:MS          the lane's busy time (ms, stats)
    proc=NAME:MS           a process's time on the CPUs (ms, stats)
    bars=LANE:N            N bars on the lane labelled LANE
    bar=LANE:NAME:X0:X1    a bar named NAME from X0 to X1 on the lane
    row=LANE:NAME:ROW      the bar NAME on the lane is in row ROW
(the lane of bar, row and cat is the longest label the text begins with)
    cat=LANE:CATEGORY:N    N bars of that category on the lane
    note=TEXT              a note holds TEXT
Prints what fails; exits 1 if anything does.
"""
import json
import sys


def main():
    f = json.load(open(sys.argv[1]))
    labels = [l["label"] for l in f["lanes"]]
    stats = f.get("stats") or {}
    bad = []
    for c in sys.argv[2:]:
        k, v = c.split("=", 1)
        if k == "lanes":
            if labels != v.split("|"):
                bad.append("lanes: %s" % labels)
            continue
        if k == "note":
            if not any(v in n for n in f.get("notes", [])):
                bad.append("notes: %s" % f.get("notes"))
            continue
        # LANE:...: the lane is the longest label the text begins with
        # (names and labels hold colons: kworker/0:1, app:work)
        nums = {"busy": 1, "proc": 1, "bars": 1, "bar": 2, "row": 1, "cat": 1}.get(k, 0)
        head = v.rsplit(":", nums) if nums else [v]
        if k in ("bar", "row", "cat"):
            lane = max((l for l in labels if head[0].startswith(l + ":")), key=len, default="")
            parts = [lane, head[0][len(lane) + 1:]] + head[1:]
        else:
            parts = head
        if k == "proc":
            got = {p["name"]: p["cpu_ms"] for p in stats.get("cpu_processes", [])}
            if abs(got.get(parts[0], -1) - float(parts[1])) > 1e-6:
                bad.append("%s: %s" % (c, got))
            continue
        if parts[0] not in labels:
            bad.append("%s: no lane %r in %s" % (c, parts[0], labels))
            continue
        i = labels.index(parts[0])
        bars = [b for b in f["bars"] if b["lane"] == i]
        if k == "busy":
            got = stats["lanes"][i]["busy_ms"]
            if abs(got - float(parts[1])) > 1e-6:
                bad.append("%s: got %s" % (c, got))
        elif k == "bars":
            if len(bars) != int(parts[1]):
                bad.append("%s: got %d: %s" % (c, len(bars), [b["name"] for b in bars]))
        elif k == "bar":
            ok = any(b["name"] == parts[1] and abs(b["x0"] - float(parts[2])) < 1e-6
                     and abs(b["x1"] - float(parts[3])) < 1e-6 for b in bars)
            if not ok:
                bad.append("%s: %s" % (c, [(b["name"], b["x0"], b["x1"]) for b in bars]))
        elif k == "row":
            rows = [b["row"] for b in bars if b["name"] == parts[1]]
            if rows != [int(parts[2])]:
                bad.append("%s: rows %s" % (c, rows))
        elif k == "cat":
            n = sum(1 for b in bars if b["category"] == parts[1])
            if n != int(parts[2]):
                bad.append("%s: got %d" % (c, n))
        else:
            bad.append("unknown check %s" % c)
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
