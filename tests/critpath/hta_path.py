"""hta_path.py TRACE_DIR [ANNOTATION [INSTANCE]]: HTA's critical path of the
annotation's instance (default the first ProfilerStep) of the one trace in
TRACE_DIR, as lines for compare.py:
  length_us N / cat NAME PCT / ev TS DUR NAME (TS from the trace's first event)
Run with HTA on PYTHONPATH (tests/critpath/run.sh)."""
import logging
import sys

logging.disable(logging.WARNING)
from hta.trace_analysis import TraceAnalysis  # noqa: E402

ta = TraceAnalysis(trace_dir=sys.argv[1])
rank = list(ta.t.traces.keys())[0]
annotation = sys.argv[2] if len(sys.argv) > 2 else "ProfilerStep"
instance = int(sys.argv[3]) if len(sys.argv) > 3 else 0
res = ta.critical_path_analysis(rank=rank, annotation=annotation, instance_id=instance)
if res is None or not res[1]:
    print("FAIL no path")
    sys.exit(0)
g = res[0]
bd = g.get_critical_path_breakdown()
tot = bd.duration.sum()
print("length_us", tot)
for k, v in (bd.groupby("bound_by").duration.sum() / tot * 100).items():
    if k:
        print("cat", k, v)
df, sym = g.trace_df, g.symbol_table.get_sym_table()
for e in sorted(g.critical_path_events_set):
    print("ev", int(df.ts.loc[e]), int(df.dur.loc[e]), sym[df.name.loc[e]])
