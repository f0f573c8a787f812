#!/usr/bin/python3
"""Compares tracefig's GPU breakdown with hta_reference.py's.

    compare_gpu.py MODEL.json REFERENCE.json

MODEL.json: `tracefig TRACE --stats-scope trace --format json -o -`;
REFERENCE.json: `hta_reference.py TRACE` (its default, tracefig's
definition).  Prints one line and exits:
  0  both agree: every time to the 0.0005 ms tracefig's 3 decimals may
     round away, the overlap to the 0.005 points of its 2 decimals (both
     are exact definitions on integer nanoseconds), null alike; or neither
     has GPU work;
  1  they disagree (the line says where), or tracefig gives no
     "gpu_breakdown" where the reference finds GPU work.
"""

import json
import sys


def main():
    with open(sys.argv[1], encoding="utf-8") as fh:
        model = json.load(fh)
    with open(sys.argv[2], encoding="utf-8") as fh:
        ref = json.load(fh)["gpu_breakdown"]
    stats = model.get("stats") or {}
    got = stats.get("gpu_breakdown")
    if ref is None:
        if got is None:
            print("no GPU work, and no breakdown: agree")
            return 0
        print("tracefig has a GPU breakdown, the reference finds no GPU work")
        return 1
    if got is None:
        print("no \"gpu_breakdown\" in tracefig's stats, the reference finds GPU work")
        return 1
    bad = []
    if got.get("scope") != "trace":
        bad.append("scope %r, expected \"trace\"" % got.get("scope"))
    span = ref["kernel_span_ms"]
    tol = 0.0005 + 1e-9
    for k in ("kernel_span_ms", "idle_ms", "compute_ms", "non_compute_ms"):
        if abs(got[k] - ref[k]) > tol:
            bad.append("%s %s, reference %.6f (tolerance %.6f)" % (k, got[k], ref[k], tol))
    a, b = got["comm_comp_overlap_pct"], ref["comm_comp_overlap_pct"]
    if (a is None) != (b is None) or (a is not None and abs(a - b) > 0.005 + 1e-9):
        bad.append("comm_comp_overlap_pct %s, reference %s" % (a, b))
    if bad:
        print("; ".join(bad))
        return 1
    print("span %.3f ms: agree to the last digit" % span)
    return 0


if __name__ == "__main__":
    sys.exit(main())
