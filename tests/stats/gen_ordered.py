#!/usr/bin/python3
"""gen_ordered.py - a Chrome trace whose slices all come in start order
(the kind whose statistics tracefig folds as it reads), for tests/stats.

    gen_ordered.py OUT.json [--shuffle]

Two host threads of process 1 (cpu_op, some overlapping each other), two
GPU streams of process 0 (kernels, one in three an NCCL kernel, with
args.stream), about 200 000 X events from fixed arithmetic: more busy
intervals than the fold's batch, so a run folds several times.  With
--shuffle the same events come in a fixed scrambled order (nothing folds).
"""
import json
import sys


def events():
    out = []
    x = 7
    for lane, (pid, tid, cat) in enumerate(
            [(1, 11, "cpu_op"), (1, 12, "cpu_op"), (0, 7, "kernel"), (0, 8, "kernel")]):
        t = 1000 + 13 * lane
        for k in range(50000):
            x = (x * 1103515245 + 12345) % (1 << 31)
            t += 0 if x % 5 == 0 else 1 + x % (20 + 10 * lane)
            dur = 1 + (x >> 8) % 40
            ev = {"ph": "X", "pid": pid, "tid": tid, "cat": cat, "ts": t, "dur": dur,
                  "name": "op%d" % (x % 4)}
            if cat == "kernel":
                ev["name"] = "ncclKernel_AllReduce" if (x >> 4) % 3 == 0 else "gemm%d" % (x % 3)
                ev["args"] = {"stream": tid, "device": 0}
            out.append(ev)
            t += dur
    out.sort(key=lambda e: (e["ts"], e["pid"], e["tid"]))
    return out


def main():
    evs = events()
    if "--shuffle" in sys.argv:
        evs = evs[1::2] + evs[0::2]
    meta = [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "host"}},
            {"ph": "M", "pid": 0, "name": "process_name", "args": {"name": "GPU 0"}}]
    with open(sys.argv[1], "w") as f:
        json.dump({"traceEvents": meta + evs}, f, separators=(",", ":"))


main()
