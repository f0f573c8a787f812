#!/usr/bin/python3
"""Runs Holistic Trace Analysis itself on one trace and prints its numbers.

    PYTHONPATH=../shared/hta hta_numbers.py TRACE

TraceAnalysis (HTA's defaults: include_last_profiler_step=False) on
{0: TRACE}, then get_temporal_breakdown and get_comm_comp_overlap
(visualize=False).  Prints one JSON object: HTA's idle, compute,
non-compute and kernel time in us and its overlap percentage (null for
NaN), or {"error": CLASS, "message": ...} when HTA raises, or
{"error": "NoRank"} when it reports no rank at all.  Nothing here computes
anything: every number is HTA's.  Without HTA on the path (../shared/hta is
other people's code, absent from a bare clone) it prints one line "SKIP ..."
with the reason and exits 0.
"""
import json
import logging
import math
import os
import sys
import warnings


def main():
    path = os.path.abspath(sys.argv[1])
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    try:
        import hta.trace_analysis  # noqa: F401  (HTA itself, or SKIP)
    except ImportError as e:
        print("SKIP hta_numbers.py: HTA itself is needed (../shared/hta on PYTHONPATH): %s" % e)
        return 0
    try:
        from hta.trace_analysis import TraceAnalysis
        ta = TraceAnalysis(trace_files={0: path}, trace_dir="/")
        tb = ta.get_temporal_breakdown(visualize=False)
        ov = ta.get_comm_comp_overlap(visualize=False)
    except Exception as e:  # HTA's own error: the test checks tracefig names it
        json.dump({"error": type(e).__name__, "message": str(e)[:200]}, sys.stdout)
        return 0
    if len(tb) == 0:
        json.dump({"error": "NoRank", "message": "TraceAnalysis reports no rank"}, sys.stdout)
        return 0
    row, o = tb.iloc[0], float(ov.iloc[0]["comp_comm_overlap_pctg"])
    json.dump({
        "kernel_time_us": float(row["kernel_time(us)"]),
        "idle_time_us": float(row["idle_time(us)"]),
        "compute_time_us": float(row["compute_time(us)"]),
        "non_compute_time_us": float(row["non_compute_time(us)"]),
        "comm_comp_overlap_pct": None if math.isnan(o) or math.isinf(o) else o,
    }, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
