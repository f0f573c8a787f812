"""sweep.py TRACEFIG TRACE ANNOTATION [WINDOW_EVENT] [MAX]: HTA's critical
path of every instance of ANNOTATION (0..N-1, at most MAX, default 40) in
the Kineto TRACE against tracefig's --window-event WINDOW_EVENT (default
ANNOTATION) --occurrence I+1 --critical-path --stats-compat hta; one line
per instance: "TRACE ANNOTATION I: match|MISMATCH|HTA fails|tracefig
fails ...".  HTA runs in this process (PYTHONPATH=../shared/hta, python3
with pandas and networkx); the trace is loaded once.  Exit 1 on a
mismatch or a tracefig failure where HTA gives a path.  A hand tool for
issue 47's sweep (tests/critpath/run.sh runs hta_path.py per case)."""
import logging
import os
import subprocess
import sys
import tempfile
import warnings

logging.disable(logging.CRITICAL)
warnings.filterwarnings("ignore")  # pandas' FutureWarnings from HTA
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hta_path  # noqa: E402  (without HTA it says SKIP)
from hta_path import TraceAnalysis  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
tf, trace, an = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
we = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else an
most = int(sys.argv[5]) if len(sys.argv) > 5 else 40
tmp = tempfile.mkdtemp(prefix="tracefig-sweep.")
os.symlink(trace, os.path.join(tmp, os.path.basename(trace)))
try:
    ta = TraceAnalysis(trace_dir=tmp)
    rank = list(ta.t.traces.keys())[0]
except Exception as ex:  # not a trace HTA reads
    print("%s %s: HTA fails to load it (%s: %s)" % (os.path.basename(trace), an,
                                                   type(ex).__name__, str(ex)[:120]))
    sys.exit(0)
df = ta.t.get_trace(rank)
ids = [v for k, v in ta.t.symbol_table.get_sym_id_map().items() if an in k]
n = int(df.name.isin(ids).sum())
short = os.path.basename(trace)
bad = 0
for inst in range(min(n, most)):
    out = os.path.join(tmp, "%d.hta" % inst)
    with open(out, "w") as f:
        hta_path.write(ta, rank, an, inst, f)
    csv = os.path.join(tmp, "%d.csv" % inst)
    p = subprocess.run([tf, trace, "--window-event", we, "--occurrence", str(inst + 1),
                        "--critical-path", "--stats-compat", "hta", "--stats=csv"],
                       stdout=open(csv, "w"), stderr=subprocess.PIPE, text=True)
    hta_line = open(out).readline().strip()
    tf_err = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    if hta_line.startswith("FAIL"):
        what = "HTA fails (%s); tracefig %s" % (hta_line[5:], "exit %d: %s" % (p.returncode, tf_err)
                                                 if p.returncode else "gives a path")
    elif p.returncode:
        what = "tracefig fails: " + tf_err
        bad += 1
    else:
        c = subprocess.run([sys.executable, os.path.join(here, "compare.py"), out, csv],
                           capture_output=True, text=True)
        what = ("match " if c.returncode == 0 else "MISMATCH ") + c.stdout.strip().replace("\n", " |")
        bad += c.returncode != 0
    print("%s %s %d/%d: %s" % (short, an, inst, n, what), flush=True)
if n == 0:
    print("%s %s: no instance (HTA finds no name containing it)" % (short, an))
sys.exit(1 if bad else 0)
