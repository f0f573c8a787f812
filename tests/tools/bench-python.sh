#!/bin/sh
# The Python module's cost against the command line's, for the same figure:
#   - small traces (the examples): the command's wall time per process, best
#     of BENCH_PY_RUNS (default 20), against Figure(...).render() inside one
#     Python process, best of as many (import and interpreter start counted
#     once, apart: "import"); target: within 5 ms;
#   - the ~1 GB Kineto trace of bench-large.sh (same generator, same cache),
#     a 100 ms window and the whole trace: both as whole processes, best of
#     BENCH_LARGE_RUNS (default 3); target: within 10 %.
# Wall times on a shared machine are noisy: best-of runs, and a line over a
# target says OVER rather than failing.
#
#   bench-python.sh BUILD/tracefig
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
py=/usr/bin/python3
lib="$root/$(basename "$(dirname "$bin")")/libtracefig.so.0"
if [ ! -x "$py" ] || [ ! -e "$lib" ]; then
    echo "bench-python: SKIP (needs $py and $lib: make lib)"
    exit 0
fi
export PYTHONPATH="$root/python" TRACEFIG_LIB="$lib"
tmp=${TMPDIR:-/tmp}/tracefig-bench-python.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
runs=${BENCH_PY_RUNS:-20}

# small NAME FORMAT TRACE ARGS... (ARGS as --name value pairs)
small() {
    name=$1 fmt=$2 trace=$3
    shift 3
    "$py" - "$bin" "$runs" "$fmt" "$trace" "$@" <<'PY'
import subprocess, sys, time
bin_, runs, fmt, trace, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
t0 = time.perf_counter()
import tracefig
t_import = time.perf_counter() - t0
opts = {}
for k, v in zip(args[::2], args[1::2]):
    opts[k.lstrip("-").replace("-", "_")] = True if v == "-" else v
cli_args = [bin_, trace] + [a for k, v in zip(args[::2], args[1::2]) for a in ([k] if v == "-" else [k, v])]
best_cli = best_py = 1e9
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run(cli_args + ["--format", fmt, "-o", "/dev/null"], check=True)
    best_cli = min(best_cli, time.perf_counter() - t)
    t = time.perf_counter()
    tracefig.Figure(trace, **opts).render(fmt)
    best_py = min(best_py, time.perf_counter() - t)
d = (best_py - best_cli) * 1e3
print(f"{'python ' + fmt:<12} {trace.split('/')[-1]:<28} command {best_cli*1e3:6.1f} ms  "
      f"Figure().{fmt}() {best_py*1e3:6.1f} ms  ({d:+.1f} ms; target <= +5 ms: "
      f"{'ok' if d <= 5 else 'OVER'}); import tracefig {t_import*1e3:.1f} ms once")
PY
}

small "v2 svg" svg examples/overlap_timeline_v2.json --breakdown examples/candidate_breakdown.json
small "v2 tikz" tikz examples/overlap_timeline_v2.json --width 3.3in
small "kineto svg" svg examples/kineto_trace.json --window-event "ProfilerStep#*" --occurrence 2
small "kineto pdf" pdf examples/kineto_trace.json --window-event "ProfilerStep#*" --occurrence 2

# The 1 GB trace, as bench-large.sh makes it (and caches it).
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
kt="$cache/kineto_1GB.json"
gen=tests/tools/gentrace.py
how="kineto --size 1e9 $(cksum <"$gen")"
if [ ! -s "$kt" ] || [ "$(cat "$kt.how" 2>/dev/null)" != "$how" ]; then
    if [ "${BENCH_PY_LARGE:-1}" = 0 ]; then
        echo "bench-python: 1 GB: SKIP (BENCH_PY_LARGE=0)"
        exit 0
    fi
    mkdir -p "$cache"
    echo "bench-python: generating $kt ..."
    "$py" "$gen" kineto --size 1e9 --out "$kt.part" && mv "$kt.part" "$kt" &&
        printf '%s\n' "$how" >"$kt.how" || { echo "bench-python: gentrace.py failed"; exit 1; }
fi
. "$(dirname "$0")/measure.sh"
runs=${BENCH_LARGE_RUNS:-3}
# cpu LOG: user + system seconds of the run /usr/bin/time -v logged.
cpu() {
    awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1"
}
large() {
    name=$1
    shift
    measure "$tmp/cli.log" "$bin" "$kt" "$@" -o "$tmp/out.svg"
    [ $rc -eq 0 ] || { echo "bench-python: $name: the command failed (rc=$rc)"; return 1; }
    cw=$wall crss=$rss ccpu=$(cpu "$tmp/cli.log")
    # The same options as keyword arguments, in one Python process.
    measure "$tmp/py.log" "$py" -c '
import sys, tracefig
a = sys.argv[2:]
o = {k.lstrip("-").replace("-", "_"): v for k, v in zip(a[::2], a[1::2])}
tracefig.Figure(sys.argv[1], **o).save("'"$tmp"'/py.svg")
' "$kt" "$@"
    [ $rc -eq 0 ] || { echo "bench-python: $name: python failed (rc=$rc)"; tail -5 "$tmp/py.log"; return 1; }
    pw=$wall prss=$rss pcpu=$(cpu "$tmp/py.log")
    pct=$(awk -v c="$cw" -v p="$pw" 'BEGIN { printf "%+.1f", (c > 0 ? (p - c) / c * 100 : 0) }')
    verdict=$(awk -v c="$cw" -v p="$pw" 'BEGIN { print (p <= c * 1.10) ? "ok" : "OVER" }')
    printf '%-26s command %6ss %7s MB   python %6ss %7s MB   (%s %%; target <= +10 %%: %s)\n' \
        "$name" "$cw" "$crss" "$pw" "$prss" "$pct" "$verdict"
    printf '%-26s cpu (user+sys, last run): command %ss, python %ss\n' "" "$ccpu" "$pcpu"
    cmp -s "$tmp/out.svg" "$tmp/py.svg" || echo "  the SVGs differ"
}
large "kineto 1 GB, 100 ms" --from 1000ms --to 1100ms
large "kineto 1 GB, whole"
