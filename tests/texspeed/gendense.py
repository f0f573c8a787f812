#!/usr/bin/env python3
"""gendense.py LANES ROWS OUT: a dense Chrome trace of the project's own.

LANES threads (six per process), each nested ROWS deep over 100 ms: 8
top-level slices, three children under each slice of the first levels and
two deeper, so the deep rows hold thousands of slices far narrower than a
point (a figure draws them as busy shares), in eight categories.  Seeded,
so the same file every time."""
import json
import random
import sys


def main():
    lanes, rows, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rnd = random.Random(40)
    cats = ["kernel", "cpu_op", "cuda_runtime", "gpu_memcpy", "user_annotation",
            "python_function", "gpu_memset", "ac2g"]
    ev = []
    for lane in range(lanes):
        pid, tid = lane // 6, lane % 6
        if tid == 0:
            ev.append({"ph": "M", "name": "process_name", "pid": pid,
                       "args": {"name": "proc %d" % pid}})
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                   "args": {"name": "worker %d" % tid}})

        def fill(t0, t1, depth, n):
            if depth >= rows or t1 - t0 < 0.02:
                return
            w = (t1 - t0) / n
            for i in range(n):
                a = t0 + i * w + w * rnd.uniform(0.02, 0.2)
                b = t0 + (i + 1) * w - w * rnd.uniform(0.02, 0.2)
                cat = cats[(lane + depth + i) % len(cats)]
                ev.append({"ph": "X", "cat": cat, "name": "%s_%d_%d" % (cat, depth, i),
                           "pid": pid, "tid": tid, "ts": round(a, 3), "dur": round(b - a, 3)})
                fill(a, b, depth + 1, 3 if depth < 3 else 2)

        fill(0.0, 100000.0, 0, 8)
    with open(out, "w") as f:
        json.dump({"traceEvents": ev, "displayTimeUnit": "ms"}, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
