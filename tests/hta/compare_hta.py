#!/usr/bin/python3
"""Compares tracefig's `--stats-compat hta --stats-scope trace` with HTA.

    compare_hta.py HTA.json MODEL.json STDERR RC

HTA.json: hta_numbers.py's output.  MODEL.json, STDERR, RC: tracefig's
JSON model, standard error and exit status.  Prints one line; exits 0 when
  - HTA gave numbers: tracefig exited 0, its stats say "compat": "hta",
    its gpu_breakdown has scope "trace", kernel span, idle, compute and
    non-compute within 1 us (0.001 ms) of HTA's, and the overlap within
    0.01 percentage points (null where HTA's is NaN);
  - HTA raised: tracefig exited non-zero with exactly one line on standard
    error that names HTA's exception (or, for no rank, "nothing to
    analyse").
"""
import json
import sys


def main():
    hta = json.load(open(sys.argv[1], encoding="utf-8"))
    err = open(sys.argv[3], encoding="utf-8", errors="replace").read()
    rc = int(sys.argv[4])
    lines = [l for l in err.splitlines() if l.strip()]
    if "error" in hta:
        want = "nothing to analyse" if hta["error"] == "NoRank" else hta["error"]
        if rc == 0:
            print("HTA raises %s, tracefig exited 0" % hta["error"])
            return 1
        if len(lines) != 1 or want not in lines[0]:
            print("HTA raises %s (%s); tracefig says %r" % (hta["error"], hta["message"][:80], err[:300]))
            return 1
        print("HTA raises %s; tracefig: %s" % (hta["error"], lines[0][:160]))
        return 0
    if rc != 0:
        print("tracefig exited %d: %s" % (rc, err[:300]))
        return 1
    model = json.load(open(sys.argv[2], encoding="utf-8"))
    s = model.get("stats") or {}
    g = s.get("gpu_breakdown")
    bad = []
    if s.get("compat") != "hta":
        bad.append("stats.compat is %r" % s.get("compat"))
    if not g:
        print("no gpu_breakdown; HTA: %s" % hta)
        return 1
    if g.get("scope") != "trace":
        bad.append("scope %r" % g.get("scope"))
    for ours, theirs in (("kernel_span_ms", "kernel_time_us"), ("idle_ms", "idle_time_us"),
                         ("compute_ms", "compute_time_us"),
                         ("non_compute_ms", "non_compute_time_us")):
        if abs(g[ours] * 1000 - hta[theirs]) > 1.0 + 1e-6:
            bad.append("%s %s ms, HTA %s us" % (ours, g[ours], hta[theirs]))
    a, b = g["comm_comp_overlap_pct"], hta["comm_comp_overlap_pct"]
    if (a is None) != (b is None) or (a is not None and abs(a - b) > 0.01 + 1e-9):
        bad.append("overlap %s %%, HTA %s %%" % (a, b))
    if bad:
        print("; ".join(bad))
        return 1
    print("HTA kernel %.0f idle %.0f compute %.0f non-compute %.0f us, overlap %s %%: tracefig agrees"
          % (hta["kernel_time_us"], hta["idle_time_us"], hta["compute_time_us"],
             hta["non_compute_time_us"], b))
    return 0


if __name__ == "__main__":
    sys.exit(main())
