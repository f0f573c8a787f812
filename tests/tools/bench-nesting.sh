#!/bin/sh
# bench-nesting.sh TRACEFIG: what nesting costs.  One thread holding a
# stack of n nested slices, for n = 12 500, 25 000, 50 000 and 100 000, as
# B/E pairs (all B, then all E: the loader hands each pair over at its E,
# innermost first) and as X events (outermost first); the SVG of each, in
# the default (auto) mode.  Prints the mean time per figure (hyperfine,
# BENCH_NEST_RUNS runs, default 10; else a shell loop) and, per form, the
# exponent k of time ~ n^k from 12 500 to 100 000 (1 is linear; the build
# before issue 18 measured about 1.7 for B/E).  The inputs are generated
# into a temporary folder.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${BENCH_NEST_RUNS:-10}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-nest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$py" - "$tmp" <<'PY' || { echo "bench-nesting: SKIP (cannot write the inputs)"; exit 0; }
import sys
d = sys.argv[1]
for n in (12500, 25000, 50000, 100000):
    with open("%s/be%d.json" % (d, n), "w") as f:
        ev = ['{"ph":"B","name":"f%d","pid":1,"tid":1,"ts":%d}' % (i % 50, i) for i in range(n)]
        ev += ['{"ph":"E","pid":1,"tid":1,"ts":%d}' % (n + i) for i in range(n)]
        f.write('{"traceEvents":[\n' + ",\n".join(ev) + "\n]}\n")
    with open("%s/x%d.json" % (d, n), "w") as f:
        ev = ['{"ph":"X","name":"f%d","pid":1,"tid":1,"ts":%d,"dur":%d}' % (i % 50, i, 2 * (n - i))
              for i in range(n)]
        f.write('{"traceEvents":[\n' + ",\n".join(ev) + "\n]}\n")
PY

mean_ms() { # FILE: mean ms of one SVG figure of FILE
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine -N --warmup 1 --runs "$runs" --export-csv "$tmp/hf.csv" \
            -- "$bin $1 -o $tmp/out.svg" >/dev/null 2>&1 || { echo "?"; return; }
        sed -n '2p' "$tmp/hf.csv" | cut -d, -f2 | awk '{ printf "%.1f", $1 * 1000 }'
    else
        t0=$(date +%s%N)
        i=0
        while [ $i -lt "$runs" ]; do "$bin" "$1" -o "$tmp/out.svg" 2>/dev/null; i=$((i + 1)); done
        t1=$(date +%s%N)
        awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.1f", (b - a) / n / 1e6 }'
    fi
}

echo "bench-nesting: ms per SVG of one stack n deep (mean of $runs runs)"
for form in be x; do
    line=""
    first=""
    last=""
    for n in 12500 25000 50000 100000; do
        ms=$(mean_ms "$tmp/$form$n.json")
        line="$line  n=$n ${ms} ms"
        [ -z "$first" ] && first=$ms
        last=$ms
    done
    k=$(awk -v a="$first" -v b="$last" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", log(b / a) / log(8); else print "?" }')
    label=$([ $form = be ] && echo "B/E pairs" || echo "X events ")
    echo "bench-nesting: $label$line  (time ~ n^$k)"
done
