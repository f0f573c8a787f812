#!/usr/bin/env python3
"""Build the parity corpus: tests/parity/cases/NAME/{trace.json, breakdown.json, args.txt,
expected.json}.

Inputs come from the shared generator (reference/gen_traces.py, run as a subprocess),
sometimes edited here in a fixed way (null candidates, zero durations, removed metadata ...).
expected.json is the reference's figure, taken from reference/oracle_dump.py (which runs
plot_io_trace.py under matplotlib) and rewritten in the shape of tracefig's figure model
(see tests/parity/README.md).  Everything is seeded: two runs give the same bytes.

    /usr/bin/python3 tests/tools/mkparity.py [--shared ../shared] [--python /usr/bin/python3]
                                             [-j N] [--only NAME ...] [--summary] [--list]

Only the Python standard library is used here; matplotlib is needed by the oracle, which
runs under --python (default /usr/bin/python3).
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CASES_DIR = os.path.join(REPO, "tests", "parity", "cases")


# ---------------------------------------------------------------------------
# Case table
# ---------------------------------------------------------------------------


class Case:
    def __init__(self, name, about, trace, args="", tmut=None, bd=None, bmut=None,
                 error=False):
        self.name = name
        self.about = about
        self.trace = trace      # gen_traces.py argv ("timeline ..." / "pytorch ...")
        self.args = args        # tracefig / reference flags (args.txt)
        self.tmut = tmut        # payload -> None, edits the trace in place
        self.bd = bd            # gen_traces.py breakdown argv, or None
        self.bmut = bmut        # payload -> None, edits the breakdown in place
        self.error = error      # the reference is expected to fail


def tl(*words):
    """gen_traces.py timeline argv."""
    out = ["timeline"]
    for w in words:
        out.extend(str(w).split())
    return out


def bd(*words):
    out = ["breakdown"]
    for w in words:
        out.extend(str(w).split())
    return out


# -- edit helpers --------------------------------------------------------------


def events(p, lane=None, name=None, cand="any"):
    out = []
    for e in p["events"]:
        if lane is not None and e.get("lane") != lane:
            continue
        if name is not None and e.get("name") != name:
            continue
        if cand != "any" and e.get("candidate") != cand:
            continue
        out.append(e)
    return out


def one(p, lane, name, cand):
    found = events(p, lane, name, cand)
    if len(found) != 1:
        raise RuntimeError(f"expected one {lane}/{name} event of candidate {cand}, got {len(found)}")
    return found[0]


def end_of(e):
    return e["start_ms"] + e["dur_ms"]


def quarter(ms):
    """A time with few significant bits, so that start + whole ms is exact."""
    return round(ms * 4.0) / 4.0


# -- trace edits ---------------------------------------------------------------


def m_zero_dur(p):
    one(p, "gpu", "compute", 4)["dur_ms"] = 0.0        # x: still anchors the left edge
    one(p, "gpu", "compute", 7)["dur_ms"] = 0.0        # x+3
    one(p, "io", "hdf5_read", 6)["dur_ms"] = 0.0       # read (from prefetch start) ends before the wait: no I/O bar
    one(p, "main", "wait_for_io", 5)["dur_ms"] = 0.0   # below MAIN_MIN_MS anyway
    one(p, "io", "gpu_buffer_wait", 8)["dur_ms"] = 0.0


def m_negative_dur(p):
    one(p, "gpu", "compute", 3)["dur_ms"] = -10.0      # x: anchors, no bar
    one(p, "gpu", "compute", 5)["dur_ms"] = -50.0
    w = one(p, "io", "gpu_buffer_wait", 4)
    w["dur_ms"] = -0.5                                  # wait ends earlier: longer I/O bar
    one(p, "main", "wait_for_io", 6)["dur_ms"] = -3.0
    one(p, "io", "hdf5_read", 7)["dur_ms"] = -1.0       # read end before wait end: no bar


def m_null_candidates(p):
    one(p, "io", "hdf5_read", 5)["candidate"] = None    # I/O bar 5 from the wait only
    one(p, "main", "wait_for_io", 6)["candidate"] = None  # gap 6 may become await_dispatch
    one(p, "io", "gpu_buffer_wait", 7)["candidate"] = None
    for e in events(p, "gpu", cand=5):
        if e["name"] != "compute":                     # sub-ops only (compute would crash)
            e["candidate"] = None
    for e in events(p, "io", cand=1):
        e["candidate"] = None


def m_missing_candidates(p):
    del one(p, "io", "gpu_buffer_wait", 3)["candidate"]
    del one(p, "main", "wait_for_io", 4)["candidate"]
    del one(p, "io", "hdf5_read", 6)["candidate"]
    for e in events(p, "gpu", cand=3):
        if e["name"] != "compute":
            del e["candidate"]


def m_meta_record_from(p):
    del p["start_candidate"]
    p["timeline_record_from"] = 4
    p["focus_candidate"] = 7


def m_meta_focus(p):
    del p["start_candidate"]
    del p["timeline_record_from"]
    p["focus_candidate"] = 6


def m_meta_none(p):
    for key in ("start_candidate", "timeline_record_from", "focus_candidate",
                "num_candidates", "timeline_capture_from"):
        p.pop(key, None)


def m_io_wait_only(p):
    p["events"].remove(one(p, "io", "hdf5_read", 4))   # bar from gpu_buffer_wait alone
    p["events"].remove(one(p, "io", "hdf5_read", 5))
    p["events"].remove(one(p, "io", "gpu_buffer_wait", 5))  # no I/O bar, no gap for 5
    r = one(p, "io", "hdf5_read", 6)
    w = one(p, "io", "gpu_buffer_wait", 6)
    w["dur_ms"] = end_of(r) - w["start_ms"] + 5.0       # wait ends after the read: no bar


def m_buffers(p):
    one(p, "gpu", "compute", 5)["buffer"] = 0           # 4 and 5 both on stream 0
    one(p, "gpu", "compute", 6)["buffer"] = None        # null -> candidate % 2 = 0
    del one(p, "gpu", "compute", 7)["buffer"]           # missing -> 1
    one(p, "gpu", "compute", 1)["buffer"] = 2           # outside the GPU range: ignored
    for e in events(p, "io", cand=5):
        e["buffer"] = 2                                 # I/O ignores buffers


def m_single_stream(p):
    for e in events(p, "gpu"):
        e["buffer"] = 0


def m_shuffle(p):
    random.Random(38).shuffle(p["events"])


def m_thresholds(p):
    one(p, "main", "wait_for_io", 4)["dur_ms"] = 1.0    # == MAIN_MIN_MS: kept
    one(p, "main", "wait_for_io", 5)["dur_ms"] = 0.999  # dropped
    for cand, dur in ((5, 39.75), (6, 40.0)):           # label needs width >= 40
        w = one(p, "main", "wait_for_io", cand)
        p["events"].append({"lane": "main", "name": "trsm_host",
                            "start_ms": quarter(end_of(w) + 1.0), "dur_ms": dur,
                            "candidate": cand, "buffer": cand % 2})


def m_unknown_names(p):
    w = one(p, "main", "wait_for_io", 4)
    g = one(p, "gpu", "compute", 4)
    extra = [
        {"lane": "main", "name": "foo_host", "start_ms": w["start_ms"], "dur_ms": 30.0, "candidate": 4},
        {"lane": "io", "name": "hdf5_open", "start_ms": w["start_ms"], "dur_ms": 12.0, "candidate": 4},
        {"lane": "gpu", "name": "compute_extra", "start_ms": g["start_ms"], "dur_ms": 50.0, "candidate": 4},
        {"lane": "cpu", "name": "compute", "start_ms": g["start_ms"], "dur_ms": 50.0, "candidate": 4},
        {"lane": "gpu", "name": "trsm", "start_ms": g["start_ms"], "dur_ms": 40.0, "candidate": 4,
         "tid": 7, "args": {"note": "unknown keys are ignored"}},
    ]
    for e in events(p):
        e.setdefault("tid", 1)
    p["events"].extend(extra)
    p["producer"] = {"tool": "io_profile.py", "version": "x"}


def m_gap_cover(p):
    """Stall before every dispatch; cover three gaps by main events, one just not."""
    def io_end(c):
        reads = events(p, "io", "hdf5_read", c)
        return max(end_of(e) for e in reads)

    for c, slack in ((4, 0.0), (5, 0.04), (6, 0.06)):
        gpu_start = one(p, "gpu", "compute", c)["start_ms"]
        w = one(p, "main", "wait_for_io", c)
        w["dur_ms"] = gpu_start - slack - w["start_ms"]
        if w["start_ms"] > io_end(c):
            raise RuntimeError("gap_cover: wait starts after the read")


# -- breakdown edits -----------------------------------------------------------


def b_no_candidate(b):
    del b["candidate"]


def b_string_candidate(b):
    b["candidate"] = "run <7> & \"best\" \\ {x} $5 %2 #3 _a ^b ~c"


def b_float_candidate(b):
    b["candidate"] = 2.5


def b_bool_candidate(b):
    b["candidate"] = True


def b_all_zero(b):
    for key in b["gpu_ms"]:
        b["gpu_ms"][key] = 0.0


def b_cancel(b):
    b["gpu_ms"] = {"h2d_si": 5.0, "h2d_ii": -5.0, "trsm": 0.0, "chol": 0.0}


def b_empty(b):
    b["gpu_ms"] = {}


def b_tiny(b):
    g = b["gpu_ms"]
    g["schur_gemm"] = 0.001
    g["chol"] = 0.002
    for key in ("h2d_ii", "scale_si", "scale_ii_diag"):
        g[key] = 0.0005


def b_thresholds(b):
    b["gpu_ms"] = {"h2d_si": 20.0, "trsm": 70.01, "schur_gemm": 6.0, "chol": 3.99}


def b_round_half(b):
    b["gpu_ms"] = {"h2d_si": 12.5, "trsm": 73.5, "chol": 14.0}


def b_trsm_only(b):
    b["gpu_ms"] = {"trsm": 151.5}


# -- the cases -----------------------------------------------------------------

V2 = "--version 2"

CASES = [
    # v1: io hdf5_read + gpu compute only
    Case("v1_start0", "v1, window at candidate 0", tl("--version 1 --seed 11")),
    Case("v1_mid_recorded", "v1 recorded from candidate 5 (x-1 captured, earlier not)",
         tl("--version 1 --seed 12 --start-candidate 5")),
    Case("v1_mid_full", "v1 full run, metadata window at 5", tl("--version 1 --seed 13 --start-candidate 5 --record-from 0")),
    Case("v1_near_end", "v1, 10 candidates, --start_candidate 7 (x+3 beyond the run)",
         tl("--version 1 --seed 14 --num-candidates 10"), args="--start_candidate 7"),
    Case("v1_last", "v1, 10 candidates, --start_candidate 9 (last candidate)",
         tl("--version 1 --seed 14 --num-candidates 10"), args="--start_candidate 9"),
    Case("v1_stall", "v1 with host stalls: synthesized await_dispatch makes a main lane",
         tl("--version 1 --seed 5 --stall-prob 0.6 --start-candidate 3 --record-from 0")),
    Case("v1_observed", "v1, compute end as observed by the I/O thread",
         tl("--version 1 --seed 16 --gpu-end observed --read-ms 220 --start-candidate 4 --record-from 0")),
    Case("v1_breakdown", "v1 with a breakdown panel (cast)",
         tl("--version 1 --seed 17 --start-candidate 4 --record-from 0"),
         bd=bd("--seed 17 --candidate 4 --cast")),
    # v2: + gpu_buffer_wait, wait_for_io, trsm_host
    Case("v2_start0", "v2, window at candidate 0", tl(V2, "--seed 21")),
    Case("v2_start1", "v2, --start_candidate 1 (x-1 = 0)", tl(V2, "--seed 22"), args="--start_candidate 1"),
    Case("v2_mid_recorded", "v2 recorded from candidate 5", tl(V2, "--seed 23 --start-candidate 5")),
    Case("v2_mid_full", "v2 full run of 14, metadata window at 6",
         tl(V2, "--seed 24 --num-candidates 14 --start-candidate 6 --record-from 0")),
    Case("v2_long_run", "v2, 40 candidates recorded from 30",
         tl(V2, "--seed 25 --num-candidates 40 --start-candidate 30")),
    Case("v2_near_end", "v2, 12 candidates, --start_candidate 9", tl(V2, "--seed 26"), args="--start_candidate 9"),
    Case("v2_last", "v2, 12 candidates, --start_candidate 11 (last)", tl(V2, "--seed 26"), args="--start_candidate 11"),
    Case("v2_past_end_by_one", "v2, --start_candidate 12 = max_evals: only x-1 GPU left, "
         "no anchors so the window starts at 0", tl(V2, "--seed 26"), args="--start_candidate 12"),
    Case("v2_past_end_error", "v2, --start_candidate 13: no events, the reference raises",
         tl(V2, "--seed 26"), args="--start_candidate 13", error=True),
    Case("v2_stall50", "v2, --stall-prob 0.5: await_dispatch bars",
         tl(V2, "--seed 6 --stall-prob 0.5 --start-candidate 3 --record-from 0")),
    Case("v2_stall_trsm", "v2, stalls everywhere and trsm_host half the time",
         tl(V2, "--seed 4 --stall-prob 1.0 --trsm-host-prob 0.5 --start-candidate 4 --record-from 0")),
    Case("v2_trsm_host", "v2, --trsm-host-prob 0.7",
         tl(V2, "--seed 11 --trsm-host-prob 0.7 --start-candidate 2 --record-from 0")),
    Case("v2_observed", "v2, --gpu-end observed, I/O bound",
         tl(V2, "--seed 30 --gpu-end observed --read-ms 250 --start-candidate 3 --record-from 0")),
    Case("v2_io_bound", "v2, slow reads: long wait_for_io bars",
         tl(V2, "--seed 31 --read-ms 320 --read-sigma 0.3 --start-candidate 4 --record-from 0")),
    Case("v2_compute_bound", "v2, fast reads: wait_for_io under 1 ms dropped, overlapping streams",
         tl(V2, "--seed 32 --read-ms 60 --compute-ms 260 --start-candidate 4 --record-from 0")),
    Case("v2_gpu_subops", "v2 with gpu sub-op events (ignored by the plot)",
         tl(V2, "--seed 33 --gpu-subops --start-candidate 3 --record-from 0")),
    Case("v2_mpi_meta", "v2 with mpi_ranks / rank0_only metadata and sub-ops",
         tl(V2, "--seed 34 --mpi-meta --gpu-subops --stall-prob 0.3 --start-candidate 5")),
    Case("v2_legend_y", "v2, --legend_y 0.12 (layout only)",
         tl(V2, "--seed 35 --stall-prob 0.4 --start-candidate 2 --record-from 0"), args="--legend_y 0.12"),
    Case("v2_num_candidates3", "v2, --num_candidates 3 (the only value both honour alike)",
         tl(V2, "--seed 36 --start-candidate 3 --record-from 0"), args="--num_candidates 3"),
    # flags vs metadata
    Case("args_focus", "--focus_candidate 4 overrides metadata 0", tl(V2, "--seed 37"),
         args="--focus_candidate 4"),
    Case("args_start_and_focus", "--start_candidate 3 wins over --focus_candidate 7",
         tl(V2, "--seed 37"), args="--start_candidate 3 --focus_candidate 7"),
    Case("args_start0_override", "--start_candidate 0 overrides metadata 5",
         tl(V2, "--seed 38 --start-candidate 5 --record-from 0"), args="--start_candidate 0"),
    Case("meta_record_from", "no start_candidate: timeline_record_from (4) before focus_candidate (7)",
         tl(V2, "--seed 39"), tmut=m_meta_record_from),
    Case("meta_focus", "no start_candidate / timeline_record_from: focus_candidate 6",
         tl(V2, "--seed 39"), tmut=m_meta_focus),
    Case("meta_none", "no window metadata at all: candidate 0", tl(V2, "--seed 39 --start-candidate 4 --record-from 0"),
         tmut=m_meta_none),
    # edited traces
    Case("mut_zero_dur", "zero durations (GPU x and x+3, a read, a wait): no bars, still anchor",
         tl(V2, "--seed 41 --start-candidate 4 --record-from 0"), tmut=m_zero_dur),
    Case("mut_negative_dur", "negative durations on GPU, I/O wait/read and main events",
         tl(V2, "--seed 42 --start-candidate 3 --record-from 0"), tmut=m_negative_dur),
    Case("mut_null_candidates", "null candidates on I/O, main and GPU sub-op events (not on GPU compute)",
         tl(V2, "--seed 43 --gpu-subops --start-candidate 4 --record-from 0"), tmut=m_null_candidates),
    Case("mut_missing_candidates", "candidate key missing on I/O, main and GPU sub-op events",
         tl(V2, "--seed 44 --gpu-subops --start-candidate 2 --record-from 0"), tmut=m_missing_candidates),
    Case("mut_io_wait_only", "I/O bars from gpu_buffer_wait alone, none, and wait past read end",
         tl(V2, "--seed 45 --start-candidate 3 --record-from 0"), tmut=m_io_wait_only),
    Case("mut_buffers", "buffer overrides: 0 on odd, null, missing, 2 outside the GPU range",
         tl(V2, "--seed 46 --start-candidate 4 --record-from 0"), tmut=m_buffers),
    Case("mut_single_stream", "all GPU events on buffer 0: no GPU Stream 1 lane",
         tl(V2, "--seed 47 --start-candidate 3 --record-from 0"), tmut=m_single_stream),
    Case("mut_shuffled", "events in shuffled order (draw order of main / GPU bars follows input)",
         tl(V2, "--seed 8 --stall-prob 0.5 --trsm-host-prob 0.3 --start-candidate 4 --record-from 0"),
         tmut=m_shuffle),
    Case("mut_thresholds", "main 1.0 ms kept / 0.999 dropped; 39.75 ms bar unlabelled, 40 ms labelled",
         tl(V2, "--seed 49 --start-candidate 3 --record-from 0"), tmut=m_thresholds),
    Case("mut_unknown_names", "unknown names, lanes and keys are ignored",
         tl(V2, "--seed 50 --start-candidate 3 --record-from 0"), tmut=m_unknown_names),
    Case("mut_gap_cover", "await_dispatch suppressed when one main event covers the gap (0.05 ms slack)",
         tl(V2, "--seed 51 --stall-prob 1.0 --start-candidate 3 --record-from 0"), tmut=m_gap_cover),
    # breakdown panel
    Case("bd_default", "breakdown, float32 store (no cast keys)",
         tl(V2, "--seed 61 --start-candidate 5 --record-from 0"), bd=bd("--seed 61 --candidate 5")),
    Case("bd_cast", "breakdown with cast_si / cast_ii",
         tl(V2, "--seed 62 --stall-prob 0.5 --start-candidate 4 --record-from 0"),
         bd=bd("--seed 62 --candidate 4 --cast")),
    Case("bd_min1", "--min_runtime_pct 1 (hides nothing in the reference)",
         tl(V2, "--seed 63 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 63 --candidate 3 --cast --profile h100"), args="--min_runtime_pct 1"),
    Case("bd_min5_extra", "--min_runtime_pct 5 with unknown gpu_ms keys (folded into Preprocess)",
         tl(V2, "--seed 64 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 64 --candidate 3 --profile pcie3_shared --extra fused_kernel=3.5 --extra zz_misc=0.2"),
         args="--min_runtime_pct 5"),
    Case("bd_extra_negative", "unknown gpu_ms key with a negative value (dropped)",
         tl(V2, "--seed 65 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 65 --candidate 3 --extra junk=-5 --extra other_op=1.5")),
    Case("bd_tiny_ops", "tiny slices: 1.2 % minimum display width",
         tl(V2, "--seed 66 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 66 --candidate 3 --profile h200"), bmut=b_tiny),
    Case("bd_no_candidate", "breakdown without candidate: title 'Candidate ?'",
         tl(V2, "--seed 67 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 67 --candidate 3"), bmut=b_no_candidate),
    Case("bd_candidate_string", "a string candidate full of XML and TeX specials: shown verbatim",
         tl(V2, "--seed 67 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 67 --candidate 3"), bmut=b_string_candidate),
    Case("bd_candidate_float", "a real candidate (2.5): shown as Python prints it",
         tl(V2, "--seed 67 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 67 --candidate 3"), bmut=b_float_candidate),
    Case("bd_candidate_bool", "a boolean candidate: 'Candidate True'",
         tl(V2, "--seed 67 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 67 --candidate 3"), bmut=b_bool_candidate),
    Case("bd_all_zero", "gpu_ms all zeros: panel hidden and no timeline legend",
         tl(V2, "--seed 68 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 68 --candidate 3"), bmut=b_all_zero),
    Case("bd_total_cancel", "gpu_ms total 0 (5 + -5): panel hidden", tl(V2, "--seed 69 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 69 --candidate 3"), bmut=b_cancel),
    Case("bd_empty_gpu_ms", "gpu_ms {}: no panel, bottom legend as without a breakdown",
         tl(V2, "--seed 70 --stall-prob 0.5 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 70 --candidate 3"), bmut=b_empty),
    Case("bd_thresholds", "slices at exactly 20 % (black text) and under 10 % (no text)",
         tl(V2, "--seed 71 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 71 --candidate 3"), bmut=b_thresholds),
    Case("bd_round_half", "12.5 % printed '12%' (round half to even)",
         tl(V2, "--seed 72 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 72 --candidate 3"), bmut=b_round_half),
    Case("bd_trsm_only", "gpu_ms with trsm only: one 100 % slice",
         tl(V2, "--seed 73 --start-candidate 3 --record-from 0"),
         bd=bd("--seed 73 --candidate 3"), bmut=b_trsm_only),
    # legacy PyTorch Chrome traces
    Case("pt_default", "PyTorch trace, 4 candidates, host events first",
         ["pytorch", "--seed", "3", "--num-candidates", "4", "--trsm-kernels", "2"]),
    Case("pt_no_annotations", "PyTorch trace without gpu_user_annotation events",
         ["pytorch", "--seed", "4", "--num-candidates", "4", "--trsm-kernels", "2", "--no-gpu-annotations"]),
    Case("pt_interleave", "PyTorch trace, device events interleaved (window from the GPU Candidate_Eval_0)",
         ["pytorch", "--seed", "5", "--num-candidates", "4", "--trsm-kernels", "2", "--interleave-gpu"]),
]


# ---------------------------------------------------------------------------
# Writing JSON: top-level keys one per line, list items one per line
# ---------------------------------------------------------------------------


def _compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def dumps_lines(obj):
    keys = list(obj)
    lines = ["{"]
    for i, key in enumerate(keys):
        comma = "," if i + 1 < len(keys) else ""
        v = obj[key]
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            lines.append(f"{_compact(key)}:[")
            for j, item in enumerate(v):
                lines.append(_compact(item) + ("," if j + 1 < len(v) else ""))
            lines.append("]" + comma)
        else:
            lines.append(f"{_compact(key)}:{_compact(v)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_text(path, text):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# ---------------------------------------------------------------------------
# Oracle dump -> expected.json (tracefig figure model)
# ---------------------------------------------------------------------------


def _attach_texts(bars, texts):
    """Each in-bar text is drawn right after its bar, centred on it, in its lane."""
    out = [dict(b, _label=None, _label_color=None) for b in bars]
    pos = 0
    for t in texts:
        for i in range(pos, len(out)):
            b = out[i]
            centre = b["left"] + b["width"] / 2.0
            if b["lane"] == t["lane"] and abs(centre - t["x"]) < 1e-6 and b["_label"] is None:
                b["_label"] = t["text"]
                b["_label_color"] = t["color"]
                pos = i + 1
                break
        else:
            raise RuntimeError(f"text {t['text']!r} at x={t['x']} matches no bar")
    return out


def timeline_expected(case, dump):
    bars = []
    for b in _attach_texts(dump["bars"], dump["texts"]):
        bars.append({
            "lane": b["lane"],
            "name": b["name"],
            "candidate": b["candidate"],
            "start_ms": b["event_start_ms"],
            "dur_ms": b["event_dur_ms"],
            "x0": b["left"],
            "x1": b["left"] + b["width"],
            "clip_left": b["clipped_left"],
            "clip_right": b["clipped_right"],
            "label": b["_label"],
            "label_color": b["_label_color"],
            "color": b["facecolor"],
        })
    legend = []
    if dump.get("legend") and not dump.get("has_breakdown"):
        legend = [{"label": e["label"], "color": e["facecolor"]} for e in dump["legend"]["entries"]]
    breakdown = None
    panel = dump.get("breakdown")
    if panel and panel.get("visible") and panel.get("slices"):
        title = panel["legend"]["title"] if panel.get("legend") else None
        slices = []
        for s in panel["slices"]:
            text = s.get("text")
            slices.append({
                "label": s["label"],
                "pct": s["value_pct"],
                "width_pct": s["display_width_pct"],
                "color": s["facecolor"],
                "text": text["text"] if text else None,
                "text_color": text["color"] if text else None,
            })
        breakdown = {"title": title, "slices": slices}
    return {
        "case": case.name,
        "about": case.about,
        "mode": "timeline",
        "start_candidate": dump["start_candidate"],
        "window": {"start_ms": dump["plot_start_ms"], "end_ms": dump["plot_end_ms"]},
        "zigzag_amp_ms": dump["zigzag_amp_ms"],
        "lanes": [{"id": l["lane"], "label": l["label"]} for l in dump["lanes"]],
        "legend": legend,
        "breakdown": breakdown,
        "xticks": dump["xticks"],
        "error": None,
        "bars": bars,
    }


def pytorch_expected(case, dump):
    bars = [{"lane": b["lane"], "x0": b["left"], "x1": b["left"] + b["width"], "color": b["facecolor"]}
            for b in dump["bars"]]
    s_us, e_us = dump["window_start_us"], dump["window_end_us"]
    return {
        "case": case.name,
        "about": case.about,
        "mode": "pytorch",
        "window_start_us": s_us,
        "window_end_us": e_us,
        "window": {"start_ms": s_us / 1000.0, "end_ms": e_us / 1000.0},
        "xticks": dump["xticks"],
        "error": None,
        "bars": bars,
    }


def error_expected(case, dump, mode):
    err = dump["error"]
    return {
        "case": case.name,
        "about": case.about,
        "mode": mode,
        "reference_exit_status": dump.get("exit_status"),
        "error": {"type": err["type"], "message": err["message"]},
        "bars": [],
    }


def to_expected(case, dump):
    mode = "pytorch" if case.trace[0] == "pytorch" else "timeline"
    if dump.get("error"):
        if not case.error:
            raise RuntimeError(f"{case.name}: the reference failed unexpectedly: {dump['error']}")
        return error_expected(case, dump, mode)
    if case.error:
        raise RuntimeError(f"{case.name}: the reference was expected to fail but did not")
    if dump.get("mode") != mode:
        raise RuntimeError(f"{case.name}: oracle mode {dump.get('mode')!r}, expected {mode!r}")
    if mode == "pytorch":
        return pytorch_expected(case, dump)
    return timeline_expected(case, dump)


# ---------------------------------------------------------------------------
# Building one case
# ---------------------------------------------------------------------------


def run(cmd, **kw):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return res


def gen_json(opts, argv):
    res = run([opts.python, opts.gen] + argv + ["--out", "-", "--indent", "0"])
    if res.returncode != 0:
        raise RuntimeError(f"gen_traces {' '.join(argv)} failed:\n{res.stderr.decode()}")
    return json.loads(res.stdout.decode("utf-8"))


def build_case(opts, case, work):
    cdir = os.path.join(CASES_DIR, case.name)
    if os.path.isdir(cdir):
        shutil.rmtree(cdir)
    os.makedirs(cdir)
    if case.trace[0] == "pytorch":
        tmp = os.path.join(work, case.name + ".trace.json")
        res = run([opts.python, opts.gen] + case.trace + ["--out", tmp])
        if res.returncode != 0:
            raise RuntimeError(f"gen_traces pytorch failed:\n{res.stderr.decode()}")
        shutil.copyfile(tmp, os.path.join(cdir, "trace.json"))
    else:
        payload = gen_json(opts, case.trace)
        if case.tmut:
            case.tmut(payload)
        write_text(os.path.join(cdir, "trace.json"), dumps_lines(payload))
    if case.bd:
        bpayload = gen_json(opts, case.bd)
        if case.bmut:
            case.bmut(bpayload)
        write_text(os.path.join(cdir, "breakdown.json"),
                   json.dumps(bpayload, indent=1, ensure_ascii=False) + "\n")
    header = f"# {case.name}: {case.about}\n"
    write_text(os.path.join(cdir, "args.txt"), header + (case.args + "\n" if case.args else ""))
    dump_path = os.path.join(work, case.name, "dump.json")
    res = run([opts.python, opts.oracle, cdir, dump_path])
    if not os.path.exists(dump_path):
        raise RuntimeError(f"{case.name}: oracle wrote no dump:\n{res.stderr.decode()}")
    with open(dump_path, encoding="utf-8") as f:
        dump = json.load(f)
    if "capture_error" in dump:
        raise RuntimeError(f"{case.name}: oracle capture error:\n{dump['capture_error']}")
    expected = to_expected(case, dump)
    write_text(os.path.join(cdir, "expected.json"), dumps_lines(expected))
    if opts.keep_dumps:
        os.makedirs(opts.keep_dumps, exist_ok=True)
        shutil.copyfile(dump_path, os.path.join(opts.keep_dumps, case.name + ".dump.json"))
    return expected


def summary_line(exp):
    if exp.get("error"):
        return f"ERROR {exp['error']['type']}: {exp['error']['message']}"
    if exp["mode"] == "pytorch":
        n_io = sum(1 for b in exp["bars"] if b["lane"] == "io")
        return f"pytorch io={n_io} gpu={len(exp['bars']) - n_io}"
    counts = {}
    for b in exp["bars"]:
        key = b["name"]
        counts[key] = counts.get(key, 0) + 1
    clips = sum(1 for b in exp["bars"] if b["clip_left"] or b["clip_right"])
    labels = sum(1 for b in exp["bars"] if b["label"] is not None)
    lanes = ",".join(l["id"] for l in exp["lanes"])
    bdp = exp["breakdown"]
    bdtxt = "none" if bdp is None else f"{bdp['title']}:" + "/".join(
        f"{s['label'][:6]}={s['pct']:.1f}" for s in bdp["slices"])
    return (f"x={exp['start_candidate']} win={exp['window']['start_ms']:.1f}..{exp['window']['end_ms']:.1f} "
            f"lanes={lanes} bars={counts} clipped={clips} labels={labels} "
            f"legend={[e['label'] for e in exp['legend']]} bd={bdtxt}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared"),
                    help="the shared folder holding reference/ (default: ../shared from the repo)")
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="interpreter with matplotlib for the oracle (default /usr/bin/python3)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="rebuild only these cases")
    ap.add_argument("--keep-dumps", metavar="DIR", help="also copy the raw oracle dumps to DIR")
    ap.add_argument("--summary", action="store_true", help="print one line per case")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    opts = ap.parse_args()

    if opts.list:
        for c in CASES:
            print(f"{c.name:24} {c.about}")
        return 0
    ref = os.path.join(os.path.abspath(opts.shared), "reference")
    opts.gen = os.path.join(ref, "gen_traces.py")
    opts.oracle = os.path.join(ref, "oracle_dump.py")
    for path in (opts.gen, opts.oracle):
        if not os.path.exists(path):
            print(f"mkparity: SKIP ({path} not found: the reference script and its "
                  "generator are other people's files, in ../shared; use --shared)")
            return 0
    names = [c.name for c in CASES]
    if len(set(names)) != len(names):
        print("mkparity: duplicate case names", file=sys.stderr)
        return 2
    todo = CASES
    if opts.only:
        unknown = sorted(set(opts.only) - set(names))
        if unknown:
            print(f"mkparity: unknown cases: {' '.join(unknown)}", file=sys.stderr)
            return 2
        todo = [c for c in CASES if c.name in opts.only]
    os.makedirs(CASES_DIR, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="mkparity.") as work:
        with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futures = [(c, pool.submit(build_case, opts, c, work)) for c in todo]
            for c, fut in futures:
                try:
                    exp = fut.result()
                except Exception as exc:  # report every broken case, then fail
                    failed += 1
                    print(f"mkparity: {c.name}: {exc}", file=sys.stderr)
                    continue
                if opts.summary:
                    print(f"{c.name:24} {summary_line(exp)}")
    stale = sorted(set(os.listdir(CASES_DIR)) - set(names))
    for name in stale:
        print(f"mkparity: note: {name} is not in the case table (left as is)", file=sys.stderr)
    print(f"mkparity: {len(todo) - failed} cases written, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
