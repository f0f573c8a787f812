#!/usr/bin/python3
"""tracefig's own GPU breakdown (tracefig(1), STATISTICS), computed again
in Python from a trace file.  THIS IS NOT HTA: it does not run Holistic
Trace Analysis and its numbers are not HTA's.  HTA's own numbers come
from HTA itself (tests/hta/run.sh runs it, on `--stats-compat hta`).

Standard library only.  tests/stats/run.sh compares tracefig's default
`--stats-scope trace` breakdown with this script's output, so that the
definitions the man page states are checked by a second, independent
implementation.  What it computes:

  GPU events   complete events (ph "X") with a dur, a category and an
               integer args.stream other than -1 (Python's int() of it),
               that are not runtime or driver calls (cuda_runtime,
               cuda_driver), not synchronisation (category cuda_sync, or a
               name ending in "Sync"), and cover time (end > start).
  time         ts and dur read as exact decimals and rounded to the
               nanosecond (half away from zero), end = ts + dur.
  classes      HTA's kernel types, with Python's re (as HTA matches them):
               COMMUNICATION, MEMORY, COMPUTATION, OTHER.
  numbers      span = first start to last end; idle = span - |union|;
               compute = |union of COMPUTATION|; non-compute = span -
               compute - idle; overlap = |comm & compute| / |comm| (null
               without communication).

Usage:
    hta_reference.py TRACE            one JSON object: {"gpu_breakdown": ...}
    hta_reference.py --self-test      hand-computed cases
"""

import decimal
import gzip
import json
import re
import sys

COMP, COMM, MEM, OTHER = "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"

# HTA's patterns (hta/common/types.py), matched with re.match as HTA does.
_COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
_MEM = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
_NOT_COMP = re.compile(
    r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)"
    r"|(^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)"
    r"|(^collective_subgraph_execution)")


def classify(name):
    if _COMM.match(name):
        return COMM
    if _MEM.match(name):
        return MEM
    if not _NOT_COMP.match(name):
        return COMP
    return OTHER


def to_ns(v):
    """A JSON number of microseconds as integer ns, half away from zero."""
    d = decimal.Decimal(v) * 1000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def to_stream(v):
    if isinstance(v, decimal.Decimal):
        v = float(v)
    try:
        return int(v)
    except (ValueError, TypeError):
        return -1


def load(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw.decode("utf-8"), parse_float=decimal.Decimal)
    return doc if isinstance(doc, list) else doc.get("traceEvents", [])


def gpu_rows(events):
    out = []
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        ts, dur, cat, name = e.get("ts"), e.get("dur"), e.get("cat"), e.get("name")
        if not isinstance(ts, (int, decimal.Decimal)) or not isinstance(dur, (int, decimal.Decimal)):
            continue
        if isinstance(ts, bool) or isinstance(dur, bool) or not isinstance(cat, str):
            continue
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        if to_stream(args.get("stream", -1)) == -1:
            continue
        name = name if isinstance(name, str) else ""
        if cat in ("cuda_runtime", "cuda_driver", "Trace"):
            continue
        if cat == "cuda_sync" or name.endswith("Sync"):
            continue
        s = to_ns(ts)
        t = s + max(to_ns(dur), 0)
        if t > s:
            out.append((s, t, classify(name)))
    return out


def union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(u):
    return sum(e - s for s, e in u)


def intersect(a, b):
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def breakdown(rows):
    if not rows:
        return None
    u = union([(s, e) for s, e, _ in rows])
    comp = union([(s, e) for s, e, k in rows if k == COMP])
    comm = union([(s, e) for s, e, k in rows if k == COMM])
    span = u[-1][1] - u[0][0]
    idle = span - length(u)
    c = length(comp)
    n = length(comm)
    return {
        "kernel_span_ms": span / 1e6,
        "idle_ms": idle / 1e6,
        "compute_ms": c / 1e6,
        "non_compute_ms": (span - c - idle) / 1e6,
        "comm_ms": n / 1e6,
        "comm_comp_overlap_pct": 100.0 * intersect(comm, comp) / n if n else None,
    }


def self_test():
    D = decimal.Decimal

    def ev(name, ts, dur, stream, cat="kernel"):
        return {"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream, "ts": ts,
                "dur": dur, "args": {"stream": stream, "correlation": 1}}

    evs = [ev("gemm", D("0.0004"), D("10"), 7),             # ts 0.4 ns -> 0
           ev("Stream Wait Event", 12, 5, 7, "cuda_sync"),  # synchronisation: out
           ev("cudaLaunchKernel", 40, 5, 7, "cuda_runtime"),  # a launch: out
           ev("zero", 50, 0, 7),                              # covers nothing
           ev("ncclDevKernel_x", 5, 10, 9),                   # comm [5000, 15000)
           ev("hipMemcpyWithStream", 20, D("0.0005"), 9),     # ^hip: comm, 1 ns
           ev("Memset (Device)", 18, 1, 7, "gpu_memset"),     # memory
           ev("pe_exe", 16, 1, 7)]                            # HTA's OTHER
    g = breakdown(gpu_rows(evs))
    cases = [
        ("span", g["kernel_span_ms"], 0.020001),
        ("compute", g["compute_ms"], 0.010),
        ("non-compute", round(g["non_compute_ms"], 9), 0.007001),
        ("comm", g["comm_ms"], 0.010001),
        ("overlap", g["comm_comp_overlap_pct"], 100.0 * 5000 / 10001),
        ("cls-dma", classify("dma_request"), MEM),
        ("cls-pe_exe", classify("pe_exe"), OTHER),
        ("cls-sync-in-name", classify("SyncBatchNorm"), OTHER),
        ("cls-nccl", classify("ncclDevKernel_AllGather_RING_LL"), COMM),
        ("cls-kernel", classify("ampere_sgemm_128x64_nn"), COMP),
        ("stream-0x0", to_stream("0x0"), -1),
    ]
    bad = 0
    for n, got, exp in cases:
        ok = got == exp if not isinstance(exp, float) else abs(got - exp) < 1e-9
        bad += not ok
        print("%-18s %s (got %r, expected %r)" % (n, "ok" if ok else "FAIL", got, exp))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    json.dump({"definition": "tracefig (not HTA)", "gpu_breakdown": breakdown(gpu_rows(load(argv[1])))},
              sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
