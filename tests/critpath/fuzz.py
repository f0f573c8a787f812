#!/usr/bin/env python3
"""fuzz.py TRACEFIG SEED[-SEED] ... [--keep DIR] [--knobs k=v,...]: for each
seed, gen_random.py's trace, HTA's critical path of its first ProfilerStep
(PYTHONPATH=../shared/hta, python3 with pandas and networkx: HTA runs in
this process) and tracefig's (--window-event ProfilerStep --critical-path
--stats-compat hta --stats=csv), compared by compare.py: the same events
(name, start, duration), each share within 0.1 points.  One line per seed:
"seed N: ok|DIFF|HTA fails|HTA: no path|tracefig fails ..."; a last line
"fuzz: N ok, N diff, N skipped (HTA fails or finds no path)"; exit 1 on a
difference or when tracefig fails where HTA gives a path.  With --keep
DIR the traces of the seeds that differ are kept there (DIR/SEED.json).
Run by hand (issue 47's sweep); tests/critpath/run.sh runs a few seeds."""
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

logging.disable(logging.CRITICAL)
warnings.filterwarnings("ignore")  # pandas' FutureWarnings from HTA
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hta_path  # noqa: E402  (first: without HTA it says SKIP)
import gen_random  # noqa: E402
from hta_path import TraceAnalysis  # noqa: E402
import json  # noqa: E402

args = sys.argv[1:]
keep = knobs = None
if "--keep" in args:
    i = args.index("--keep")
    keep = args[i + 1]
    del args[i:i + 2]
if "--knobs" in args:
    i = args.index("--knobs")
    knobs = {kv.split("=")[0]: int(kv.split("=")[1]) for kv in args[i + 1].split(",")}
    del args[i:i + 2]
tf = args[0]
seeds = []
for a in args[1:]:
    lo, _, hi = a.partition("-")
    seeds += range(int(lo), int(hi or lo) + 1)

tmp = tempfile.mkdtemp(prefix="tracefig-fuzz.")
n_ok = n_diff = n_skip = 0
for seed in seeds:
    d = os.path.join(tmp, str(seed))
    os.makedirs(d)
    trace = os.path.join(d, "t.json")
    doc, kn = gen_random.make(seed, knobs)
    with open(trace, "w") as f:
        json.dump(doc, f)
    cases = [("ProfilerStep", 0)]
    ta = None
    try:
        ta = TraceAnalysis(trace_dir=d)
        rank = list(ta.t.traces.keys())[0]
        df = ta.t.get_trace(rank)
        for an in ("ProfilerStep", "## phase", "_k"):
            ids = [v for k, v in ta.t.symbol_table.get_sym_id_map().items() if an in k]
            cases += [(an, i) for i in range(int(df.name.isin(ids).sum()))
                      if (an, i) != ("ProfilerStep", 0)][:3]
    except Exception:  # HTA's failure shows below
        pass
    for an, inst in cases:
        hta = os.path.join(tmp, "%d.hta" % seed)
        with open(hta, "w") as f:
            hta_path.write(ta, rank, an, inst, f)
        csv = os.path.join(tmp, "%d.csv" % seed)
        with open(csv, "w") as out:
            p = subprocess.run([tf, trace, "--window-event", an, "--occurrence", str(inst + 1),
                                "--critical-path", "--stats-compat", "hta", "--stats=csv"],
                               stdout=out, stderr=subprocess.PIPE, text=True)
        first = open(hta).readline().strip()
        err = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
        bad = False
        if first.startswith("FAIL"):
            n_skip += 1
            what = ("HTA: no path" if first == "FAIL no path" else "HTA fails (%s)" % first[5:]) + \
                ("; tracefig exit %d: %s" % (p.returncode, err) if p.returncode
                 else "; tracefig gives a path")
        elif p.returncode:
            bad = True
            what = "tracefig fails: " + err
        else:
            c = subprocess.run([sys.executable, os.path.join(here, "compare.py"), hta, csv],
                               capture_output=True, text=True)
            bad = c.returncode != 0
            what = c.stdout.strip().replace("\n", " |")
        if bad:
            n_diff += 1
            if keep:
                os.makedirs(keep, exist_ok=True)
                shutil.copy(trace, os.path.join(keep, "%d.json" % seed))
        elif not first.startswith("FAIL"):
            n_ok += 1
        print("seed %d %s, %s %d: %s" % (seed, ",".join("%s=%d" % (k, v) for k, v in sorted(kn.items())),
                                         an, inst, what), flush=True)
shutil.rmtree(tmp, ignore_errors=True)
print("fuzz: %d ok, %d diff, %d skipped (HTA fails or finds no path)" % (n_ok, n_diff, n_skip))
sys.exit(1 if n_diff else 0)
