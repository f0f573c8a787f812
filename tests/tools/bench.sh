#!/bin/sh
# bench.sh TRACEFIG: milliseconds per figure for each example, and the ratio
# against the reference script when it is installed.
#
# Figures (as examples/render.sh): v1, v2 (+ breakdown), v2-timeline,
# pytorch.  tracefig writes one SVG per run (and a PDF when cairo is built
# in); hyperfine measures it (>= 50 runs, 5 warm-ups, no shell), else a
# shell loop of 50 runs.  The reference
# (../shared/reference/plot_io_trace.py from the repository root, run with
# /usr/bin/python3 and matplotlib) renders the same figure as SVG 3 times.
# Prints one line per figure: "NAME FORMAT  tracefig X ms  reference Y ms  Zx".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
ex="$root/examples"
ref="$root/../shared/reference/plot_io_trace.py"
py=/usr/bin/python3
runs=${BENCH_RUNS:-50}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

have_ref=
if [ ! -f "$ref" ]; then
    echo "bench: reference ratios: SKIP ($ref not found)"
elif [ ! -x "$py" ] || ! "$py" -c 'import matplotlib, seaborn' 2>/dev/null; then
    echo "bench: reference ratios: SKIP (needs $py with python3-matplotlib python3-seaborn)"
else
    have_ref=1
fi
have_hf=
command -v hyperfine >/dev/null 2>&1 && have_hf=1

# mean_ms N CMD...: mean wall time of CMD in ms over N runs.
mean_ms() {
    n=$1
    shift
    if [ -n "$have_hf" ]; then
        hyperfine -N --warmup $(( n > 5 ? 5 : 1 )) --runs "$n" --export-csv "$tmp/hf.csv" \
            -- "$*" >/dev/null 2>&1 || { echo "?"; return; }
        # mean is in seconds, second column
        sed -n '2p' "$tmp/hf.csv" | cut -d, -f2 | awk '{ printf "%.2f", $1 * 1000 }'
    else
        t0=$(date +%s%N)
        i=0
        while [ $i -lt "$n" ]; do "$@" >/dev/null 2>&1; i=$((i + 1)); done
        t1=$(date +%s%N)
        awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }'
    fi
}

formats="svg"
"$bin" --version | grep -q ' pdf ' && formats="svg pdf"

bench() {
    name=$1
    shift
    for fmt in $formats; do
        if ! "$bin" "$@" -o "$tmp/$name.$fmt" >/dev/null 2>&1; then
            echo "$name $fmt: tracefig cannot render it (skipped)"
            continue
        fi
        ours=$(mean_ms "$runs" "$bin" "$@" -o "$tmp/$name.$fmt")
        line=$(printf '%-12s %-4s tracefig %8s ms' "$name" "$fmt" "$ours")
        if [ -n "$have_ref" ] && [ "$fmt" = svg ]; then
            refms=$(mean_ms 3 "$py" "$ref" "$@" --output "$tmp/ref-$name.svg")
            ratio=$(awk -v a="$refms" -v b="$ours" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "?" }')
            line="$line   reference $refms ms   $ratio faster"
        fi
        echo "$line"
    done
}

cd "$ex" || exit 1
echo "bench: ms per figure (mean of $runs runs; reference: 3 runs)"
bench v1 --trace overlap_timeline_v1.json
bench v2 --trace overlap_timeline_v2.json --breakdown candidate_breakdown.json --min_runtime_pct 1
bench v2-timeline --trace overlap_timeline_v2.json
bench pytorch --trace pytorch_chrome_trace.json
