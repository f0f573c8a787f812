"""hta_path.py TRACE_DIR [ANNOTATION [INSTANCE]]: HTA's critical path of the
annotation's instance (default the first ProfilerStep) of the one trace in
TRACE_DIR, as lines for compare.py:
  length_us N / cat NAME PCT / ev TS DUR NAME (TS from the trace's first event)
or "FAIL why" when HTA fails or finds no path.  Run with HTA on PYTHONPATH
(tests/critpath/run.sh); fuzz.py and sweep.py import write()."""
import logging
import os
import sys

logging.disable(logging.WARNING)


def _hta():
    """HTA's TraceAnalysis, from PYTHONPATH or ../shared/hta beside the
    checkout; without it the tool says SKIP and why, and exits 0."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.append(os.path.join(here, "..", "..", "..", "shared", "hta"))
    try:
        from hta.trace_analysis import TraceAnalysis as ta
    except ImportError as ex:
        tool = os.path.splitext(os.path.basename(sys.argv[0]))[0]
        print("%s: SKIP (HTA cannot be imported: %s; it is ../shared/hta, with Debian's "
              "python3-pandas, -networkx, -plotly, -psutil and -yaml)" % (tool, ex))
        sys.exit(0)
    return ta


TraceAnalysis = _hta()


def write(ta, rank, annotation, instance, f):
    """HTA's path of the annotation's instance, as the lines above, to f."""
    try:
        res = ta.critical_path_analysis(rank=rank, annotation=annotation, instance_id=instance)
        if res is None or not res[1]:
            f.write("FAIL no path\n")
            return
        g = res[0]
        bd = g.get_critical_path_breakdown()
        tot = bd.duration.sum()
        f.write("length_us %s\n" % tot)
        for k, v in (bd.groupby("bound_by").duration.sum() / tot * 100).items():
            if k:
                f.write("cat %s %s\n" % (k, v))
        df, sym = g.trace_df, g.symbol_table.get_sym_table()
        for e in sorted(g.critical_path_events_set):
            f.write("ev %d %d %s\n" % (df.ts.loc[e], df.dur.loc[e], sym[df.name.loc[e]]))
    except Exception as ex:  # HTA's own failure: noted, not chased
        f.write("FAIL %s: %s\n" % (type(ex).__name__, str(ex).replace("\n", " ")[:160]))


if __name__ == "__main__":
    ta = TraceAnalysis(trace_dir=sys.argv[1])
    write(ta, list(ta.t.traces.keys())[0],
          sys.argv[2] if len(sys.argv) > 2 else "ProfilerStep",
          int(sys.argv[3]) if len(sys.argv) > 3 else 0, sys.stdout)
