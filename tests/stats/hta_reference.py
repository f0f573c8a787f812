#!/usr/bin/python3
"""Independent computation of tracefig's GPU breakdown (issue 12), and of
Holistic Trace Analysis' (HTA) temporal breakdown, from a trace file.

Standard library only.  tests/stats/run.sh compares tracefig's
`--stats-scope trace` numbers with this script's default output.  Nothing
here is copied from HTA: the arithmetic was re-derived from HTA's documented
behaviour (notes kept with the project's research, HTA_DEFINITIONS.md, which
names the HTA files and functions that were read).

Two definitions (--definition):

  tracefig (the default): the definition of tracefig(1), STATISTICS.  It
  differs from HTA on purpose, in these ways only:
    1. Timestamps are exact: ts and dur are read from the JSON text as
       decimals and rounded to the nanosecond (half away from zero), as
       tracefig's loader does; end = ts + dur.  HTA rounds float
       timestamps to whole microseconds (start up, end down), which can
       shorten sub-microsecond kernels to zero or negative length.
    2. Synchronisation is not GPU work: events of category cuda_sync
       ("Stream Wait Event", "Stream Sync", "Context Sync") and any name
       ending in "Sync" are left out.  HTA counts them: "... Sync" names as
       OTHER (busy, non-compute) and "Stream Wait Event" as COMPUTATION.
    3. Launches are not GPU work: runtime and driver calls (categories
       cuda_runtime, cuda_driver) run on CPU lanes and are left out even
       when they carry an integer stream; HTA counts any row whose stream
       parses as an integer.
    4. Kernel classes: communication = name matching ^nccl, ^hip, ^hccl, or
       containing ncclKernel (HTA: ^nccl.*Kernel); memory = name starting
       with Memcpy, Memset or dma (as HTA); compute = everything else (HTA
       has a fourth class, OTHER, for the sync events of 2.).
    5. Zero- and negative-length events cover no time and do not extend the
       kernel span; HTA keeps them, and a zero-length event can open the
       span.
    6. Scope: the whole file (or the window, --window-us), with none of
       HTA's load-time filtering (HTA by default drops the last
       ProfilerStep and GPU work no kept runtime call launched, when a
       trace has two or more ProfilerStep names).
    7. No communication gives a null overlap (HTA: NaN).
  The formulas are HTA's: span = first start to last end of the GPU events;
  idle = span - |union|; compute = |union of compute|; non-compute = span -
  compute - idle; overlap = |comm & compute| / |comm|.

  hta: HTA's own rules, as HTA_DEFINITIONS.md records them (microsecond
  rounding, OTHER, the --classifier choices, --hta-load-filter), kept to
  show what each difference above changes.

Usage:
    hta_reference.py TRACE [--definition tracefig|hta]
                           [--window-us START END] [--window-relative]
                           [--hta-load-filter] [--no-round]
                           [--classifier issue12|current|legacy|grouping]
                           [--inventory] [--self-test]

Prints one JSON object:
    kernel_span_us, idle_us, compute_us, non_compute_us,
    idle_pct, compute_pct, non_compute_pct, comm_comp_overlap_pct,
    per_kernel_type_us {COMPUTATION, COMMUNICATION, MEMORY, OTHER} (union per type)
plus bookkeeping fields (scope, counts, HTA-style exclusive breakdown, notes).

Summary of HTA's definitions (one rank == one trace file):
    G      = every parsed event whose args.stream (normalised to int) != -1
    span   = end of the last merged group - start of the first merged group
    busy   = total length of the union of G's intervals
    idle   = span - busy
    comp   = total length of the union of G's COMPUTATION-type intervals
    noncomp= span - comp - idle            (= busy - comp)
    pct    = round(100 * x / span, 2)
    overlap= |U(comm) ∩ U(comp)| / |U(comm)|, reported as round(100*ratio, 2)
"""

import argparse
import decimal
import gzip
import json
import math
import re
import sys
from collections import Counter, defaultdict

# --------------------------------------------------------------------------
# Kernel-type classifiers.
#
# AMBIGUITY: HTA's name regexes changed over time.  "current" is the newest
# complete hta/utils/utils.py that could be read (comm = name matches
# ^nccl.*Kernel ; memory = ^Memcpy | ^Memset | ^dma ; everything else is
# COMPUTATION unless it matches the "non-compute" regex, in which case it is
# OTHER).  "legacy" is the v0.2.0-era rule (substring tests, no OTHER type).
# "grouping" uses the GroupingPattern regexes in hta/common/types.py.
# For the five sample traces "current" and "grouping" agree; "legacy" differs
# for MTIA dma_* events and for CUDA "... Sync" events.
# --------------------------------------------------------------------------
COMP, COMM, MEM, OTHER = "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"

_CUR_COMM = re.compile(r"^nccl.*Kernel")
_CUR_MEM = re.compile(r"(^Memcpy)|(^Memset)|(^dma)")
# Note the alternation: "(.*(Memcpy)|(Memset))" is really ".*Memcpy" OR "Memset"
# (anchored by re.match) -- reproduced on purpose.
_CUR_NONCOMP = re.compile(r"(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)")

_GRP_COMM = re.compile(r"(^nccl)")
_GRP_MEM = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
_GRP_NONCOMP = re.compile(
    r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(cuda.*LaunchKernel)|(^runFunction)")


def classify_current(name):
    if _CUR_COMM.match(name):
        return COMM
    if _CUR_MEM.match(name):
        return MEM
    if not _CUR_NONCOMP.match(name):
        return COMP
    return OTHER


def classify_legacy(name):
    if "ncclKernel" in name:
        return COMM
    if "Memcpy" in name or "Memset" in name:
        return MEM
    return COMP


def classify_grouping(name):
    if _GRP_COMM.match(name):
        return COMM
    if _GRP_MEM.match(name):
        return MEM
    if not _GRP_NONCOMP.match(name):
        return COMP
    return OTHER


_ISSUE_COMM = re.compile(r"^nccl|^hip|^hccl|ncclKernel")
_ISSUE_MEM = re.compile(r"^Memcpy|^Memset|^dma")


def classify_issue12(name):
    """tracefig's classes (difference 4): re.match anchors ^, so the
    ncclKernel alternative is searched separately."""
    if re.match(r"nccl|hip|hccl", name) or "ncclKernel" in name:
        return COMM
    if _ISSUE_MEM.match(name):
        return MEM
    return COMP


CLASSIFIERS = {"issue12": classify_issue12, "current": classify_current,
               "legacy": classify_legacy, "grouping": classify_grouping}

SYNC_CATS = ("cuda_sync",)
LAUNCH_CATS = ("cuda_runtime", "cuda_driver")


def is_sync(row):
    """Difference 2: synchronisation is no GPU work."""
    return row["cat"] in SYNC_CATS or row["name"].endswith("Sync")


def is_launch(row):
    """Difference 3: runtime calls on CPU lanes are no GPU work."""
    return row["cat"] in LAUNCH_CATS

PROFILER_STEP_RE = re.compile(r"^ProfilerStep#(\d+)")


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------
def load_trace(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    # Numbers as exact decimals (difference 1); integers stay int.
    doc = json.loads(raw.decode("utf-8"), parse_float=decimal.Decimal)
    if isinstance(doc, list):  # bare array (HTA itself would reject this)
        return {}, doc
    meta = {k: v for k, v in doc.items() if k != "traceEvents"}
    return meta, doc.get("traceEvents", [])


def _floats(e):
    """HTA reads numbers as floats: the decimals load_trace keeps become
    floats again for the hta definition."""
    if not isinstance(e, dict):
        return e
    out = dict(e)
    for k in ("ts", "dur"):
        if isinstance(out.get(k), decimal.Decimal):
            out[k] = float(out[k])
    return out


def _to_stream(v):
    if isinstance(v, decimal.Decimal):
        v = float(v)
    """HTA normalises args.stream with int(); anything int() rejects -> -1.
    ("0x0" on ROCm runtime events -> -1.)  HTA would raise on None/lists
    (TypeError is not caught there); we map those to -1 instead."""
    try:
        return int(v)
    except (ValueError, TypeError):
        return -1


def _to_int_default(v, default=-1):
    if isinstance(v, decimal.Decimal):
        v = float(v)
    try:
        return int(v)
    except (ValueError, TypeError):
        return default


def to_ns(v):
    """A JSON number of microseconds as integer ns, rounded half away from
    zero (tracefig's loader does the same with the number's text)."""
    d = decimal.Decimal(v) * 1000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def build_rows_exact(events):
    """Rows for the tracefig definition: as build_rows keeps them (dur, cat
    and ts present, cat != "Trace"), with ts/dur/end in exact integer ns."""
    rows = []
    for idx, e in enumerate(events):
        if not isinstance(e, dict):
            continue
        dur, cat, ts = e.get("dur"), e.get("cat"), e.get("ts")
        if dur is None or cat is None or ts is None or cat == "Trace":
            continue
        if isinstance(ts, bool) or isinstance(dur, bool) or \
                not isinstance(ts, (int, decimal.Decimal)) or \
                not isinstance(dur, (int, decimal.Decimal)):
            continue
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        name = e.get("name")
        s = to_ns(ts)
        d = to_ns(dur)
        rows.append({
            "idx": idx,
            "name": name if isinstance(name, str) else str(name),
            "cat": cat,
            "ts": s,
            "dur": d,
            "end": s + d,
            "stream": _to_stream(args.get("stream", -1)),
            "correlation": _to_int_default(args.get("correlation", -1)),
            "pid": e.get("pid"),
            "tid": e.get("tid"),
        })
    return rows


def build_rows(events, do_round=True):
    """Mimic the rows HTA keeps after parsing (JSON backend):
      * rows whose 'dur' or 'cat' is missing are dropped (metadata, flows,
        instants, B/E pairs all disappear here);
      * cat == "Trace" is dropped;
      * if the ts column is floating point (any event has a float ts, or any
        event lacks ts) every event is rounded: ts -> ceil(ts),
        end -> floor(ts + dur), dur -> end - ts.  This can make sub-µs events
        zero or NEGATIVE length; HTA keeps them, so do we.
    Returns (rows, rounding_applied)."""
    float_ts = any((not isinstance(e.get("ts"), int)) or isinstance(e.get("ts"), bool)
                   for e in events if isinstance(e, dict))
    events = [_floats(e) for e in events]
    rounding = do_round and float_ts
    rows = []
    for idx, e in enumerate(events):
        if not isinstance(e, dict):
            continue
        dur, cat, ts = e.get("dur"), e.get("cat"), e.get("ts")
        if dur is None or cat is None or ts is None:
            continue
        if cat == "Trace":
            continue
        if rounding:
            end = math.floor(ts + dur)
            ts = math.ceil(ts)
            dur = end - ts
        else:
            end = ts + dur
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        name = e.get("name")
        rows.append({
            "idx": idx,
            "name": name if isinstance(name, str) else str(name),
            "cat": cat,
            "ts": ts,
            "dur": dur,
            "end": end,
            "stream": _to_stream(args.get("stream", -1)),
            "correlation": _to_int_default(args.get("correlation", -1)),
            "pid": e.get("pid"),
            "tid": e.get("tid"),
        })
    return rows, rounding


# --------------------------------------------------------------------------
# HTA's load-time filter (TraceAnalysis(...) default include_last_profiler_step=False)
# --------------------------------------------------------------------------
def hta_load_filter(rows, meta):
    """Reproduces Trace._filter_irrelevant_gpu_kernels (non-MTIA branch) with
    the symbol-table-aware GPUKernelFilter/CPUOperatorFilter:
      gpu  := (stream >= 0 and correlation >= 0) or name in {Event Sync, Context Sync}
      cpu  := everything else
    Only when >= 2 distinct ProfilerStep#N names exist: keep cpu rows with
    ts < start of the last ProfilerStep, keep gpu rows whose correlation equals
    the correlation of some kept cpu row (an inner join, so duplicates are
    possible).  Returns (rows, note)."""
    step_names = {r["name"] for r in rows if PROFILER_STEP_RE.match(r["name"])}
    if len(step_names) <= 1:
        return rows, "load filter not applied (%d distinct ProfilerStep names)" % len(step_names)
    if str(meta.get("device_type", "")).upper() == "MTIA":
        return rows, "MTIA load-filter branch not reproduced; rows left unfiltered"

    def is_gpu(r):
        return (r["stream"] >= 0 and r["correlation"] >= 0) or r["name"] in ("Event Sync", "Context Sync")

    cpu = [r for r in rows if not is_gpu(r)]
    gpu = [r for r in rows if is_gpu(r)]
    if not cpu:
        return rows, "load filter: no CPU rows, unfiltered"
    steps = [r for r in cpu if r["name"] in step_names]
    last_start = max(r["ts"] for r in steps) if steps else min(r["ts"] for r in cpu)
    kept_cpu = [r for r in cpu if r["ts"] < last_start]
    corr_mult = Counter(r["correlation"] for r in kept_cpu)
    kept_gpu = []
    for r in gpu:
        kept_gpu.extend([r] * corr_mult.get(r["correlation"], 0))
    return kept_gpu + kept_cpu, (
        "load filter applied: kept CPU rows with ts < %s (start of last ProfilerStep) "
        "and GPU rows correlated with them" % last_start)


# --------------------------------------------------------------------------
# Interval arithmetic with HTA's exact semantics
# --------------------------------------------------------------------------
def hta_merge(intervals):
    """HTA merge_kernel_intervals: sort by start; a row opens a new group iff
    its start is strictly greater than the running max of all previous ends;
    each group becomes [min start, max end].  Touching intervals (start == a
    previous end) are merged.  Zero-length events take part (they can open a
    group and so extend the span).  Negative-length rows (possible after
    rounding) are kept exactly as HTA keeps them.
    AMBIGUITY: pandas sorts with an unstable quicksort; ties only matter for
    negative-length rows.  We use a stable sort."""
    iv = sorted(intervals, key=lambda x: x[0])
    groups = []
    run_max = None
    for s, e in iv:
        if groups and s <= run_max:
            g = groups[-1]
            if e > g[1]:
                g[1] = e
        else:
            groups.append([s, e])
        run_max = e if run_max is None or e > run_max else run_max
    return groups


def busy(groups):
    return sum(e - s for s, e in groups)


def hta_overlap_ratio(comm_groups, comp_groups):
    """CommunicationAnalysis.get_comm_comp_overlap: +1/-1 at comm group
    start/end, +2/-2 at comp group start/end, sweep in time order, add the
    time to the next change point wherever the running sum is 3; divide by
    the total length of the merged comm groups."""
    pts = [(s, 1) for s, _ in comm_groups] + [(e, -1) for _, e in comm_groups] + \
          [(s, 2) for s, _ in comp_groups] + [(e, -2) for _, e in comp_groups]
    pts.sort(key=lambda p: p[0])
    run, ov = 0, 0
    for i, (t, d) in enumerate(pts):
        run += d
        if run == 3 and i + 1 < len(pts):
            ov += pts[i + 1][0] - t
    denom = busy(comm_groups)
    if denom == 0:
        return None  # HTA: 0/0 -> NaN
    return ov / denom


def hta_exclusive_type_time(by_type_groups, types=(COMP, COMM, MEM)):
    """BreakdownAnalysis._get_gpu_kernel_type_time (include_memory_kernels=True):
    each type gets a bit (1, 2, 4 in this order); sweep the merged groups of
    all types; every stretch where the bitmask is non-zero is charged to the
    label 'A overlapping B ...'.  HTA truncates each stretch with int()."""
    bit = {t: 1 << i for i, t in enumerate(types)}
    pts = []
    for t in types:
        for s, e in by_type_groups.get(t, []):
            pts.append((s, bit[t]))
            pts.append((e, -bit[t]))
    pts.sort(key=lambda p: p[0])
    out = defaultdict(int)
    run = 0
    for i, (tm, d) in enumerate(pts):
        run += d
        if run > 0 and i + 1 < len(pts):
            label = " overlapping ".join(t for t in types if run & bit[t])
            out[label] += int(pts[i + 1][0] - tm)
    return dict(out)


def clip_rows(rows, w0, w1):
    """Window clipping (tracefig-style; HTA itself has no clipping -- its
    TimeRangeFilter keeps only events fully inside a range).  Non-negative
    events are clipped to [w0, w1] and kept if something (possibly a zero
    length point) remains.  Negative-length rows (rounding artefacts) are
    kept unclipped only if both ends lie inside the window."""
    out = []
    for r in rows:
        s, e = r["ts"], r["end"]
        if e >= s:
            cs, ce = max(s, w0), min(e, w1)
            if cs <= ce:
                r2 = dict(r)
                r2["ts"], r2["end"], r2["dur"] = cs, ce, ce - cs
                out.append(r2)
        elif w0 <= s <= w1 and w0 <= e <= w1:
            out.append(r)
    return out


def _num(x):
    if x is None:
        return None
    if isinstance(x, float):
        if math.isnan(x):
            return None
        if x == int(x):
            return int(x)
        return round(x, 6)
    return x


def _pct(x, span):
    if not span:
        return None
    return round(100.0 * x / span, 2)


# --------------------------------------------------------------------------
# Main computation
# --------------------------------------------------------------------------
def compute(rows_all, classify, window=None, tracefig=False):
    gpu = [r for r in rows_all if r["stream"] != -1]
    if tracefig:
        # Differences 2, 3 and 5.
        gpu = [r for r in gpu if not is_sync(r) and not is_launch(r) and r["end"] > r["ts"]]
    if window is not None:
        gpu = clip_rows(gpu, window[0], window[1])
        if tracefig:
            gpu = [r for r in gpu if r["end"] > r["ts"]]
    res = {}
    if not gpu:
        # HTA itself fails here (indexing an empty merged frame).
        res.update({k: None for k in ("kernel_span_us", "idle_us", "compute_us", "non_compute_us",
                                      "idle_pct", "compute_pct", "non_compute_pct",
                                      "comm_comp_overlap_pct")})
        res["per_kernel_type_us"] = {t: 0 for t in (COMP, COMM, MEM, OTHER)}
        res["n_gpu_events"] = 0
        res["error"] = "no events with args.stream != -1 in scope (HTA would raise here)"
        return res

    for r in gpu:
        r["ktype"] = classify(r["name"])

    all_groups = hta_merge([(r["ts"], r["end"]) for r in gpu])
    span = all_groups[-1][1] - all_groups[0][0]  # last group's end, first group's start
    idle = span - busy(all_groups)

    by_type = {}
    for t in (COMP, COMM, MEM, OTHER):
        by_type[t] = hta_merge([(r["ts"], r["end"]) for r in gpu if r["ktype"] == t])
    comp = busy(by_type[COMP])
    noncomp = span - comp - idle

    ratio = hta_overlap_ratio(by_type[COMM], by_type[COMP])
    res["span"] = span
    res["idle"] = idle
    res["compute"] = comp
    res["non_compute"] = noncomp
    res["comm"] = busy(by_type[COMM])
    res["comm_comp_overlap_ratio"] = ratio

    res["kernel_span_us"] = _num(span)
    res["idle_us"] = _num(idle)
    res["compute_us"] = _num(comp)
    res["non_compute_us"] = _num(noncomp)
    res["idle_pct"] = _pct(idle, span)
    res["compute_pct"] = _pct(comp, span)
    res["non_compute_pct"] = _pct(noncomp, span)
    res["comm_comp_overlap_pct"] = None if ratio is None else round(100.0 * ratio, 2)
    res["per_kernel_type_us"] = {t: _num(busy(by_type[t])) for t in (COMP, COMM, MEM, OTHER)}
    # extra context
    res["per_kernel_type_sum_dur_us"] = {t: _num(sum(r["dur"] for r in gpu if r["ktype"] == t))
                                         for t in (COMP, COMM, MEM, OTHER)}
    res["hta_kernel_type_breakdown_us"] = hta_exclusive_type_time(by_type)
    res["n_gpu_events"] = len(gpu)
    res["n_gpu_events_by_type"] = dict(Counter(r["ktype"] for r in gpu))
    res["n_zero_dur"] = sum(1 for r in gpu if r["dur"] == 0)
    res["n_negative_dur"] = sum(1 for r in gpu if r["dur"] < 0)
    res["first_start_us"] = _num(all_groups[0][0])
    res["last_end_us"] = _num(all_groups[-1][1])
    res["gpu_categories"] = dict(Counter(r["cat"] for r in gpu))
    res["streams"] = sorted({r["stream"] for r in gpu})
    return res


def inventory(meta, events):
    """Lane facts for humans: GPU-ish pids and their labels, stream tids,
    categories, per-lane self-overlap."""
    pname, plabel, tname = {}, {}, {}
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "M":
            continue
        a = e.get("args") or {}
        if e.get("name") == "process_name":
            pname[e.get("pid")] = a.get("name")
        elif e.get("name") == "process_labels":
            plabel[e.get("pid")] = a.get("labels")
        elif e.get("name") == "thread_name":
            tname[(e.get("pid"), e.get("tid"))] = a.get("name")
    lanes = defaultdict(list)
    for e in events:
        if isinstance(e, dict) and e.get("ph") == "X" and isinstance(e.get("args"), dict) \
                and "stream" in e["args"] and e.get("dur") is not None:
            lanes[(e.get("pid"), e.get("tid"))].append(e)
    out = []
    for (pid, tid), L in sorted(lanes.items(), key=lambda kv: str(kv[0])):
        L.sort(key=lambda e: e["ts"])
        ov, run_end = 0, None
        for e in L:
            if run_end is not None and e["ts"] < run_end:
                ov += 1
            end = e["ts"] + e["dur"]
            run_end = end if run_end is None or end > run_end else run_end
        out.append({
            "pid": pid, "tid": tid,
            "process_name": pname.get(pid), "process_labels": plabel.get(pid),
            "thread_name": tname.get((pid, tid)),
            "stream_args": sorted({repr(e["args"]["stream"]) for e in L}),
            "categories": dict(Counter(e.get("cat") for e in L)),
            "n": len(L),
            "n_starting_inside_earlier_event": ov,
            "n_zero_dur": sum(1 for e in L if e["dur"] == 0),
        })
    return {"lanes": out,
            "ph_cat_counts": {"%s/%s" % k: v for k, v in Counter(
                (e.get("ph"), e.get("cat")) for e in events if isinstance(e, dict)).most_common()},
            "metadata_keys": sorted(meta.keys())}


def self_test():
    """Synthetic cases with hand-computed answers."""
    def ev(name, ts, dur, stream, cat="kernel"):
        return {"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream,
                "ts": ts, "dur": dur, "args": {"stream": stream, "correlation": 1}}
    cases = []
    # two streams: comp [0,10) and [5,20) overlap; comm [15,30); memcpy [40,45); gap 30..40
    evs = [ev("gemm", 0, 10, 7), ev("relu", 5, 15, 7), ev("ncclKernel_AllReduce", 15, 15, 9),
           ev("Memcpy HtoD", 40, 5, 7, "gpu_memcpy"),
           {"ph": "X", "cat": "cpu_op", "name": "aten::x", "pid": 1, "tid": 1, "ts": -100, "dur": 500}]
    rows, _ = build_rows(evs)
    r = compute(rows, classify_current)
    cases.append(("span", r["kernel_span_us"], 45))
    cases.append(("idle", r["idle_us"], 10))            # 30..40
    cases.append(("compute", r["compute_us"], 20))      # union [0,20)
    cases.append(("noncompute", r["non_compute_us"], 15))  # [20,30) + [40,45)
    cases.append(("overlap", r["comm_comp_overlap_pct"], round(100 * 5 / 15, 2)))
    # touching intervals merge; zero-length event before first kernel extends span
    evs = [ev("Stream Wait Event", -5, 0, 7, "cuda_sync"), ev("a", 0, 10, 7), ev("b", 10, 10, 7)]
    rows, _ = build_rows(evs)
    r = compute(rows, classify_current)
    cases.append(("span-with-zero-len", r["kernel_span_us"], 25))
    cases.append(("idle-with-zero-len", r["idle_us"], 5))
    # float timestamps: HTA rounding ceil(ts)/floor(end); sub-us event goes negative
    evs = [ev("a", 0.5, 10.2, 7), ev("b", 20.7, 0.2, 7)]
    rows, rounded = build_rows(evs)
    cases.append(("rounded", rounded, True))
    cases.append(("neg-dur", [x["dur"] for x in rows], [9, -1]))  # ceil(0.5)=1, floor(10.7)=10
    # window clipping
    evs = [ev("a", 0, 10, 7), ev("b", 20, 10, 7)]
    rows, _ = build_rows(evs)
    r = compute(rows, classify_current, window=(5, 25))
    cases.append(("win-span", r["kernel_span_us"], 20))
    cases.append(("win-idle", r["idle_us"], 10))
    # ROCm runtime stream "0x0" -> -1 (not a GPU event)
    cases.append(("stream-0x0", _to_stream("0x0"), -1))
    # classifier
    cases.append(("cls-sync", classify_current("Context Sync"), OTHER))
    cases.append(("cls-dma", classify_current("dma_request"), MEM))
    cases.append(("cls-nccldev", classify_current("ncclDevKernel_AllGather_RING_LL"), COMM))
    cases.append(("cls-wait", classify_current("Stream Wait Event"), COMP))
    # --- the tracefig definition ---
    D = decimal.Decimal
    evs = [ev("gemm", D("0.0004"), D("10"), 7),            # ts 0.4 ns -> 0; end 10000 ns
           ev("Stream Wait Event", 12, 5, 7, "cuda_sync"),  # synchronisation: left out
           ev("Context Sync", 30, 5, 7, "cuda_sync"),
           ev("cudaLaunchKernel", 40, 5, 7, "cuda_runtime"),  # a launch: left out
           ev("zero", 50, 0, 7),                              # covers nothing, no span
           ev("ncclDevKernel_x", 5, 10, 9),                   # comm [5000, 15000)
           ev("hipMemcpyWithStream", 20, D("0.0005"), 9),     # ^hip: comm, 0.5 ns -> 1 ns
           ev("Memset (Device)", 18, 1, 7, "gpu_memset")]
    rows = build_rows_exact(evs)
    r = compute(rows, classify_issue12, tracefig=True)
    cases.append(("tf-ns-round", [x["dur"] for x in rows if x["name"] == "hipMemcpyWithStream"], [1]))
    cases.append(("tf-span", r["span"], 20001))               # 0 .. 20001 ns
    cases.append(("tf-busy", r["span"] - r["idle"], 10000 + 5000 + 1000 + 1))
    cases.append(("tf-compute", r["compute"], 10000))
    cases.append(("tf-comm", r["comm"], 10001))
    cases.append(("tf-overlap", r["comm_comp_overlap_ratio"], 5000 / 10001))
    cases.append(("tf-cls-hip", classify_issue12("hipMemcpyWithStream"), COMM))
    cases.append(("tf-cls-ncclk", classify_issue12("void x<ncclKernel>"), COMM))
    cases.append(("tf-cls-mem", classify_issue12("Memcpy DtoH"), MEM))
    cases.append(("tf-cls-comp", classify_issue12("ampere_sgemm"), COMP))
    bad = [(n, got, exp) for n, got, exp in cases if got != exp]
    for n, got, exp in cases:
        print("%-20s %s (got %r, expected %r)" % (n, "ok" if got == exp else "FAIL", got, exp))
    return 1 if bad else 0


def main_tracefig(a, meta, events):
    """The tracefig definition: exact integer ns; prints the fields of
    tracefig's stats.gpu_breakdown (ms, unrounded) and the same in ns."""
    rows = build_rows_exact(events)
    scope = "trace"
    if a.hta_load_filter:
        rows, _ = hta_load_filter(rows, meta)
    window = None
    if a.window_us:
        w0, w1 = (to_ns(decimal.Decimal(repr(v))) for v in a.window_us)
        if a.window_relative:
            origin = min((r["ts"] for r in rows), default=0)
            w0, w1 = w0 + origin, w1 + origin
        window = (w0, w1)
        scope = "window"
    res = compute(rows, CLASSIFIERS[a.classifier or "issue12"], window, tracefig=True)
    out = {"definition": "tracefig", "scope": scope,
           "classifier": a.classifier or "issue12"}
    if res.get("error"):
        out["gpu_breakdown"] = None
        out["note"] = "no GPU events in scope"
    else:
        ratio = res["comm_comp_overlap_ratio"]
        out["gpu_breakdown"] = {
            "kernel_span_ms": res["span"] / 1e6,
            "idle_ms": res["idle"] / 1e6,
            "compute_ms": res["compute"] / 1e6,
            "non_compute_ms": res["non_compute"] / 1e6,
            "comm_ms": res["comm"] / 1e6,
            "comm_comp_overlap_pct": None if ratio is None else 100.0 * ratio,
        }
        out["ns"] = {k: res[k] for k in ("span", "idle", "compute", "non_compute", "comm")}
        out["n_gpu_events"] = res["n_gpu_events"]
        out["n_gpu_events_by_type"] = res["n_gpu_events_by_type"]
        out["gpu_categories"] = res["gpu_categories"]
    if a.inventory:
        out["inventory"] = inventory(meta, events)
    json.dump(out, sys.stdout, indent=2, sort_keys=False, default=str)
    sys.stdout.write("\n")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--definition", choices=("tracefig", "hta"), default="tracefig",
                    help="tracefig(1)'s definition (default) or HTA's own rules")
    ap.add_argument("--window-us", nargs=2, type=float, metavar=("START", "END"),
                    help="clip GPU intervals to [START, END] (trace µs, same clock as the file)")
    ap.add_argument("--window-relative", action="store_true",
                    help="START/END are relative to HTA's time origin (earliest kept event ts)")
    ap.add_argument("--hta-load-filter", action="store_true",
                    help="reproduce TraceAnalysis' default load filter (drops the last "
                         "ProfilerStep and uncorrelated GPU events when >=2 step names exist)")
    ap.add_argument("--no-round", action="store_true",
                    help="skip HTA's ceil(ts)/floor(end) rounding of float timestamps")
    ap.add_argument("--classifier", choices=sorted(CLASSIFIERS), default=None,
                    help="kernel classes (default: issue12 with --definition tracefig, "
                         "current with hta)")
    ap.add_argument("--exclude-cat", action="append", default=[], metavar="CAT",
                    help="diagnostic only (NOT HTA): drop events of this category first, "
                         "e.g. --exclude-cat cuda_sync")
    ap.add_argument("--inventory", action="store_true", help="also print lane facts")
    ap.add_argument("--self-test", action="store_true", help="run built-in synthetic checks")
    if argv is None and "--self-test" in sys.argv[1:]:
        return self_test()
    a = ap.parse_args(argv)

    meta, events = load_trace(a.trace)
    if a.definition == "tracefig":
        return main_tracefig(a, meta, events)
    if a.classifier is None:
        a.classifier = "current"
    rows, rounded = build_rows(events, do_round=not a.no_round)
    notes = []
    if a.exclude_cat:
        rows = [r for r in rows if r["cat"] not in set(a.exclude_cat)]
        notes.append("diagnostic (not HTA): excluded categories %s" % sorted(set(a.exclude_cat)))
    scope = "whole trace"
    # HTA's time origin (Trace._align_all_ranks) is taken before its filter.
    origin = min((r["ts"] for r in rows), default=0)
    if a.hta_load_filter:
        rows, note = hta_load_filter(rows, meta)
        notes.append(note)
        scope = "HTA default load scope"
    window = None
    if a.window_us:
        w0, w1 = a.window_us
        if a.window_relative:
            w0, w1 = w0 + origin, w1 + origin
        window = (w0, w1)
        scope += ", clipped to window"
    res = compute(rows, CLASSIFIERS[a.classifier], window)
    out = {k: res.get(k) for k in ("kernel_span_us", "idle_us", "compute_us", "non_compute_us",
                                   "idle_pct", "compute_pct", "non_compute_pct",
                                   "comm_comp_overlap_pct", "per_kernel_type_us")}
    out["scope"] = scope
    if window:
        out["window_us"] = [_num(window[0]), _num(window[1])]
        out["window_len_us"] = _num(window[1] - window[0])
    out["classifier"] = a.classifier
    out["hta_rounding_applied"] = rounded
    for k, v in res.items():
        if k not in out:
            out[k] = v
    if notes:
        out["notes"] = notes
    if a.inventory:
        out["inventory"] = inventory(meta, events)
    json.dump(out, sys.stdout, indent=2, sort_keys=False, default=str)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. piped into head
        sys.exit(0)
